import {
  type LanguageModelV1CallWarning,
  type LanguageModelV1Request,
  type Message,
  type ModelProfile,
  placeSystemPrompt,
  type ToolSchema,
} from '@tiny/llm';
import type { DegradableField } from '../errors/classify-rejection.js';
import type { ResolvedSettings } from '../model/openai-compatible-settings.js';
import { readProviderOptions } from './openai-compatible-provider-options.js';
import { promptGuidedMessages } from './prompt-guided-messages.js';
import { toWireMessages } from './to-wire-messages.js';
import { toWireResponseFormat } from './to-wire-response-format.js';
import { toWireTools } from './to-wire-tools.js';

/** What the body is built from. @internal */
export interface RequestContext {
  readonly modelId: string;
  readonly provider: string;
  readonly profile: ModelProfile;
  readonly settings: ResolvedSettings;
  /** Tools go in the prompt (the profile has no tool calling, or the server rejected tools). */
  readonly promptGuided: boolean;
  /** Fields a server rejected before, sent in their fallback form from now on. */
  readonly degraded: ReadonlySet<DegradableField>;
  readonly stream: boolean;
}

/** A request body and what the response reader needs to know about it. @internal */
export interface RequestPlan {
  readonly body: Record<string, unknown>;
  readonly warnings: LanguageModelV1CallWarning[];
  /** Tools offered in the prompt: calls are read back from the text. `undefined` in native mode. */
  readonly textTools: readonly ToolSchema[] | undefined;
  /** Native `tools` went out. */
  readonly nativeTools: boolean;
  /** Fields sent in a form that has a fallback, for a degraded retry after a 400. */
  readonly degradable: ReadonlySet<DegradableField>;
}

/**
 * Builds the chat-completions body for a request. In prompt-guided mode the messages are reshaped
 * by `promptGuidedMessages` and no `tools` are sent; with a profile whose `systemPrompt` is
 * `first_user` the system text (and tool instructions) move into the first user turn. Otherwise tools, `tool_choice` and
 * `parallel_tool_calls` (the profile's, or the `parallelToolCalls` provider option) go on the
 * wire. Then `response_format`, sampling settings, `stream` / `stream_options`, the provider
 * options (`reasoning_effort`, `user`, `n`, OpenRouter's `reasoning`) and finally `extraBody`,
 * which may override anything.
 * @internal
 */
export function buildRequestBody(request: LanguageModelV1Request, context: RequestContext): RequestPlan {
  const { settings, profile, degraded } = context;
  const warnings: LanguageModelV1CallWarning[] = [];
  const degradable = new Set<DegradableField>();
  const options = readProviderOptions(request.providerOptions, context.provider);
  const tools = request.tools ?? [];
  const shaped: readonly Message[] = context.promptGuided
    ? promptGuidedMessages(request.messages, tools, request.toolChoice)
    : request.messages;
  const messages = profile.systemPrompt === 'first_user' ? placeSystemPrompt(shaped, 'first_user') : shaped;
  const body: Record<string, unknown> = {
    model: context.modelId,
    messages: toWireMessages(messages, settings, warnings),
  };
  const nativeTools = !context.promptGuided && tools.length > 0;
  if (nativeTools) {
    const namedToolChoice = settings.namedToolChoice && !degraded.has('tool_choice');
    const wire = toWireTools(tools, request.toolChoice, { profile, namedToolChoice }, warnings);
    body.tools = wire.tools;
    body.tool_choice = wire.toolChoice;
    if (wire.namedChoiceSent) degradable.add('tool_choice');
    if (!degraded.has('parallel_tool_calls')) {
      body.parallel_tool_calls = options.parallelToolCalls ?? profile.parallelToolCalls;
      degradable.add('parallel_tool_calls');
    }
  }
  const jsonObjectFormat = settings.jsonObjectFormat && !degraded.has('response_format');
  const format = toWireResponseFormat(request.responseFormat, { profile, jsonObjectFormat }, warnings);
  if (format !== undefined) {
    const sent = format.value as { readonly type?: unknown; readonly json_schema?: { readonly schema?: unknown } };
    const schema =
      request.responseFormat?.type === 'json_schema' && sent.type === 'json_schema'
        ? sent.json_schema?.schema
        : undefined;
    // A schema to enforce goes in the field the server reads it from (`schemaField`).
    if (schema !== undefined && settings.schemaField === 'structured_outputs')
      body.structured_outputs = { json: schema };
    else if (schema !== undefined && settings.schemaField === 'json_schema') body.json_schema = schema;
    else if (schema !== undefined && settings.schemaField === 'guided_json') body.guided_json = schema;
    else body.response_format = format.value;
    if (format.jsonObjectSent) degradable.add('response_format');
  }
  if (request.maxTokens !== undefined) body[settings.maxTokensField] = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.stopSequences !== undefined && request.stopSequences.length > 0) body.stop = [...request.stopSequences];
  if (request.seed !== undefined) body.seed = request.seed;
  if (context.stream) {
    body.stream = true;
    if (settings.streamUsage && !degraded.has('stream_options')) {
      body.stream_options = { include_usage: true };
      degradable.add('stream_options');
    }
  }
  if (options.reasoningEffort !== undefined) body.reasoning_effort = options.reasoningEffort;
  if (options.user !== undefined) body.user = options.user;
  if (options.n !== undefined) body.n = options.n;
  if (options.reasoning !== undefined) {
    const { effort, maxTokens, exclude, enabled } = options.reasoning;
    body.reasoning = {
      ...(effort === undefined ? {} : { effort }),
      ...(maxTokens === undefined ? {} : { max_tokens: maxTokens }),
      ...(exclude === undefined ? {} : { exclude }),
      ...(enabled === undefined ? {} : { enabled }),
    };
  }
  if (options.extraBody !== undefined) Object.assign(body, options.extraBody);
  const offered = context.promptGuided && tools.length > 0 && request.toolChoice?.type !== 'none';
  return { body, warnings, textTools: offered ? tools : undefined, nativeTools, degradable };
}
