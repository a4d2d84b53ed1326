import type {
  CallSource,
  LanguageModelV1,
  LanguageModelV1Usage,
  Message,
  ToolDialect,
  ToolFormat,
  ToolSchema,
} from '@tiny/llm';
import type { JsonValue } from '@tiny/tools';
import type { ArtifactRef, ArtifactStore } from '../artifacts/artifact-store.js';
import type { ApprovalSecret } from '../deferral/approval-digest.js';
import type { DiscoveryOptions, DiscoverySession } from '../discovery/discovery-session.js';
import type { EventSink } from '../events/event-sink.js';
import type { IdempotencyKeyRule, LedgerFailureMode, ToolEffectLedger } from '../ledger/tool-effect-ledger.js';
import type { AgentMiddleware } from '../middleware/agent-middleware.js';
import type { PrefixTracker } from '../prefix/prefix-tracker.js';
import type { RegisteredTool, ToolRegistry } from '../registry/tool-registry.js';
import type { ToolMetadataRecord } from '../run/agent-run.js';
import type { RunContext } from '../run/run-context.js';
import type { RunLimits } from '../run/run-limits.js';
import type { RunPolicy } from '../run/run-policy.js';
import type { RunDeadline } from '../run/run-stop.js';
import type { ToolSet } from '../toolsets/tool-set.js';

// The loop's modules take `PendingCall` from here; it is declared with the middleware hooks that receive it.
export type { PendingCall } from '../middleware/agent-middleware.js';

/** How a model call was written: the tool format and the grammar it was read with. */
export interface CallFormat {
  readonly format: ToolFormat['type'];
  readonly grammar: CallSource;
  /** The call's block was cut off before it closed: never repaired into a runnable call. */
  readonly partial?: true;
  /** The adapter refused the call (`ToolCall.refused`): never repaired or run, also after a resume. */
  readonly refused?: true;
}

/**
 * The mutable state of one run. Everything per-turn is derived from it; the transcript is one
 * array that only grows.
 * @internal
 */
export interface LoopState {
  readonly runId: string;
  readonly model: LanguageModelV1;
  readonly registry: ToolRegistry;
  readonly policy: RunPolicy;
  readonly limits: RunLimits;
  readonly context: RunContext;
  readonly sink: EventSink;
  readonly dialect: ToolDialect;
  readonly middleware: readonly AgentMiddleware[];
  /** Whether any middleware wraps tool execution (then batches run serially). */
  readonly wrapsTools: boolean;
  readonly signal: AbortSignal;
  /** The wall-clock deadline (`limits.wallClockMs`), which aborts `signal` when it passes. */
  readonly deadline: RunDeadline | undefined;
  /**
   * The transcript: messages enter it only through `appendMessage`/`appendBuilt` (deep-frozen), so
   * no message in it changes once appended; a step that changes one appends or builds a new object.
   */
  readonly history: readonly Message[];
  /** Call ids a human approved (resume after an approval). */
  readonly approvedCalls: Set<string>;
  /** The tool each decision-approved call was approved for (see `isApprovedCall`). */
  readonly approvedTools: Map<string, string>;
  /** The current turn (1-based). */
  turn: number;
  /** Where started/settled effect rows go; absent means no ledger I/O at all. */
  readonly ledger: ToolEffectLedger | undefined;
  readonly ledgerFailure: LedgerFailureMode;
  /** The host's idempotency-key rule, when it has one. */
  readonly idempotencyKey: IdempotencyKeyRule | undefined;
  /** Signs pending calls' digests (see `AgentHarnessOptions.approvalSecret`). */
  readonly approvalSecret: ApprovalSecret | undefined;
  /** Signs every run state written (see `AgentHarnessOptions.stateSecret`). */
  readonly stateSecret: ApprovalSecret | undefined;
  /** This turn's callable tools, by name (advertised and allowed). */
  offered: ReadonlyMap<string, RegisteredTool>;
  /** Deferred tools: not on the wire, callable by name or through `tool_call` (after the allow-list). */
  deferredTools: ReadonlyMap<string, RegisteredTool>;
  /** Toolsets resolved every turn, after the registry. */
  readonly toolSets: readonly ToolSet[];
  /** The run's deferred-tool discovery (catalogue, bridge, promotions); built on the first turn. */
  discovery: DiscoverySession | undefined;
  readonly discoveryOptions: DiscoveryOptions;
  offeredSchemas: readonly ToolSchema[];
  /** The registry schema list `offered` was computed from. */
  offeredFrom: readonly ToolSchema[] | undefined;
  modelCalls: number;
  toolCalls: number;
  usage: LanguageModelV1Usage;
  readonly executedTools: string[];
  readonly toolMetadata: ToolMetadataRecord[];
  /** Where oversized and binary results go; absent means results are folded as they are. */
  readonly artifactStore: ArtifactStore | undefined;
  /** References stored by this run, in fold order. */
  readonly artifacts: ArtifactRef[];
  readonly stateUpdates: JsonValue[];
  /** Counters for nested call ids (`<parent>/<n>`), by parent id. */
  readonly nestedCalls: Map<string, number>;
  /** Call ids already used in this run, so a provider that repeats one gets a fresh id. */
  readonly seenCallIds: Set<string>;
  /** How each model call of this run was written: the tool format and the grammar it was read with, by call id. */
  readonly callFormats: Map<string, CallFormat>;
  /** The prompt prefix's stable tool order and last fingerprint (see `prompt_prefix_changed`). */
  readonly prefix: PrefixTracker;
  /** Approved calls the host edited (`approveWithArgs`), with the arguments they ran with: the tool result says so. */
  readonly hostEdited: Map<string, unknown>;
}
