import {
  applySchemaTransform,
  type LanguageModelV1CallWarning,
  type LanguageModelV1Request,
  type ModelProfile,
  type ToolSchema,
} from '@tiny/llm';
import type { AiSdkCallOptions } from '../model/ai-sdk-language-model.js';
import { toPrompt } from './to-prompt.js';

function project(schema: ToolSchema['parameters'], profile: ModelProfile): ToolSchema['parameters'] {
  return profile.schemaTransform === undefined ? schema : applySchemaTransform(schema, profile.schemaTransform);
}

/**
 * Builds AI SDK call options for a request: the prompt, function tools with the profile's schema
 * transform applied (caller order kept), tool choice (dropped without tools), response format
 * (`json_schema` as `{type: 'json', schema, name, description}`), sampling settings, headers,
 * the abort signal and `providerOptions` passed through whole (each AI SDK provider reads its own
 * key).
 * @internal
 */
export function toCallOptions(
  request: LanguageModelV1Request,
  context: { readonly version: string; readonly providerKey: string; readonly profile: ModelProfile },
): { options: AiSdkCallOptions; warnings: LanguageModelV1CallWarning[] } {
  const warnings: LanguageModelV1CallWarning[] = [];
  const prompt = toPrompt(request.messages, { version: context.version, providerKey: context.providerKey, warnings });
  const options: Record<string, unknown> & { prompt: unknown[] } = { prompt };
  const tools = (request.tools ?? []).map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    inputSchema: project(tool.parameters, context.profile),
  }));
  if (tools.length > 0) {
    options.tools = tools;
    if (request.toolChoice !== undefined) options.toolChoice = request.toolChoice;
  }
  const format = request.responseFormat;
  if (format?.type === 'json') options.responseFormat = { type: 'json' };
  if (format?.type === 'json_schema') {
    options.responseFormat = {
      type: 'json',
      schema: project(format.schema, context.profile),
      name: format.name,
      ...(format.description === undefined ? {} : { description: format.description }),
    };
  }
  if (request.maxTokens !== undefined) options.maxOutputTokens = request.maxTokens;
  if (request.temperature !== undefined) options.temperature = request.temperature;
  if (request.topP !== undefined) options.topP = request.topP;
  if (request.stopSequences !== undefined) options.stopSequences = [...request.stopSequences];
  if (request.seed !== undefined) options.seed = request.seed;
  if (request.headers !== undefined) options.headers = { ...request.headers };
  if (request.providerOptions !== undefined) options.providerOptions = request.providerOptions;
  if (request.abortSignal !== undefined) options.abortSignal = request.abortSignal;
  return { options, warnings };
}
