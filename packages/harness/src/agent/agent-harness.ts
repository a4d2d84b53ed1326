import { createHash } from 'node:crypto';
import {
  createToolDialect,
  type LanguageModelV1,
  type LanguageModelV1Request,
  type Message,
  pairToolCycles,
  type ToolChoice,
  type ToolDialectKind,
} from '@tiny/llm';
import { type AnyTool, checkOptionKeys, InvalidInputError, optionKeys } from '@tiny/tools';
import type { ArtifactStore } from '../artifacts/artifact-store.js';
import type { ResumeClaimStore } from '../checkpoint/checkpoint-store.js';
import { type ApprovalSecret, approvalKey, keyWeakness, MIN_KEY_BYTES } from '../deferral/approval-digest.js';
import type { DeferredCall } from '../deferral/deferred-call.js';
import type { DeferredToolResults } from '../deferral/deferred-tool-results.js';
import { parseRunState, type RunState } from '../deferral/run-state.js';
import { verifyRunState } from '../deferral/run-state-signature.js';
import type { DiscoveryOptions } from '../discovery/discovery-session.js';
import { DeferredResolutionError } from '../errors/deferred-resolution-error.js';
import { UnwrappedAiSdkModelError } from '../errors/unwrapped-ai-sdk-model-error.js';
import type { AgentEvent } from '../events/agent-event.js';
import { declaredFields } from '../events/declared-fields.js';
import { type AgentEventListener, EventSink } from '../events/event-sink.js';
import { canonical } from '../ledger/idempotency-key.js';
import type { IdempotencyKeyRule, LedgerFailureMode, ToolEffectLedger } from '../ledger/tool-effect-ledger.js';
import type { AgentMiddleware } from '../middleware/agent-middleware.js';
import { createPrefixTracker } from '../prefix/prefix-tracker.js';
import { ToolRegistry } from '../registry/tool-registry.js';
import type { AgentRun } from '../run/agent-run.js';
import { assertMessages } from '../run/assert-messages.js';
import { SHARED_MISTAKES } from '../run/option-keys.js';
import type { RunContext } from '../run/run-context.js';
import { definedEntries, type RunLimits, resolveRunLimits } from '../run/run-limits.js';
import { type RunPolicy, resolveRunPolicy } from '../run/run-policy.js';
import { createRunStop } from '../run/run-stop.js';
import {
  normalizeToolChoice,
  type ToolChoiceShorthand,
  validateDiscoveryOptions,
  validateRunArguments,
  validateRunLimits,
  validateRunPolicy,
} from '../run/validate-run-options.js';
import type { ToolSet } from '../toolsets/tool-set.js';
import { AgentRunStream } from './agent-run-stream.js';
import { restoreCallFormats } from './call-format.js';
import type { LoopState } from './loop-state.js';
import { profileModel } from './profile-model.js';
import { type DeferredToolHandler, runLoop } from './run-loop.js';
import { sealMessage } from './sealed-history.js';

