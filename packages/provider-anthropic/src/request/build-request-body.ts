import {
  applySchemaTransform,
  cleanSchema,
  type LanguageModelV1CallWarning,
  type LanguageModelV1Request,
  type ModelProfile,
  type ToolSchema,
} from '@tiny/llm';
import type { AnthropicCacheControl, AnthropicProviderOptions } from './anthropic-provider-options.js';
import { createBreakpointMarker, placeAutoBreakpoints } from './place-cache-breakpoints.js';
import { toWireMessages, type WireBlock } from './to-wire-messages.js';

/** What the model needs to build a body. @internal */
export interface BuildContext {
  readonly modelId: string;
  readonly provider: string;
  readonly profile: ModelProfile;
  /** `max_tokens` when the request sets none (the API requires one). */
  readonly defaultMaxTokens: number;
  /** The model's own provider options; the request's win key by key. */
  readonly providerOptions: AnthropicProviderOptions;
  readonly stream: boolean;
}

/** A built request. @internal */
export interface RequestPlan {
  readonly body: Record<string, unknown>;
  readonly betas: readonly string[];
  readonly warnings: LanguageModelV1CallWarning[];
}

function cachePlan(option: AnthropicProviderOptions['cacheControl']): Required<AnthropicCacheControl> | undefined {
  if (option === undefined || option === false) return undefined;
  const given = option === true || option === 'auto' ? {} : option;
  return {
    system: given.system ?? true,
    tools: given.tools ?? true,
    messages: given.messages ?? 2,
    ttl: given.ttl ?? '5m',
  };
}

/** The profile's transform (when it has one), then the `anthropic` projection. */
function project(schema: ToolSchema['parameters'], profile: ModelProfile): ToolSchema['parameters'] {
  const transformed =
    profile.schemaTransform === undefined ? schema : applySchemaTransform(schema, profile.schemaTransform);
  return cleanSchema(transformed, 'anthropic');
}

function wireTool(tool: ToolSchema, profile: ModelProfile): WireBlock {
  const schema = project(tool.parameters, profile) as Record<string, unknown>;
  const inputSchema = schema.type === undefined ? { type: 'object', ...schema } : schema;
  return {
    name: tool.name,
    ...(tool.description === '' ? {} : { description: tool.description }),
    input_schema: inputSchema,
  };
}

function toolChoiceOf(request: LanguageModelV1Request, disableParallel: boolean): WireBlock | undefined {
  const choice = request.toolChoice ?? { type: 'auto' };
  const parallel = disableParallel ? { disable_parallel_tool_use: true } : {};
  switch (choice.type) {
    case 'auto':
      return disableParallel ? { type: 'auto', ...parallel } : undefined;
    case 'none':
      return { type: 'none' };
    case 'required':
      return { type: 'any', ...parallel };
    case 'tool':
      return { type: 'tool', name: choice.toolName, ...parallel };
  }
}

/**
 * Builds the Messages API body. Tools keep the caller's order and a stable key order, so a prompt
 * cache sees identical prefixes; server tools follow the function tools. Prompt-caching
 * breakpoints go on the last tool, the last system block and the last block of the latest user
 * turns (`cacheControl: 'auto'`: see `placeAutoBreakpoints`), at most four in all, counting
 * breakpoints the request already carries. `responseFormat` is sent as `output_config.format` when the profile
 * declares `json_schema` output; otherwise it is reported as unsupported (use the tool strategy).
 * @internal
 */
export function buildRequestBody(request: LanguageModelV1Request, context: BuildContext): RequestPlan {
  const warnings: LanguageModelV1CallWarning[] = [];
  const shared = (request.providerOptions?.anthropic ?? {}) as AnthropicProviderOptions;
  const own = (
    context.provider === 'anthropic' ? {} : (request.providerOptions?.[context.provider] ?? {})
  ) as AnthropicProviderOptions;
  const options: AnthropicProviderOptions = { ...context.providerOptions, ...shared, ...own };
  const { system, messages, previousEnd } = toWireMessages(request.messages, warnings);
  const cache = cachePlan(options.cacheControl);
  const cacheMark =
    cache === undefined
      ? undefined
      : cache.ttl === '5m'
        ? { type: 'ephemeral' }
        : { type: 'ephemeral', ttl: cache.ttl };
  const functionTools = (request.tools ?? []).map((tool) => wireTool(tool, context.profile));
  const tools = [...functionTools, ...(options.serverTools ?? []).map((tool) => ({ ...tool }))];
  const mark =
    cacheMark === undefined ? () => undefined : createBreakpointMarker({ tools, system, messages }, cacheMark);
  if (options.cacheControl === 'auto') placeAutoBreakpoints({ tools, system, messages, previousEnd }, mark);
  else if (cache !== undefined) {
    if (cache.tools) mark(tools[tools.length - 1]);
    if (cache.system) mark(system[system.length - 1]);
    let left = cache.messages;
    for (let index = messages.length - 1; index >= 0 && left > 0; index -= 1) {
      const message = messages[index];
      if (message?.role !== 'user') continue;
      mark(message.content[message.content.length - 1]);
      left -= 1;
    }
  }

  const body: Record<string, unknown> = {
    model: context.modelId,
    max_tokens: request.maxTokens ?? context.defaultMaxTokens,
    ...(system.length === 0 ? {} : { system }),
    messages,
  };
  if (tools.length > 0) {
    body.tools = tools;
    const disableParallel = options.disableParallelToolUse === true || !context.profile.parallelToolCalls;
    const choice = toolChoiceOf(request, disableParallel);
    if (choice !== undefined) body.tool_choice = choice;
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (options.topK !== undefined) body.top_k = options.topK;
  if (request.stopSequences !== undefined && request.stopSequences.length > 0)
    body.stop_sequences = [...request.stopSequences];
  if (request.seed !== undefined)
    warnings.push({ type: 'unsupported_setting', setting: 'seed', details: 'the Messages API has no seed' });
  if (options.userId !== undefined) body.metadata = { user_id: options.userId };
  if (options.thinking?.type === 'enabled') {
    body.thinking = { type: 'enabled', budget_tokens: options.thinking.budgetTokens };
    for (const setting of ['temperature', 'top_p', 'top_k'] as const) {
      if (body[setting] === undefined) continue;
      delete body[setting];
      warnings.push({ type: 'unsupported_setting', setting, details: 'not allowed with extended thinking; left out' });
    }
  } else if (options.thinking?.type === 'disabled') {
    body.thinking = { type: 'disabled' };
  }
  const format = request.responseFormat;
  if (format !== undefined && format.type !== 'text') {
    if (format.type === 'json_schema' && context.profile.structuredOutput === 'json_schema') {
      body.output_config = { format: { type: 'json_schema', schema: project(format.schema, context.profile) } };
    } else {
      warnings.push({
        type: 'unsupported_setting',
        setting: 'responseFormat',
        details: `${context.modelId} has no native ${format.type === 'json' ? 'JSON mode' : 'JSON-schema output'} in its profile; use the tool strategy`,
      });
    }
  }
  if (context.stream) body.stream = true;
  return { body, betas: options.betas ?? [], warnings };
}
