import type { LanguageModelV1CallWarning, LanguageModelV1Request, ModelProfile } from '@tiny/llm';
import type { GoogleProviderOptions } from './google-provider-options.js';
import { toGeminiContents } from './to-gemini-contents.js';
import { type GoogleSchemaMode, toGeminiSchema } from './to-gemini-schema.js';

/** What the model needs to build a body. @internal */
export interface BuildContext {
  readonly provider: string;
  readonly profile: ModelProfile;
  readonly schemaMode: GoogleSchemaMode;
  /** The model's own provider options; the request's win key by key. */
  readonly providerOptions: GoogleProviderOptions;
}

/** A built request. @internal */
export interface RequestPlan {
  readonly body: Record<string, unknown>;
  readonly warnings: LanguageModelV1CallWarning[];
}

function toolConfigOf(request: LanguageModelV1Request): Record<string, unknown> | undefined {
  const choice = request.toolChoice ?? { type: 'auto' };
  switch (choice.type) {
    case 'auto':
      return undefined;
    case 'none':
      return { functionCallingConfig: { mode: 'NONE' } };
    case 'required':
      return { functionCallingConfig: { mode: 'ANY' } };
    case 'tool':
      return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.toolName] } };
  }
}

/**
 * Builds the `generateContent` body: `contents`, `systemInstruction`, one `tools` entry holding a
 * `functionDeclarations` list in the caller's order (schemas in `parametersJsonSchema`, or
 * `parameters` in `openapi` mode), `toolConfig` for a tool choice other than `auto`, and
 * `generationConfig` (temperature, topP, topK, maxOutputTokens, stopSequences, seed,
 * thinkingConfig; `responseMimeType: application/json` with `responseJsonSchema` or
 * `responseSchema` for JSON-schema output when the profile declares it, JSON mode for `json`).
 *
 * @throws {GoogleSchemaError} in `openapi` mode, for a keyword Gemini's OpenAPI subset cannot express.
 * @throws {InvalidInputError} for a tool result whose function name cannot be known.
 * @internal
 */
export function buildRequestBody(request: LanguageModelV1Request, context: BuildContext): RequestPlan {
  const warnings: LanguageModelV1CallWarning[] = [];
  const shared = (request.providerOptions?.google ?? {}) as GoogleProviderOptions;
  const own = (
    context.provider === 'google' ? {} : (request.providerOptions?.[context.provider] ?? {})
  ) as GoogleProviderOptions;
  const options: GoogleProviderOptions = { ...context.providerOptions, ...shared, ...own };
  const { systemInstruction, contents } = toGeminiContents(request.messages, warnings);
  const body: Record<string, unknown> = { contents };
  if (systemInstruction.length > 0) body.systemInstruction = { parts: systemInstruction };
  const tools = request.tools ?? [];
  if (tools.length > 0) {
    const field = context.schemaMode === 'openapi' ? 'parameters' : 'parametersJsonSchema';
    body.tools = [
      {
        functionDeclarations: tools.map((tool) => ({
          name: tool.name,
          ...(tool.description === '' ? {} : { description: tool.description }),
          [field]: toGeminiSchema(tool.parameters, context.profile, context.schemaMode, `tool "${tool.name}"`),
        })),
      },
    ];
    const toolConfig = toolConfigOf(request);
    if (toolConfig !== undefined) body.toolConfig = toolConfig;
  }
  const generation: Record<string, unknown> = {};
  if (request.temperature !== undefined) generation.temperature = request.temperature;
  if (request.topP !== undefined) generation.topP = request.topP;
  if (options.topK !== undefined) generation.topK = options.topK;
  if (request.maxTokens !== undefined) generation.maxOutputTokens = request.maxTokens;
  if (request.stopSequences !== undefined && request.stopSequences.length > 0)
    generation.stopSequences = [...request.stopSequences];
  if (request.seed !== undefined) generation.seed = request.seed;
  if (options.thinkingConfig !== undefined) generation.thinkingConfig = { ...options.thinkingConfig };
  const format = request.responseFormat;
  if (format !== undefined && format.type !== 'text') {
    if (format.type === 'json' && context.profile.structuredOutput !== 'none') {
      generation.responseMimeType = 'application/json';
    } else if (format.type === 'json_schema' && context.profile.structuredOutput === 'json_schema') {
      generation.responseMimeType = 'application/json';
      const field = context.schemaMode === 'openapi' ? 'responseSchema' : 'responseJsonSchema';
      generation[field] = toGeminiSchema(format.schema, context.profile, context.schemaMode, 'responseFormat');
    } else {
      warnings.push({
        type: 'unsupported_setting',
        setting: 'responseFormat',
        details: `the profile declares no native ${format.type === 'json' ? 'JSON mode' : 'JSON-schema output'}; use the tool strategy`,
      });
    }
  }
  if (Object.keys(generation).length > 0) body.generationConfig = generation;
  if (options.safetySettings !== undefined) body.safetySettings = options.safetySettings.map((entry) => ({ ...entry }));
  if (options.cachedContent !== undefined) body.cachedContent = options.cachedContent;
  if (options.labels !== undefined) body.labels = { ...options.labels };
  return { body, warnings };
}