/** Options for {@link AgentHarness}. */
export interface AgentHarnessOptions {
  readonly model: LanguageModelV1;
  /** Tools to register, or a registry to use as is. */
  readonly tools?: readonly AnyTool[] | ToolRegistry | undefined;
  readonly policy?: Partial<RunPolicy> | undefined;
  readonly limits?: Partial<RunLimits> | undefined;
  /** Middleware for every run, in order (see {@link AgentMiddleware}). */
  readonly middleware?: readonly AgentMiddleware[] | undefined;
  /** Resolves deferred batches inline instead of pausing the run. */
  readonly deferredToolHandler?: DeferredToolHandler | undefined;
  /** Toolsets resolved every turn after the registry (the first owner of a name wins). */
  readonly toolSets?: readonly ToolSet[] | undefined;
  /** Deferred-tool discovery: the `tool_search`/`tool_call` bridge, ranking, manifest and schema budgets. */
  readonly discovery?: DiscoveryOptions | undefined;
  /** Records every executed call's effect before it runs (see `ToolEffectLedger`). None by default. */
  readonly ledger?: ToolEffectLedger | undefined;
  /** When the `started` write fails: `abort` (default, the call is answered with an error) or `continue` unrecorded. */
  readonly ledgerFailure?: LedgerFailureMode | undefined;
  /**
   * Derives idempotency keys for tools that declare none, from the model-visible call (injected
   * values removed, sensitive fields `[redacted]`); default `defaultIdempotencyKey` (SHA-256 of run
   * id, call id, tool name and canonical model-visible arguments).
   */
  readonly idempotencyKey?: IdempotencyKeyRule | undefined;
  /**
   * Signs each pending call's digest (HMAC-SHA-256 over run id, call id, tool name and canonical
   * model-visible arguments) so a paused state cannot be edited and resumed: a key, or a function of
   * the run id. Without one the digest is a plain SHA-256 (catches edits, not forgeries). With one,
   * a state whose pending calls are unsigned or signed otherwise is refused (`InvalidRunStateError`).
   * A function must give a non-empty string or `Uint8Array` for the run: it is asked when the run
   * starts (and at each pause and resume), and an empty or missing key fails the run with
   * `ApprovalSecretError` before anything runs.
   */
  readonly approvalSecret?: ApprovalSecret | undefined;
  /**
   * Signs every run state this harness writes (`run.state` of a paused run, each `onCheckpoint`
   * state) with an HMAC-SHA-256 over the whole state (its `signature` field), and makes `resume`,
   * `resumeDeferred` and `streamResumeDeferred` refuse a state whose signature is missing or does
   * not match (`InvalidRunStateError`, problem `tampered`) before anything runs: an edited
   * transcript, a dropped `refusedCalls` or a lowered version never resumes. A key or a function of
   * the run id, under the rules of `approvalSecret`. Defaults to `approvalSecret` (the two
   * signatures are domain-separated, so one key serves both). Without either, states are unsigned:
   * store them where only the host can write (every shipped `CheckpointStore` keeps them server-side).
   */
  readonly stateSecret?: ApprovalSecret | undefined;
  /**
   * Where tool results go that the model should not get inline (see `ArtifactStore`): image and
   * file blocks with inline data, and any result over the tool's `runtime.maxResultBytes`. The
   * model reads the result cut at the limit plus `[artifact: name, 2.1 MB, tiny-artifact://…]`;
   * references reach `tool_completed` events and `AgentRun.artifacts`, the bytes stay in the store.
   * A `put` that rejects fails the run. None by default: results are folded as they are.
   */
  readonly artifacts?: ArtifactStore | undefined;
  /**
   * Where `resumeDeferred` consumes a paused state, once across processes (see `ResumeClaimStore`;
   * every shipped `CheckpointStore` is one). Before any resumed call starts, the harness claims each
   * pending call (run id, call id, tool, arguments and policy digest: nothing an editor can vary
   * while keeping the approval valid); a second resume of any state holding one of those calls, in
   * this process or another sharing the store, is refused with `DeferredResolutionError`
   * (`already_resumed`) and runs nothing. Without one, only this harness instance remembers what it
   * resumed (ledger or not): another instance or process can resume the same state again and decide
   * differently (re-approve a denied call). A ledger's `started` claims stop a second execution of a
   * call (a replayed call is answered, not run) but not a second decision; only `resumeClaims` makes
   * a decision single-use across instances and processes.
   */
  readonly resumeClaims?: ResumeClaimStore | undefined;
}

