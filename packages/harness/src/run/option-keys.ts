import type { LanguageModelV1Request } from '@tiny/llm';
import { optionKeys } from '@tiny/tools';
import type { RunContext } from './run-context.js';
import type { RunLimits } from './run-limits.js';
import type { RunPolicy } from './run-policy.js';

/*
 * The key lists of the harness's option types, each checked by `optionKeys` against its type (a
 * member added to the type and not here fails to compile), with the names users bring from the
 * Vercel AI SDK (`generateText`/`streamText`/`Agent`) and the OpenAI Agents SDK mapped to ours.
 */

const POLICY_KEY_LIST = [
  'unknownTool',
  'invalidArgs',
  'toolErrors',
  'toolDialect',
  'maxConcurrency',
  'droppedToolCallNudges',
  'preferMarkdown',
  'captureToolIo',
  'brokenTurnCalls',
  'toolChoiceIgnored',
] as const;

const LIMIT_KEY_LIST = [
  'maxModelCalls',
  'maxToolCalls',
  'maxToolDepth',
  'maxRetriesPerCall',
  'wallClockMs',
  'toolTimeouts',
  'retryDelayMs',
] as const;

const MODEL_SETTING_KEY_LIST = [
  'responseFormat',
  'maxTokens',
  'temperature',
  'topP',
  'stopSequences',
  'seed',
  'headers',
  'providerOptions',
] as const;

const APPROVAL = 'policy: ToolPolicy.classified().requiringApproval() on the tool (defineTool)';
const HOST_VALUES = 'RunContext.hostValues (the context argument of invoke/stream)';
const SYSTEM = "a { role: 'system' } message first in the messages you pass to invoke/stream";

/** Names a step/retry budget goes by elsewhere. */
const LIMIT_MISTAKES = {
  maxSteps: 'limits.maxModelCalls',
  stopWhen: 'limits.maxModelCalls',
  maxTurns: 'limits.maxModelCalls',
  maxRetries: 'limits.maxRetriesPerCall',
  timeout: 'limits.wallClockMs',
  timeoutMs: 'limits.wallClockMs',
  maxDepth: 'limits.maxToolDepth',
};

/** Policy and limit keys written one level too high, pointing at where they belong. */
const nested = (prefix: string, keys: readonly string[]) =>
  Object.fromEntries(keys.map((key) => [key, `${prefix}.${key}`]));

/** Options a run shares with the harness, and the AI SDK names for them. @internal */
export const SHARED_MISTAKES = {
  ...nested('policy', POLICY_KEY_LIST),
  ...nested('limits', LIMIT_KEY_LIST),
  ...LIMIT_MISTAKES,
  needsApproval: APPROVAL,
  experimental_context: HOST_VALUES,
  context: HOST_VALUES,
  hostValues: HOST_VALUES,
  abortSignal: 'RunContext.signal (the context argument of invoke/stream)',
  signal: 'RunContext.signal (the context argument of invoke/stream)',
  system: SYSTEM,
  instructions: SYSTEM,
  onStepFinish: 'onEvent (turn_completed, tool_completed, …)',
  onFinish: 'onEvent (run_completed)',
  onChunk: 'onEvent (model_delta), or harness.stream',
  onError: 'onEvent (run_failed)',
  prepareStep: 'middleware (beforeModel)',
  experimental_prepareStep: 'middleware (beforeModel)',
  experimental_output: 'invokeStructured from @tiny/structured',
  output: 'invokeStructured from @tiny/structured',
  experimental_telemetry: 'onEvent with @tiny/otel',
  ...nested('modelSettings', MODEL_SETTING_KEY_LIST),
  maxOutputTokens: 'modelSettings.maxTokens',
};

/** Every {@link RunContext} key. @internal */
export const RUN_CONTEXT_KEYS = optionKeys<RunContext>()(
  ['hostValues', 'state', 'store', 'workspace', 'signal', 'runId', 'threadId', 'host'],
  {
    experimental_context: 'hostValues',
    context: 'hostValues',
    abortSignal: 'signal',
    allowedTools: 'host.allowedTools',
    sessionId: 'threadId',
    conversationId: 'threadId',
  },
);

/** Every {@link RunPolicy} key. @internal */
export const RUN_POLICY_KEYS = optionKeys<RunPolicy>()(POLICY_KEY_LIST, {
  ...nested('limits', LIMIT_KEY_LIST),
  ...LIMIT_MISTAKES,
  needsApproval: APPROVAL,
  parallelToolCalls: 'maxConcurrency (1 runs calls one at a time)',
  toolUseBehavior: 'returnDirect on the tool, or toolErrors',
  dialect: 'toolDialect',
  repairToolCall: "invalidArgs: 'normalize_then_return_tool_error'",
  experimental_repairToolCall: "invalidArgs: 'normalize_then_return_tool_error'",
});

/** Every {@link RunLimits} key. @internal */
export const RUN_LIMIT_KEYS = optionKeys<RunLimits>()(LIMIT_KEY_LIST, {
  ...nested('policy', POLICY_KEY_LIST),
  maxSteps: 'maxModelCalls',
  stopWhen: 'maxModelCalls',
  maxTurns: 'maxModelCalls',
  maxRetries: 'maxRetriesPerCall',
  timeout: 'wallClockMs',
  timeoutMs: 'wallClockMs',
  maxDepth: 'maxToolDepth',
  maxNestingDepth: 'maxToolDepth',
});

/** Every key of `InvokeOptions.modelSettings` (a request without messages, tools, tool choice and signal). @internal */
export const MODEL_SETTING_KEYS = optionKeys<
  Omit<LanguageModelV1Request, 'messages' | 'tools' | 'toolChoice' | 'abortSignal'>
>()(MODEL_SETTING_KEY_LIST, {
  maxOutputTokens: 'maxTokens',
  max_tokens: 'maxTokens',
  max_completion_tokens: 'maxTokens',
  top_p: 'topP',
  stop: 'stopSequences',
  response_format: 'responseFormat',
  toolChoice: 'toolChoice (an option of invoke/stream, not a model setting)',
});
