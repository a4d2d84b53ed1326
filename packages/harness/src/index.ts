export { ModelCallError } from '@tiny/llm';
// Each layer re-exports the error classes beneath it (STYLE.md).
export {
  ApprovalRequiredError,
  CallDeferredError,
  InjectedArgumentError,
  InvalidToolPolicyError,
  ModelRetry,
  TinyError,
  ToolDefinitionError,
  ToolFailedError,
  ToolInputError,
  ToolNotFoundError,
  ToolTimeoutError,
} from '@tiny/tools';
export { AgentHarness, type AgentHarnessOptions, type InvokeOptions } from './agent/agent-harness.js';
export { AgentRunStream } from './agent/agent-run-stream.js';
export type { PendingCall } from './agent/loop-state.js';
export { type DeferredToolHandler, DROPPED_TOOL_CALL_NUDGE } from './agent/run-loop.js';
export { type DeferredDecision, DeferredToolResults } from './deferral/deferred-tool-results.js';
export { parseRunState, RUN_STATE_VERSION, type RunState, serializeRunState } from './deferral/run-state.js';
export { DeferredResolutionError, type DeferredResolutionProblem } from './errors/deferred-resolution-error.js';
export { InvalidRunStateError } from './errors/invalid-run-state-error.js';
export { LimitExceededError } from './errors/limit-exceeded-error.js';
export { MiddlewareError } from './errors/middleware-error.js';
export { RunCancelledError } from './errors/run-cancelled-error.js';
export { ToolExecutionError } from './errors/tool-execution-error.js';
export type { AgentEvent, AgentEventOf, AgentEventType, LimitKind, RunOutcome } from './events/agent-event.js';
export type { AgentEventListener } from './events/event-sink.js';
export { defaultIdempotencyKey } from './ledger/idempotency-key.js';
export { InMemoryToolEffectLedger } from './ledger/in-memory-tool-effect-ledger.js';
export { INTERRUPTED_BEFORE_SETTLEMENT } from './ledger/reconcile-tool-effects.js';
export type {
  EffectRecord,
  EffectSettled,
  EffectStarted,
  EffectStatus,
  LedgerFailureMode,
  ToolEffectLedger,
} from './ledger/tool-effect-ledger.js';
export type {
  AfterModelInput,
  AgentMiddleware,
  BeforeModelInput,
  BeforeToolResult,
  MiddlewareContext,
  MiddlewareControl,
  ModelRequestPatch,
  NextTool,
} from './middleware/agent-middleware.js';
export {
  ContextualToolSelectionMiddleware,
  type ToolSelectionLists,
} from './middleware/contextual-tool-selection-middleware.js';
export {
  type ApprovalOutcome,
  HumanApprovalMiddleware,
  type HumanApprovalOptions,
} from './middleware/human-approval-middleware.js';
export { ToolPolicyMiddleware, type ToolPolicyRules } from './middleware/tool-policy-middleware.js';
export { type RegisteredTool, type RegisterToolOptions, ToolRegistry } from './registry/tool-registry.js';
export type {
  AgentRun,
  DeferredBatchData,
  DeferredCall,
  DeferredToolRequests,
  ToolMetadataRecord,
} from './run/agent-run.js';
export { allowedToolNames, type HostToolAccess, type RunContext } from './run/run-context.js';
export { type RunLimits, resolveRunLimits } from './run/run-limits.js';
export {
  DEFAULT_RUN_POLICY,
  type InvalidArgsPolicy,
  type RunPolicy,
  resolveRunPolicy,
  type ToolDialectChoice,
  type ToolErrorPolicy,
  type UnknownToolPolicy,
} from './run/run-policy.js';