/** Per-run options for `invoke` and `stream`. */
export interface InvokeOptions {
  /** Overrides of the harness policy for this run. */
  readonly policy?: Partial<RunPolicy> | undefined;
  readonly limits?: Partial<RunLimits> | undefined;
  /**
   * Receives every event as it happens, through the run's final event, even after it threw: a
   * throw never stops delivery (to it, to `harness.stream`, or to `run.events`) nor the step that
   * emitted the event (tools already started finish and get their outcome events). The first throw
   * is reported once: the run rejects with `ListenerError` (the cause and event type kept) at the
   * next safe point: before the next model call or call admission, or instead of completing. A throw
   * on the run's final event (`run_completed` or `run_failed`, or a `tool_failed` it brings) cannot
   * change how the run ended, which the record already says: the run resolves or rejects as that
   * event says (a paused run keeps its `state`), and the `ListenerError` is emitted as a process
   * warning (`process.emitWarning`), as it is when the run already ends with another error (it was
   * cancelled, or a tool failed it). Later throws are not reported again.
   */
  readonly onEvent?: AgentEventListener | undefined;
  /** Keep events on `AgentRun.events`. Default true; off (with no listener) means events cost nothing. */
  readonly recordEvents?: boolean | undefined;
  /**
   * Tool choice sent on every model call of the run and enforced on each reply (see
   * `policy.toolChoiceIgnored`); `auto` when absent. The AI SDK's strings `'auto'`, `'none'` and
   * `'required'` are read as the object of that type; any other value is an `InvalidInputError`.
   * A named tool must be offered on every turn and `required` needs at least one offered tool,
   * else the run fails with `ToolChoiceUnavailableError` before the model call. A paused or
   * checkpointed run keeps its choice in its state: a resume enforces it unless this option is given.
   */
  readonly toolChoice?: ToolChoice | ToolChoiceShorthand | undefined;
  /** Model settings passed through on every request (max tokens, temperature, provider options, ...). */
  readonly modelSettings?: Partial<Omit<LanguageModelV1Request, 'messages' | 'tools' | 'toolChoice' | 'abortSignal'>>;
  /**
   * Call ids a human approved: the model's calls with these ids run without being deferred again.
   * A bare id binds the id alone; it never approves a nested call (ids `<parent>/<n>` are minted by
   * the harness, and a provider id containing `/` is re-keyed, so such an entry approves nothing).
   */
  readonly approvedCalls?: readonly string[] | undefined;
  /** Middleware for this run only, after the harness's own. */
  readonly middleware?: readonly AgentMiddleware[] | undefined;
  /** Overrides the harness's inline deferred-call handler for this run. */
  readonly deferredToolHandler?: DeferredToolHandler | undefined;
  /**
   * Receives the run state after each assistant turn with tool calls is recorded and before any
   * of them runs. Persist it (`serializeRunState`) to resume after a crash with `resume`. If it
   * throws (or rejects), none of the batch runs and the run rejects with `ListenerError`.
   */
  readonly onCheckpoint?: ((state: RunState) => void | Promise<void>) | undefined;
  /**
   * `resumeDeferred` only: the same paused state is resumed at most once (`DeferredResolutionError`,
   * problem `already_resumed`), so an approved call cannot run twice: across processes through
   * `AgentHarnessOptions.resumeClaims`, and always within this harness instance (ledger or not).
   * Default true; a durable engine whose journal already makes every step exactly-once (e.g.
   * `@tiny/restate`) may turn it off.
   */
  readonly resumeOnce?: boolean | undefined;
}

/** Every {@link AgentHarnessOptions} key, checked against the type. */
const HARNESS_OPTION_KEYS = optionKeys<AgentHarnessOptions>()(
  [
    'model',
    'tools',
    'policy',
    'limits',
    'middleware',
    'deferredToolHandler',
    'toolSets',
    'discovery',
    'ledger',
    'ledgerFailure',
    'idempotencyKey',
    'approvalSecret',
    'stateSecret',
    'artifacts',
    'resumeClaims',
  ],
  {
    ...SHARED_MISTAKES,
    toolChoice: 'toolChoice in the options of invoke/stream',
    activeTools: 'toolSets (filterToolSet) or the tools you register',
    onEvent: 'onEvent in the options of invoke/stream',
    approvedCalls: 'approvedCalls in the options of invoke/stream',
    toolset: 'toolSets',
    registry: 'tools (a ToolRegistry is accepted as is)',
  },
);

/** Every {@link InvokeOptions} key, checked against the type. */
const INVOKE_OPTION_KEYS = optionKeys<InvokeOptions>()(
  [
    'policy',
    'limits',
    'onEvent',
    'recordEvents',
    'toolChoice',
    'modelSettings',
    'approvedCalls',
    'middleware',
    'deferredToolHandler',
    'onCheckpoint',
    'resumeOnce',
  ],
  {
    ...SHARED_MISTAKES,
    tools: 'tools of the AgentHarness (per run: toolSets or contextual tool selection middleware)',
    messages: 'the messages argument of invoke/stream',
    prompt: 'the messages argument of invoke/stream (a string is one user message)',
    model: 'model of the AgentHarness',
  },
);

