/**
 * Attribute names from the OpenTelemetry GenAI semantic conventions (status: Development, checked
 * against semantic-conventions v1.41) and the `tiny.*` names this package adds for harness facts
 * the conventions do not cover.
 */
export const ATTRIBUTES = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  agentName: 'gen_ai.agent.name',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  /** Input tokens served from the provider's prompt cache (part of `gen_ai.usage.input_tokens`). */
  cacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  finishReasons: 'gen_ai.response.finish_reasons',
  outputMessages: 'gen_ai.output.messages',
  toolName: 'gen_ai.tool.name',
  toolType: 'gen_ai.tool.type',
  toolCallId: 'gen_ai.tool.call.id',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  errorType: 'error.type',
  runId: 'tiny.run.id',
  runOutcome: 'tiny.run.outcome',
  runTurns: 'tiny.run.turns',
  turn: 'tiny.turn',
  modelCallId: 'tiny.model_call.id',
  toolCallCount: 'tiny.model.tool_call_count',
  toolsAdvertised: 'tiny.tools.advertised',
  toolDialect: 'tiny.tool_dialect',
  parentCallId: 'tiny.tool.parent_call.id',
  outputBytes: 'tiny.tool.output_bytes',
  /** The tool format the model wrote the call in: `json`, `xml` or `ptype`. */
  toolCallFormat: 'tiny.tool.call_format',
  /** The grammar the call was read with (`native`, `tagged_json`, `xml_element`, `ptype`, …). */
  toolCallGrammar: 'tiny.tool.call_grammar',
  errorMessage: 'tiny.error.message',
  /** Digest of a request's prompt prefix (`model_started.prefixFingerprint`): equal digests, identical prefixes. */
  promptPrefixFingerprint: 'tiny.prompt.prefix_fingerprint',
  /** What a `prompt_prefix_changed` named, as `tool:<change>:<name>`, `system:changed`, `history:rewritten:<index>`. */
  promptPrefixChanges: 'tiny.prompt.prefix_changes',
  /** Estimated prefix tokens a cache could no longer reuse after a prefix change. */
  promptPrefixLostTokens: 'tiny.prompt.prefix_lost_tokens',
  /** On the run span: cache-read input tokens over input tokens, when the provider reported cache reads. */
  cacheHitRatio: 'tiny.cache.hit_ratio',
} as const;

/** `gen_ai.operation.name` values used here. */
export const OPERATIONS = { invokeAgent: 'invoke_agent', chat: 'chat', executeTool: 'execute_tool' } as const;

/** Low-cardinality `error.type` values this package reports. */
export const ERROR_TYPES = {
  /** A tool threw and the run stopped (`tool_failed`). */
  toolFailed: 'tool_failed',
  /** The tool answered the model with an error result (`tool_completed` with `error`). */
  toolError: 'tool_error',
  /** The model called a tool that was not offered; the harness answered with an error. */
  unknownTool: 'unknown_tool',
  /** The model's arguments failed the schema; the harness answered with an error. */
  invalidArguments: 'invalid_arguments',
  /** A budget ran out (`limit_reached`). */
  limitExceeded: 'limit_exceeded',
  /** The run ended with `run_failed` for another reason, or a span was left open by it. */
  other: '_OTHER',
} as const;
