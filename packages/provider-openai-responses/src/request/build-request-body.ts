import {
  applySchemaTransform,
  type LanguageModelV1CallWarning,
  type LanguageModelV1Request,
  type Message,
  type ModelProfile,
  normalizeParameters,
  type ToolSchema,
  toStrictSchema,
} from '@tiny/llm';
import { type OpenAIResponsesProviderOptions, readProviderOptions } from './responses-provider-options.js';
import { strictToolSchema } from './strict-tool-schema.js';
import { toWireInput } from './to-wire-input.js';

/** What the model needs to build a body. @internal */
export interface BuildContext {
  readonly modelId: string;
  readonly provider: string;
  readonly profile: ModelProfile;
  /** The model's own provider options; the request's win key by key. */
  readonly providerOptions: OpenAIResponsesProviderOptions;
  readonly stream: boolean;
}

/** A built request. @internal */
export interface RequestPlan {
  readonly body: Record<string, unknown>;
  readonly warnings: LanguageModelV1CallWarning[];
}

function wireTool(tool: ToolSchema, profile: ModelProfile): Record<string, unknown> {
  const normalized = normalizeParameters(tool.parameters);
  const parameters =
    profile.schemaTransform === undefined ? normalized : applySchemaTransform(normalized, profile.schemaTransform);
  const strict = strictToolSchema(parameters);
  return {
    type: 'function',
    name: tool.name,
    ...(tool.description === undefined || tool.description === '' ? {} : { description: tool.description }),
    parameters: strict ?? parameters,
    strict: strict !== undefined,
  };
}

/** The messages to send: all of them, or with `previousResponseId` those after the last assistant turn. */
function messagesToSend(messages: readonly Message[], previous: string | undefined): readonly Message[] {
  if (previous === undefined) return messages;
  let last = -1;
  messages.forEach((message, index) => {
    if (message.role === 'assistant') last = index;
  });
  return messages.slice(last + 1);
}

function textFormat(
  request: LanguageModelV1Request,
  profile: ModelProfile,
  warnings: LanguageModelV1CallWarning[],
): Record<string, unknown> | undefined {
  const format = request.responseFormat;
  if (format === undefined || format.type === 'text') return undefined;
  if (profile.structuredOutput === 'none') {
    warnings.push({
      type: 'unsupported_setting',
      setting: 'responseFormat',
      details: 'the model profile has no structured output',
    });
    return undefined;
  }
  if (format.type === 'json' || profile.structuredOutput === 'json_object') {
    if (format.type === 'json_schema')
      warnings.push({
        type: 'unsupported_setting',
        setting: 'responseFormat',
        details: 'the model takes JSON mode only; the schema is not enforced',
      });
    return { type: 'json_object' };
  }
  const transformed =
    profile.schemaTransform === undefined
      ? format.schema
      : applySchemaTransform(format.schema, profile.schemaTransform);
  return {
    type: 'json_schema',
    name: format.name,
    ...(format.description === undefined ? {} : { description: format.description }),
    schema: format.strict === true ? toStrictSchema(transformed) : transformed,
    ...(format.strict === undefined ? {} : { strict: format.strict }),
  };
}

/**
 * Builds the `POST /responses` body. Function tools keep the caller's order, each `strict` when
 * strict mode would not change what it accepts (see `strictToolSchema`), then the hosted tools of
 * the provider options as given. Stateless by default: `store: false` with
 * `include: ['reasoning.encrypted_content']`, so reasoning comes back to be replayed from the
 * transcript; `previousResponseId` sends only the messages after the last assistant turn.
 * `responseFormat` goes in `text.format` (`json_schema`, made strict by `toStrictSchema` when
 * `strict`; `json_object` for JSON mode). `stopSequences` and `seed` have no Responses API field
 * and are reported as unsupported.
 * @internal
 */
export function buildRequestBody(request: LanguageModelV1Request, context: BuildContext): RequestPlan {
  const warnings: LanguageModelV1CallWarning[] = [];
  const options = readProviderOptions(context.providerOptions, request.providerOptions, context.provider);
  const store = options.store ?? false;
  const body: Record<string, unknown> = {
    model: context.modelId,
    input: toWireInput(messagesToSend(request.messages, options.previousResponseId), warnings),
  };
  if (options.previousResponseId !== undefined) body.previous_response_id = options.previousResponseId;
  const functionTools = (request.tools ?? []).map((tool) => wireTool(tool, context.profile));
  const tools = [...functionTools, ...(options.hostedTools ?? []).map((tool) => ({ ...tool }))];
  if (tools.length > 0) {
    body.tools = tools;
    const choice = request.toolChoice ?? { type: 'auto' };
    body.tool_choice = choice.type === 'tool' ? { type: 'function', name: choice.toolName } : choice.type;
    body.parallel_tool_calls = options.parallelToolCalls ?? context.profile.parallelToolCalls;
  }
  const format = textFormat(request, context.profile, warnings);
  if (format !== undefined || options.textVerbosity !== undefined) {
    body.text = {
      ...(format === undefined ? {} : { format }),
      ...(options.textVerbosity === undefined ? {} : { verbosity: options.textVerbosity }),
    };
  }
  if (request.maxTokens !== undefined) body.max_output_tokens = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.stopSequences !== undefined && request.stopSequences.length > 0)
    warnings.push({
      type: 'unsupported_setting',
      setting: 'stopSequences',
      details: 'the Responses API has no stop sequences',
    });
  if (request.seed !== undefined)
    warnings.push({ type: 'unsupported_setting', setting: 'seed', details: 'the Responses API has no seed' });
  if (options.reasoningEffort !== undefined || options.reasoningSummary !== undefined) {
    body.reasoning = {
      ...(options.reasoningEffort === undefined ? {} : { effort: options.reasoningEffort }),
      ...(options.reasoningSummary === undefined ? {} : { summary: options.reasoningSummary }),
    };
  }
  body.store = store;
  const encrypted = !store && options.encryptedReasoning !== false;
  const include = [...(encrypted ? ['reasoning.encrypted_content'] : []), ...(options.include ?? [])];
  if (include.length > 0) body.include = [...new Set(include)];
  if (options.serviceTier !== undefined) body.service_tier = options.serviceTier;
  if (options.promptCacheKey !== undefined) body.prompt_cache_key = options.promptCacheKey;
  if (options.safetyIdentifier !== undefined) body.safety_identifier = options.safetyIdentifier;
  if (options.metadata !== undefined) body.metadata = { ...options.metadata };
  if (options.truncation !== undefined) body.truncation = options.truncation;
  if (context.stream) body.stream = true;
  return { body, warnings };
}