/** What a run starts from: the transcript so far, or a prompt (one user message). */
export type RunInput = readonly Message[] | string;

/** Sorts `invoke(messages, options?)` from `invoke(context, messages, options?)`. */
function runArguments(
  first: RunContext | RunInput,
  second: RunInput | InvokeOptions | undefined,
  third: InvokeOptions | undefined,
): { context: RunContext; messages: readonly Message[]; options: InvokeOptions } {
  const toMessages = (input: unknown): readonly Message[] =>
    typeof input === 'string' ? [{ role: 'user', content: input }] : (input as readonly Message[]);
  if (typeof first === 'string' || Array.isArray(first)) {
    if (typeof second === 'string' || Array.isArray(second))
      throw new InvalidInputError({
        entryPoint: 'AgentHarness.invoke',
        reason: `\`context\` must be an object, got ${typeof first === 'string' ? 'a string' : 'an array'} (pass the context first, or call invoke(messages, options) without one)`,
      });
    return { context: {}, messages: toMessages(first), options: (second === undefined ? {} : second) as InvokeOptions };
  }
  return { context: first as RunContext, messages: toMessages(second), options: third === undefined ? {} : third };
}

function describeThrown(value: unknown): string {
  try {
    return String(value);
  } catch {
    return 'a thrown value that cannot be printed';
  }
}

function shortId(): string {
  // The first 12 hex digits of a random UUID: its first group of 8, then 4 after the dash (no regex).
  const uuid = globalThis.crypto.randomUUID();
  return uuid.slice(0, 8) + uuid.slice(9, 13);
}

/**
 * Runs agents: calls the model, admits the tool calls it returns against the tools offered this
 * turn (fail-closed), executes them, folds results back, and repeats. See `RunPolicy` and
 * `RunLimits` for the defaults.
 */
export class AgentHarness {
  readonly registry: ToolRegistry;
  readonly model: LanguageModelV1;
  private readonly policy: Partial<RunPolicy>;
  private readonly limits: Partial<RunLimits>;
  private readonly middleware: readonly AgentMiddleware[];
  private readonly deferredToolHandler: DeferredToolHandler | undefined;
  private readonly ledger: ToolEffectLedger | undefined;
  private readonly artifacts: ArtifactStore | undefined;
  private readonly toolSets: ToolSet[];
  private readonly discoveryOptions: DiscoveryOptions;
  private readonly ledgerFailure: LedgerFailureMode;
  private readonly idempotencyKey: IdempotencyKeyRule | undefined;
  private readonly approvalSecret: ApprovalSecret | undefined;
  /** Signs and checks run states (`stateSecret`, else `approvalSecret`). */
  private readonly stateSecret: ApprovalSecret | undefined;
  /** Paused states this harness resumed: run id, transcript length and pending digests. */
  private readonly resumed = new Set<string>();
  private readonly resumeClaims: ResumeClaimStore | undefined;

