/**
 * Agent loop for `@tiny` tools: registry, fail-closed admission and tool execution.
 * @module @tiny/harness
 */
export {
  type AssistantMessage,
  type AssistantToolCall,
  type FilePart,
  type ImagePart,
  type LanguageModelV1,
  type Message,
  type MessagePart,
  ModelCallError,
  messageText,
  type ReasoningPart,
  type SystemMessage,
  type TextPart,
  type ToolChoice,
  type ToolMessage,
  type UserMessage,
} from '@tiny/llm';
// Each layer re-exports the error classes beneath it (STYLE.md).
export {
  ApprovalRequiredError,
  CallDeferredError,
  InjectedArgumentError,
  InvalidInputError,
  InvalidToolPolicyError,
  ModelRetry,
  TinyError,
  ToolDefinitionError,
  ToolFailedError,
  ToolInputError,
  ToolNotFoundError,
  ToolTimeoutError,
} from '@tiny/tools';
export { AgentHarness, type AgentHarnessOptions, type InvokeOptions, type RunInput } from './agent/agent-harness.js';
export { AgentRunStream } from './agent/agent-run-stream.js';
export { type DeferredToolHandler, DROPPED_TOOL_CALL_NUDGE } from './agent/run-loop.js';
export type {
  ArtifactData,
  ArtifactPutOptions,
  ArtifactRef,
  ArtifactStore,
} from './artifacts/artifact-store.js';
export {
  artifactReferenceLine,
  formatArtifactUri,
  formatByteSize,
  parseArtifactUri,
  prepareArtifact,
  verifyArtifactBytes,
} from './artifacts/artifact-uri.js';
export { InMemoryArtifactStore } from './artifacts/in-memory-artifact-store.js';
export type { CheckpointStore, ResumeClaimStore } from './checkpoint/checkpoint-store.js';
export { InMemoryCheckpointStore } from './checkpoint/in-memory-checkpoint-store.js';
export {
  type ApprovalDigestInput,
  type ApprovalPolicyInput,
  type ApprovalSecret,
  approvalDigest,
  approvalPolicyDigest,
} from './deferral/approval-digest.js';
export type { DeferredBatchData, DeferredCall, ToolArguments } from './deferral/deferred-call.js';
export {
  type DeferredCallRef,
  type DeferredDecision,
  DeferredToolResults,
  type TypedDeferredCallRef,
} from './deferral/deferred-tool-results.js';
export {
  parseRunState,
  type RefusedTurn,
  RUN_STATE_VERSION,
  type RunState,
  serializeRunState,
} from './deferral/run-state.js';
export {
  resolveSearchLimits,
  type SearchLimits,
  TOOL_CALL_NAME,
  TOOL_CALL_PARAMETERS,
  TOOL_SEARCH_NAME,
  TOOL_SEARCH_USAGE,
  type ToolSearchSchemaOptions,
  toolCallSchema,
  toolSearchSchema,
} from './discovery/bridge-schemas.js';
export {
  COLLAPSE_DEPTH,
  type CompactedParameters,
  type CompactionStep,
  clipDescription,
  compactParameters,
  compactToolSchema,
  jsonBytes,
  OPEN_OBJECT_SCHEMA,
  type SchemaCompaction,
  THIRD_PARTY_SCHEMA_COMPACTION,
} from './discovery/compact-schema.js';
export {
  createDeferredCatalogue,
  type DeferredCatalogue,
  type DeferredCatalogueEntry,
  type DeferredToolSpec,
  deferredToolSpec,
} from './discovery/deferred-catalogue.js';
export {
  type AdvertisedTools,
  createDiscoverySession,
  type DiscoveryOptions,
  type DiscoverySession,
  type DiscoverySessionInit,
} from './discovery/discovery-session.js';
export {
  type RankMode,
  SEARCH_DESCRIPTION_MAX_CHARS,
  searchDeferredTools,
  type ToolSearchMatch,
  type ToolSearchOptions,
  type ToolSearchOutcome,
} from './discovery/search-deferred-tools.js';
export {
  DEFAULT_MANIFEST_TOKEN_BUDGET,
  firstSentence,
  MANIFEST_SUMMARY_MAX_CHARS,
  renderSearchManifest,
} from './discovery/search-manifest.js';
export { type BridgeableCall, type BridgeUnwrap, unwrapBridgeCall } from './discovery/unwrap-bridge-call.js';
export { ApprovalSecretError } from './errors/approval-secret-error.js';
export { ArtifactUnreadableError } from './errors/artifact-unreadable-error.js';
export { CheckpointUnreadableError } from './errors/checkpoint-unreadable-error.js';
export { DeferredResolutionError, type DeferredResolutionProblem } from './errors/deferred-resolution-error.js';
export { InvalidRunStateError, type InvalidRunStateProblem } from './errors/invalid-run-state-error.js';
export { LimitExceededError } from './errors/limit-exceeded-error.js';
export { ListenerError } from './errors/listener-error.js';
export { MiddlewareError } from './errors/middleware-error.js';
export { type NestedCallRefusal, NestedCallRefusedError } from './errors/nested-call-refused-error.js';
export { RunCancelledError } from './errors/run-cancelled-error.js';
export { StorageError } from './errors/storage-error.js';
export { ToolChoiceIgnoredError } from './errors/tool-choice-ignored-error.js';
export { ToolChoiceUnavailableError } from './errors/tool-choice-unavailable-error.js';
export { ToolExecutionError } from './errors/tool-execution-error.js';
export { UnwrappedAiSdkModelError } from './errors/unwrapped-ai-sdk-model-error.js';
export type {
  AgentEvent,
  AgentEventOf,
  AgentEventType,
  BrokenTurnReason,
  LimitKind,
  RunOutcome,
} from './events/agent-event.js';
export type { AgentEventListener } from './events/event-sink.js';
export { toPlainData } from './execution/plain-data.js';
export { REDACTED, redactToolArguments, SENSITIVE_KEYWORD, sensitive } from './execution/redaction.js';
export { defaultIdempotencyKey, type IdempotencyKeyInput } from './ledger/idempotency-key.js';
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
  NextModel,
  NextTool,
  PendingCall,
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
export { MIDDLEWARE_EVENT_TYPES, type MiddlewareEvent } from './middleware/middleware-event.js';
export { ToolPolicyMiddleware, type ToolPolicyRules } from './middleware/tool-policy-middleware.js';
export { cacheHitRatio } from './prefix/cache-hit-ratio.js';
export { canonicalSchema } from './prefix/canonical-tool.js';
export { diffPrefix, type PrefixBreak, type PrefixChange } from './prefix/diff-prefix.js';
export {
  fingerprintPrefix,
  type PrefixFingerprint,
  type PrefixPart,
  type PrefixSettings,
  type ToolPrefixPart,
} from './prefix/prefix-fingerprint.js';
export { createPrefixTracker, type PrefixState, type PrefixTracker } from './prefix/prefix-tracker.js';
export { type RegisteredTool, type RegisterToolOptions, ToolRegistry } from './registry/tool-registry.js';
export type {
  AgentRun,
  AgentRunBase,
  DeferredAgentRun,
  DeferredToolRequests,
  InterruptedAgentRun,
  SettledAgentRun,
  ToolMetadataRecord,
} from './run/agent-run.js';
export { allowedToolNames, type HostToolAccess, type RunContext } from './run/run-context.js';
export { type RunLimits, resolveRunLimits } from './run/run-limits.js';
export {
  type BrokenTurnCallsPolicy,
  DEFAULT_RUN_POLICY,
  type InvalidArgsPolicy,
  type RunPolicy,
  resolveRunPolicy,
  type ToolChoiceIgnoredPolicy,
  type ToolDialectChoice,
  type ToolErrorPolicy,
  type UnknownToolPolicy,
} from './run/run-policy.js';
export { ApprovalRequiredToolSet } from './toolsets/approval-required-tool-set.js';
export { CombinedToolSet } from './toolsets/combined-tool-set.js';
export { type ExternalCallMetadata, ExternalToolSet, type ExternalToolSpec } from './toolsets/external-tool-set.js';
export { FilteredToolSet, type ToolPredicate } from './toolsets/filtered-tool-set.js';
export { PrefixedToolSet } from './toolsets/prefixed-tool-set.js';
export { PreparedToolSet, type PrepareTools, type ToolDeclaration } from './toolsets/prepared-tool-set.js';
export { registryToolSet, type ToolRegistryView } from './toolsets/registry-tool-set.js';
export { RenamedToolSet } from './toolsets/renamed-tool-set.js';
export {
  listToolSet,
  type ToolExposureExplanation,
  type ToolExposureExplanationKind,
  type ToolSet,
  type ToolSetCallContext,
  type ToolSetContext,
  type ToolSetEvent,
  type ToolSetListing,
} from './toolsets/tool-set.js';
export { toolSetFromTools } from './toolsets/tool-set-from-tools.js';
export { type ToolsFilteredDetail, toolsFilteredDetails } from './toolsets/tools-filtered-details.js';