  constructor(options: AgentHarnessOptions) {
    const model = options?.model as Partial<LanguageModelV1> | undefined;
    const version: unknown = (model as { specificationVersion?: unknown } | undefined)?.specificationVersion;
    if (typeof version === 'string' && /^v[2-9]$/.test(version) && typeof model?.doGenerate === 'function') {
      throw new UnwrappedAiSdkModelError({ entryPoint: 'AgentHarness', specificationVersion: version });
    }
    if (
      model?.specificationVersion !== 'v1' ||
      typeof model.doGenerate !== 'function' ||
      typeof model.doStream !== 'function'
    ) {
      throw new InvalidInputError({
        entryPoint: 'AgentHarness',
        reason: '`model` must be a LanguageModelV1 (specificationVersion "v1")',
      });
    }
    checkOptionKeys('AgentHarness', options, HARNESS_OPTION_KEYS);
    const tools: unknown = options.tools;
    if (tools !== undefined && !Array.isArray(tools) && !(tools instanceof ToolRegistry))
      throw new InvalidInputError({
        entryPoint: 'AgentHarness',
        reason:
          '`tools` must be an array of tools (`[defineTool(...), ...]`) or a ToolRegistry; an object keyed by name (the AI SDK shape) is not accepted, each tool carries its own `name`',
      });
    validateRunPolicy('AgentHarness', options.policy);
    validateRunLimits('AgentHarness', options.limits);
    validateDiscoveryOptions('AgentHarness', options.discovery);
    this.model = options.model;
    if (options.tools instanceof ToolRegistry) {
      this.registry = options.tools;
    } else {
      this.registry = new ToolRegistry();
      for (const tool of options.tools ?? []) this.registry.register(tool);
    }
    this.policy = options.policy ?? {};
    this.limits = options.limits ?? {};
    this.middleware = options.middleware ?? [];
    this.deferredToolHandler = options.deferredToolHandler;
    this.ledger = options.ledger;
    this.artifacts = options.artifacts;
    this.toolSets = [...(options.toolSets ?? [])];
    this.discoveryOptions = options.discovery ?? {};
    this.ledgerFailure = options.ledgerFailure ?? 'abort';
    this.idempotencyKey = options.idempotencyKey;
    for (const name of ['approvalSecret', 'stateSecret'] as const) {
      const secret = options[name];
      const weakness =
        typeof secret === 'string' || secret instanceof Uint8Array
          ? keyWeakness(secret)
          : secret === undefined || typeof secret === 'function'
            ? undefined
            : 'neither a string, bytes nor a function';
      if (weakness !== undefined)
        throw new InvalidInputError({
          entryPoint: 'AgentHarness',
          reason: `\`${name}\` must be a string or Uint8Array of at least ${MIN_KEY_BYTES} bytes (not whitespace only, not all zero bytes), or a function of the run id; got ${weakness}`,
        });
    }
    this.approvalSecret = options.approvalSecret;
    this.stateSecret = options.stateSecret ?? options.approvalSecret;
    const claims = options.resumeClaims as Partial<ResumeClaimStore> | undefined;
    if (claims !== undefined && typeof claims?.claimResume !== 'function')
      throw new InvalidInputError({
        entryPoint: 'AgentHarness',
        reason:
          '`resumeClaims` must have a `claimResume(runId, claim)` method (a CheckpointStore of this package or `@tiny/ledger-sqlite`)',
      });
    this.resumeClaims = options.resumeClaims;
  }

  /**
   * Consumes a paused state before anything of it runs (with `resumeOnce`): in this instance's
   * memory always (ledger or not, denials as well as approvals), and in `resumeClaims` when given
   * (across processes and instances).
   */
  private claimResume(state: RunState, options: InvokeOptions): (() => Promise<void>) | undefined {
    const claims = this.resumeClaims;
    if (options.resumeOnce === false || state.pending === undefined) return undefined;
    // The in-memory check applies with or without a ledger: a ledger stops a second execution of a
    // call, not a second decision on it (a denied call re-approved by resuming the same state again).
    const pending = [...state.pending.approvals, ...state.pending.calls];
    // One claim per pending call, keyed by what the call is (run, call id, tool, arguments, policy),
    // never by the state's shape (transcript length) or a digest field an editor may drop.
    const keys = pending.map((call) => resumeClaimKey(state.runId, call));
    const refuse = (callIds: readonly string[]) => new DeferredResolutionError({ problem: 'already_resumed', callIds });
    return async () => {
      const taken = pending.filter((_call, index) => this.resumed.has(keys[index] as string));
      if (taken.length > 0) throw refuse(taken.map((call) => call.callId));
      for (const key of keys) this.resumed.add(key);
      if (claims === undefined) return;
      const refused: string[] = [];
      // In one order (sorted keys), stopping at the first refusal: of concurrent resumes of one
      // state, the one that takes the first key is the only one that goes on, so they never split
      // the claims between them and both fail.
      const order = keys
        .map((key, index) => ({ key, index }))
        .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      try {
        for (const { key, index } of order) {
          if (await claims.claimResume(state.runId, key)) continue;
          refused.push((pending[index] as DeferredCall).callId);
          break;
        }
      } catch (error) {
        for (const key of keys) this.resumed.delete(key);
        throw error;
      }
      if (refused.length > 0) throw refuse(refused);
    };
  }

  /**
   * Adds a toolset, resolved every turn after the registry and earlier toolsets (a name already
   * taken stays with its first owner). Its `forRun` runs at the start of each run.
   */
  withToolSet(toolSet: ToolSet): this {
    this.toolSets.push(toolSet);
    return this;
  }

  /**
   * Runs the loop to the end and returns the run. `messages` is the transcript so far, or a string
   * (one user message); the context (host values, signal, run id) may be left out.
   * @throws {LimitExceededError} when a budget runs out (after a `limit_reached` event).
   * @throws {RunCancelledError} when `context.signal` fires.
   * @throws {ToolNotFoundError} / {ToolInputError} when the policy is `fail` for unknown tools / invalid arguments.
   * @throws {ToolExecutionError} when a tool throws and the tool-error policy is `fail` (the default).
   * @throws {InvalidInputError} for a bad `context`, `messages` or option (named in the message;
   * an unknown option key is named with the one it probably meant).
   * @throws {ListenerError} when `onEvent` or `onCheckpoint` throws.
   */
  invoke(messages: RunInput, options?: InvokeOptions): Promise<AgentRun>;
  invoke(context: RunContext, messages: RunInput, options?: InvokeOptions): Promise<AgentRun>;
  invoke(first: RunContext | RunInput, second?: RunInput | InvokeOptions, third?: InvokeOptions): Promise<AgentRun> {
    let parsed: ReturnType<typeof runArguments>;
    try {
      parsed = runArguments(first, second, third);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.run(parsed.context, parsed.messages, parsed.options, {}, [], false);
  }

  /**
   * Resumes a paused run (`run.state`, or a state read back with `parseRunState`) with the host's
   * decisions. Every pending call must be decided; before anything runs, the decisions are checked
   * against the state (ids, digests) and edited arguments (`approveWithArgs`) against the tool's
   * declared schema. Approved calls then re-enter the full admission pipeline marked approved,
   * denials and host results are answered, and the loop continues. Budgets continue from the state.
   * @throws {DeferredResolutionError} for unresolved, foreign or already answered ids, or edited
   * arguments the tool's schema refuses (`invalid_arguments`, with the issues); nothing changes.
   * @throws {InvalidRunStateError} for a malformed or wrong-version state.
   */
  resumeDeferred(
    context: RunContext,
    state: RunState | string,
    results: DeferredToolResults,
    options: InvokeOptions = {},
  ): Promise<AgentRun> {
    return Promise.resolve().then(() =>
      this.run(context, parseRunState(state), options, { resumeWith: results }, [], false),
    );
  }

  /**
   * Resumes a run from a checkpoint (see `InvokeOptions.onCheckpoint`), for example after the
   * process crashed mid-batch. The ledger is reconciled first: calls whose effect may have happened
   * are re-run only when their tool declares `runtime.replay: 'safe'`, otherwise answered
   * "interrupted before settlement"; calls that never started run now; then the loop continues.
   * A paused run with deferred calls needs `resumeDeferred` instead.
   * @throws {DeferredResolutionError} when the state has undecided deferred calls.
   * @throws {InvalidRunStateError} for a malformed or wrong-version state.
   */
  resume(context: RunContext, state: RunState | string, options: InvokeOptions = {}): Promise<AgentRun> {
    return Promise.resolve().then(() => {
      const parsed = parseRunState(state);
      if (parsed.pending !== undefined) {
        const ids = [...parsed.pending.approvals, ...parsed.pending.calls].map((call) => call.callId);
        throw new DeferredResolutionError({ problem: 'unresolved', callIds: ids });
      }
      return this.run(context, parsed, options, { resuming: true }, [], false);
    });
  }

  /** {@link AgentHarness.resumeDeferred}, streaming its events like {@link AgentHarness.stream}. */
  streamResumeDeferred(
    context: RunContext,
    state: RunState | string,
    results: DeferredToolResults,
    options: InvokeOptions = {},
  ): AgentRunStream {
    const stream = new AgentRunStream();
    stream.attach(
      Promise.resolve().then(() =>
        this.run(context, parseRunState(state), options, { resumeWith: results }, [stream.push], true),
      ),
    );
    return stream;
  }

  /**
   * Runs the loop and yields its events live (`model_delta` carries scrubbed text: no partial call
   * openers). `result` resolves to the same `AgentRun` as `invoke`, or rejects with its error
   * (iteration then ends after `run_failed`). Takes the same arguments as {@link AgentHarness.invoke}.
   */
  stream(messages: RunInput, options?: InvokeOptions): AgentRunStream;
  stream(context: RunContext, messages: RunInput, options?: InvokeOptions): AgentRunStream;
  stream(first: RunContext | RunInput, second?: RunInput | InvokeOptions, third?: InvokeOptions): AgentRunStream {
    const stream = new AgentRunStream();
    stream.attach(
      Promise.resolve().then(() => {
        const { context, messages, options } = runArguments(first, second, third);
        return this.run(context, messages, options, {}, [stream.push], true);
      }),
    );
    return stream;
  }

  private async run(
    context: RunContext,
    input: readonly Message[] | RunState,
    options: InvokeOptions,
    internal: { readonly resumeWith?: DeferredToolResults | undefined; readonly resuming?: boolean },
    extraListeners: readonly AgentEventListener[],
    streaming: boolean,
  ): Promise<AgentRun> {
    const resuming = !Array.isArray(input) && (internal.resumeWith !== undefined || internal.resuming === true);
    const entryPoint = resuming ? 'AgentHarness.resume' : streaming ? 'AgentHarness.stream' : 'AgentHarness.invoke';
    validateRunArguments(entryPoint, context, options);
    checkOptionKeys(entryPoint, options, INVOKE_OPTION_KEYS, { prefix: 'options.' });
    const policy = resolveRunPolicy({ ...definedEntries(this.policy), ...definedEntries(options.policy ?? {}) });
    const limits = resolveRunLimits({ ...definedEntries(this.limits), ...definedEntries(options.limits ?? {}) });
    const listeners = options.onEvent ? [options.onEvent, ...extraListeners] : extraListeners;
    const sink = new EventSink(listeners, options.recordEvents ?? true);
    const resumed = resuming ? (input as RunState) : undefined;
    // A signing harness resumes only a state it signed, unedited: checked before anything runs.
    if (resumed !== undefined && this.stateSecret !== undefined) verifyRunState(resumed, this.stateSecret);
    const messageEntry = resumed ? 'AgentHarness.resume' : 'AgentHarness.invoke';
    const given: unknown = resumed ? resumed.messages : input;
    // Copied and deep-frozen before they are checked: the history holds its own immutable messages,
    // so nothing the run hands them to changes them, the caller's objects are never frozen, and a
    // caller editing its objects (or an accessor answering differently) later changes nothing.
    const messages: unknown = Array.isArray(given)
      ? given.map((message: Message) => sealMessage(message, messageEntry))
      : given;
    assertMessages(messageEntry, messages);
    const runId = resumed?.runId ?? context.runId ?? shortId();
    const middleware = [...this.middleware, ...(options.middleware ?? [])];
    // A model with autoProfile reads its server once, before the dialect is chosen from its profile.
    const profiled = await profileModel(this.model, context.signal);
    // A copy of the fields the event declares, and nothing else of the model's: its `type` is the harness's.
    if (profiled !== undefined && sink.active)
      sink.emit({ ...(declaredFields('model_profiled', profiled) as typeof profiled), type: 'model_profiled' });
    const dialectKind: ToolDialectKind =
      policy.toolDialect === 'auto' ? (this.model.profile.toolCalling ? 'native' : 'tagged_json') : policy.toolDialect;
    // A fresh run drops broken tool cycles once; a resumed run keeps its open batch.
    const needsPairing =
      resumed === undefined &&
      messages.some((message) => message.role === 'tool' || (message.role === 'assistant' && message.toolCalls));
    // Pairing may build new messages (a synthetic answer): sealed too; the sealed ones pass as they are.
    const sealed = new Set(messages);
    const history = needsPairing
      ? pairToolCycles(messages).map((message) => (sealed.has(message) ? message : sealMessage(message)))
      : messages;
    const stop = createRunStop(context.signal, limits.wallClockMs);
    const state: LoopState = {
      runId,
      model: this.model,
      registry: this.registry,
      policy,
      limits,
      context,
      sink,
      dialect: createToolDialect(dialectKind),
      middleware,
      wrapsTools: middleware.some((entry) => entry.wrapTool !== undefined),
      signal: stop.signal,
      deadline: stop.deadline,
      history,
      approvedCalls: new Set(options.approvedCalls ?? []),
      approvedTools: new Map(),
      turn: 0,
      ledger: this.ledger,
      deferredTools: new Map(),
      toolSets: this.toolSets,
      discovery: undefined,
      discoveryOptions: this.discoveryOptions,
      ledgerFailure: this.ledgerFailure,
      idempotencyKey: this.idempotencyKey,
      approvalSecret: this.approvalSecret,
      stateSecret: this.stateSecret,
      offered: new Map(),
      offeredSchemas: [],
      offeredFrom: undefined,
      modelCalls: resumed?.budgets.modelCalls ?? 0,
      toolCalls: resumed?.budgets.toolCalls ?? 0,
      usage: resumed?.usage ?? {},
      executedTools: [],
      toolMetadata: [],
      artifactStore: this.artifacts,
      artifacts: [],
      stateUpdates: [],
      nestedCalls: new Map(),
      seenCallIds: new Set(),
      callFormats: new Map(),
      hostEdited: new Map(),
      prefix: createPrefixTracker(resumed?.prefix),
    };
    for (const message of history) {
      if (message.role === 'assistant') for (const call of message.toolCalls ?? []) state.seenCallIds.add(call.id);
    }
    // How each call was written (and which were cut off) survives a pause or a crash.
    if (resumed !== undefined) restoreCallFormats(state, history, resumed.cutOffCalls, resumed.refusedCalls);
    try {
      // A key function that gives no usable key fails the run before anything runs, not at a pause mid-batch.
      if (this.approvalSecret !== undefined) approvalKey(this.approvalSecret, runId);
      for (const toolSet of state.toolSets) await toolSet.forRun?.({ runId, turn: 0, run: context });
      const run = await runLoop(state, {
        streaming,
        toolChoice: normalizeToolChoice(entryPoint, 'options.toolChoice', options.toolChoice) ?? resumed?.toolChoice,
        request: options.modelSettings ?? {},
        deferredToolHandler: options.deferredToolHandler ?? this.deferredToolHandler,
        onCheckpoint: options.onCheckpoint,
        resume: resumed
          ? {
              pending: resumed.pending,
              results: internal.resumeWith,
              claim: internal.resumeWith === undefined ? undefined : this.claimResume(resumed, options),
              refusedTurn: resumed.refusedTurn,
            }
          : undefined,
      });
      // The final event is out: a listener that threw on it (or on a call it closed) cannot change
      // how the run ended, which the record already says. As on `run_failed`, a process warning.
      sink.reportUnthrown(undefined);
      return run;
    } catch (error) {
      if (sink.active) {
        const event: AgentEvent = {
          type: 'run_failed',
          runId,
          error: error instanceof Error ? error.message : describeThrown(error),
        };
        sink.emit(event);
      }
      sink.reportUnthrown(error);
      throw error;
    } finally {
      // No event after the run's final one, and no nested call starts once the run returned.
      sink.end();
      stop.dispose();
    }
  }
}

/**
 * The once-only claim of one pending call of a paused state: `resume-call:<sha256>` over the
 * canonical JSON of the run id, call id, tool name, model arguments, policy digest and deferral
 * reason. The same call in any edited copy of the state (messages added or removed, digest field
 * dropped) gives the same claim; the call paused again under a changed policy (`needs_reapproval`)
 * or for another reason (an approved call that then deferred) gives a new one.
 * @internal
 */
export function resumeClaimKey(runId: string, call: DeferredCall): string {
  const body = canonical([
    'tiny.resume-claim.v2',
    runId,
    call.callId,
    call.toolName,
    call.arguments,
    call.policy ?? null,
    call.reason,
  ]);
  return `resume-call:${createHash('sha256').update(body).digest('hex')}`;
}
