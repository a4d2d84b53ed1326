import type { LanguageModelV1Usage, Message, ToolChoice } from '@tiny/llm';
import { createValidator, formatValidationIssues, type JsonSchema } from '@tiny/tools';
import { InvalidRunStateError } from '../errors/invalid-run-state-error.js';
import type { BrokenTurnReason } from '../events/agent-event.js';
import type { PrefixState } from '../prefix/prefix-tracker.js';
import type { DeferredBatchData } from './deferred-call.js';

/**
 * The newest schema version this build writes and reads. A state that carries `refusedCalls` is
 * written as version 4, so a build that predates the field (and would run those calls) refuses it;
 * else one that carries `cutOffCalls` as version 3, so a build that predates that field (and would
 * repair those calls into runnable ones) refuses it; else one that carries the run's forced
 * `toolChoice` as version 2, so a build that predates that field (and would resume the run
 * unforced) refuses it; else version 1, as before. All four are read.
 */
export const RUN_STATE_VERSION = 4;

/**
 * A paused run as plain JSON: the transcript (the assistant's tool-call turn last, with only the
 * deferred ids unanswered), the pending batch, the budgets spent and the ids. Resume it with
 * `harness.resumeDeferred`, in this process or another one.
 */
export interface RunState {
  /**
   * 4 when the state carries `refusedCalls`, else 3 when it carries `cutOffCalls`, else 2 when it
   * carries `toolChoice`, else 1 (see {@link RUN_STATE_VERSION}).
   */
  readonly version: 1 | 2 | 3 | typeof RUN_STATE_VERSION;
  readonly runId: string;
  readonly threadId?: string | undefined;
  readonly messages: readonly Message[];
  /**
   * The deferred batch of a paused run. Absent in a checkpoint (written just before a batch
   * runs): then the last assistant turn's unanswered calls are the batch in flight.
   */
  readonly pending?: DeferredBatchData | undefined;
  readonly budgets: { readonly modelCalls: number; readonly toolCalls: number };
  readonly usage: LanguageModelV1Usage;
  /**
   * In a checkpoint of a broken model turn (finish reason `length`, `content_filter` or `error`,
   * with `brokenTurnCalls: 'refuse'`): the refusal, decided before the checkpoint was written. A
   * resume answers the turn's open calls with it instead of running them.
   */
  readonly refusedTurn?: RefusedTurn | undefined;
  /**
   * The run's forced tool choice (absent for `auto`): a resume enforces it on every later model
   * call unless its own options give a `toolChoice`. Only in versions 2 and later.
   */
  readonly toolChoice?: ToolChoice | undefined;
  /**
   * The ids of the last assistant turn's open calls that were written as text and cut off before
   * their block closed (`AssistantToolCall.grammar` says which syntax each call was written in).
   * A resume answers each with an error, never repairs it into a runnable call. Only in versions 3
   * and later.
   */
  readonly cutOffCalls?: readonly string[] | undefined;
  /**
   * The ids of the last assistant turn's open calls the adapter refused (`ToolCall.refused` of
   * `@tiny/llm`: two calls under one id, a broken stream), whatever their argument text holds. A
   * resume answers each with an error, never repairs or runs it. Only in version 4.
   */
  readonly refusedCalls?: readonly string[] | undefined;
  /**
   * The prompt prefix to keep stable on resume: tool order, discovery promotions, the last
   * request's fingerprint. Optional in either version: a build that ignores it resumes the same
   * run with a re-sorted tool list (a prompt-cache miss, nothing else).
   */
  readonly prefix?: PrefixState | undefined;
  /**
   * `hmac-sha256:<hex>` over the rest of the state, written when the harness has a secret
   * (`stateSecret`, else `approvalSecret`); such a harness resumes only a state whose signature
   * matches (else `InvalidRunStateError`, problem `tampered`). Without a secret states are
   * unsigned: store them where only the host can write.
   */
  readonly signature?: string | undefined;
}

/** Why every open call of a checkpointed turn is refused (see `RunState.refusedTurn`). */
export interface RefusedTurn {
  readonly reason: BrokenTurnReason;
  /** The model call whose reply was broken. */
  readonly modelCallId: string;
}

const deferredCall = {
  type: 'object',
  required: ['callId', 'toolName', 'reason'],
  properties: {
    callId: { type: 'string' },
    toolName: { type: 'string' },
    reason: { type: 'string' },
    digest: { type: 'string' },
    policy: { type: 'string' },
  },
};
const count = { type: 'integer', minimum: 0 };
const prefixPart = (required: string[]) => ({
  type: 'object',
  required,
  properties: { name: { type: 'string' }, hash: { type: 'string' }, chars: count },
});
const runStateSchema: JsonSchema = {
  type: 'object',
  required: ['version', 'runId', 'messages', 'budgets', 'usage'],
  properties: {
    version: { type: 'integer' },
    runId: { type: 'string', minLength: 1 },
    threadId: { type: 'string' },
    messages: {
      type: 'array',
      items: {
        type: 'object',
        required: ['role', 'content'],
        properties: {
          role: { enum: ['system', 'user', 'assistant', 'tool'] },
          toolCalls: {
            type: 'array',
            items: {
              type: 'object',
              required: ['id', 'name', 'arguments'],
              properties: {
                id: { type: 'string' },
                name: { type: 'string' },
                arguments: { type: 'string' },
                grammar: { type: 'string', minLength: 1 },
                partial: { const: true },
              },
            },
          },
          toolCallId: { type: 'string' },
        },
      },
    },
    pending: {
      type: 'object',
      required: ['calls', 'approvals', 'metadata', 'followUps'],
      properties: {
        calls: { type: 'array', items: deferredCall },
        approvals: { type: 'array', items: deferredCall },
        metadata: { type: 'object' },
        followUps: { type: 'array' },
      },
    },
    budgets: {
      type: 'object',
      required: ['modelCalls', 'toolCalls'],
      properties: { modelCalls: count, toolCalls: count },
    },
    usage: { type: 'object' },
    refusedTurn: {
      type: 'object',
      required: ['reason', 'modelCallId'],
      properties: { reason: { enum: ['length', 'content_filter', 'error'] }, modelCallId: { type: 'string' } },
    },
    prefix: {
      type: 'object',
      required: ['toolOrder', 'promoted'],
      properties: {
        toolOrder: { type: 'array', items: { type: 'string' } },
        promoted: { type: 'array', items: { type: 'string' } },
        epoch: { type: 'string' },
        fingerprint: {
          type: 'object',
          required: ['digest', 'tools', 'system', 'history'],
          properties: {
            digest: { type: 'string' },
            tools: { type: 'array', items: prefixPart(['name', 'hash', 'chars']) },
            system: prefixPart(['hash', 'chars']),
            settings: prefixPart(['hash', 'chars']),
            history: { type: 'array', items: prefixPart(['hash', 'chars']) },
          },
        },
      },
    },
    cutOffCalls: { type: 'array', items: { type: 'string' } },
    refusedCalls: { type: 'array', items: { type: 'string' } },
    signature: { type: 'string' },
    toolChoice: {
      oneOf: [
        {
          type: 'object',
          required: ['type'],
          properties: { type: { enum: ['none', 'required'] } },
          additionalProperties: false,
        },
        {
          type: 'object',
          required: ['type', 'toolName'],
          properties: { type: { const: 'tool' }, toolName: { type: 'string', minLength: 1 } },
          additionalProperties: false,
        },
      ],
    },
  },
};

/**
 * Serialises a run state to a JSON string, checked as {@link parseRunState} checks what it reads, so
 * no store ever writes a state it would refuse to load.
 * @throws {InvalidRunStateError} when the state cannot be written as JSON (a cycle, a `BigInt`, a
 * throwing getter or `toJSON`, nesting too deep for the stack) or is not a valid run state.
 */
export function serializeRunState(state: RunState): string {
  return serializeCheckedRunState(state).text;
}

/**
 * {@link serializeRunState} with the state its text reads back as (which names the run whose
 * state it really is, even when a `toJSON` wrote another). @internal
 */
export function serializeCheckedRunState(state: RunState): { readonly text: string; readonly state: RunState } {
  let text: string | undefined;
  try {
    text = JSON.stringify(state);
  } catch (error) {
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new InvalidRunStateError({ reason: `it cannot be serialised as JSON (${detail})`, cause: error });
  }
  if (typeof text !== 'string') throw new InvalidRunStateError({ reason: 'it serialises to nothing (not an object)' });
  return { text, state: parseRunState(text) };
}

/**
 * The calls of the last assistant turn that have no tool answer after it, in call order.
 * @internal
 */
export function unansweredCalls(messages: readonly Message[]): { id: string; name: string }[] {
  let index = messages.length - 1;
  while (index >= 0 && messages[index]?.role !== 'assistant') index -= 1;
  const assistant = messages[index];
  if (assistant?.role !== 'assistant') return [];
  const answered = new Set<string>();
  for (let at = index + 1; at < messages.length; at += 1) {
    const row = messages[at];
    if (row?.role === 'tool') answered.add(row.toolCallId);
  }
  return (assistant.toolCalls ?? []).filter((call) => !answered.has(call.id)).map(({ id, name }) => ({ id, name }));
}

/**
 * Refuses call ids that would let a resume run one call twice: an id repeated within the last
 * assistant turn (the batch in flight), an id of that turn already used by an earlier assistant
 * turn (its ledger rows would be taken for this call's), or a call answered twice after it.
 */
function checkCallIds(messages: readonly Message[]): void {
  let index = messages.length - 1;
  while (index >= 0 && messages[index]?.role !== 'assistant') index -= 1;
  const last = messages[index];
  if (last?.role !== 'assistant') return;
  const earlier = new Set<string>();
  for (const message of messages.slice(0, index)) {
    if (message.role === 'assistant') for (const call of message.toolCalls ?? []) earlier.add(call.id);
  }
  const batch = new Set<string>();
  for (const [position, call] of (last.toolCalls ?? []).entries()) {
    const where = `messages[${index}].toolCalls[${position}].id`;
    if (batch.has(call.id))
      throw new InvalidRunStateError({
        reason: `${where}: call id \`${call.id}\` appears twice in the last assistant turn`,
      });
    if (earlier.has(call.id))
      throw new InvalidRunStateError({
        reason: `${where}: call id \`${call.id}\` was already used by an earlier assistant turn`,
      });
    batch.add(call.id);
  }
  const answered = new Set<string>();
  for (let at = index + 1; at < messages.length; at += 1) {
    const row = messages[at];
    if (row?.role !== 'tool') continue;
    if (answered.has(row.toolCallId))
      throw new InvalidRunStateError({ reason: `messages[${at}]: call \`${row.toolCallId}\` is answered twice` });
    answered.add(row.toolCallId);
  }
}

/**
 * Reads a run state (a JSON string or the parsed object) and checks it: the shape, the schema
 * version, unique call ids in the batch in flight (a checkpoint's as much as a paused run's), and
 * (for a paused run) that the pending batch is exactly the unanswered calls of the last assistant
 * turn.
 * @throws {InvalidRunStateError} naming what is wrong; nothing is resumed from a bad state.
 */
export function parseRunState(input: string | unknown): RunState {
  let value: unknown = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (error) {
      throw new InvalidRunStateError({ reason: 'not valid JSON', cause: error });
    }
  }
  try {
    const version = (value as { version?: unknown } | null)?.version;
    if (
      typeof value === 'object' &&
      value !== null &&
      version !== 1 &&
      version !== 2 &&
      version !== 3 &&
      version !== RUN_STATE_VERSION
    ) {
      throw new InvalidRunStateError({
        reason: `schema version ${String(version)}; this build reads versions 1 to ${RUN_STATE_VERSION}`,
      });
    }
    return checkRunState(value);
  } catch (error) {
    if (InvalidRunStateError.isInstance(error)) throw error;
    // A value nested past the stack, or one whose getters throw: never a raw RangeError or TypeError.
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new InvalidRunStateError({ reason: `it cannot be checked (${detail})`, cause: error });
  }
}

/** The root keys of a run state (every field of {@link RunState}). */
const ROOT_KEYS: ReadonlySet<string> = new Set([
  'version',
  'runId',
  'threadId',
  'messages',
  'pending',
  'budgets',
  'usage',
  'refusedTurn',
  'prefix',
  'toolChoice',
  'cutOffCalls',
  'refusedCalls',
  'signature',
]);

/** The checks of {@link parseRunState} after the version. */
function checkRunState(value: unknown): RunState {
  const checked = createValidator(runStateSchema).validate(value);
  if (!checked.ok) throw new InvalidRunStateError({ reason: formatValidationIssues(checked.issues) });
  const state = value as RunState;
  // From version 3 every root key is one this build writes: a misspelt or renamed field (`cutoffCalls`)
  // is an edit, never silently ignored.
  if (state.version >= 3) {
    const unknown = Object.keys(state).filter((key) => !ROOT_KEYS.has(key));
    if (unknown.length > 0)
      throw new InvalidRunStateError({
        reason: `unknown field${unknown.length === 1 ? '' : 's'} ${unknown.map((key) => `\`${key}\``).join(', ')} in a version-${state.version} state`,
      });
  }
  // A version-1 reader ignores `toolChoice`: a forced choice is only ever read from version 2.
  if (state.version === 1 && state.toolChoice !== undefined)
    throw new InvalidRunStateError({ reason: '`toolChoice` needs schema version 2 (a version-1 state has none)' });
  // An older reader ignores `cutOffCalls` (and would repair them): they are only ever read from version 3.
  if (state.version < 3 && state.cutOffCalls !== undefined)
    throw new InvalidRunStateError({
      reason: `\`cutOffCalls\` needs schema version 3 (a version-${state.version} state has none)`,
    });
  // An older reader ignores `refusedCalls` (and would run them): they are only ever read from version 4.
  if (state.version < 4 && state.refusedCalls !== undefined)
    throw new InvalidRunStateError({
      reason: `\`refusedCalls\` needs schema version 4 (a version-${state.version} state has none)`,
    });
  // Version 3 is written only for a turn with calls cut off before their block closed: it lists them.
  if (state.version === 3 && (state.cutOffCalls === undefined || state.cutOffCalls.length === 0))
    throw new InvalidRunStateError({ reason: 'a version-3 state lists its cut-off calls (`cutOffCalls`), none given' });
  checkCallIds(state.messages);
  for (const [field, ids] of [
    ['cutOffCalls', state.cutOffCalls],
    ['refusedCalls', state.refusedCalls],
  ] as const) {
    if (ids === undefined) continue;
    const open = new Set(unansweredCalls(state.messages).map((call) => call.id));
    const stray = ids.filter((id) => !open.has(id));
    if (stray.length > 0)
      throw new InvalidRunStateError({
        reason: `${field} names calls that are not open in the last assistant turn (${stray.join(', ')})`,
      });
  }
  if (state.pending === undefined) return state;
  const pending = [...state.pending.approvals, ...state.pending.calls].map((call) => call.callId);
  if (new Set(pending).size !== pending.length)
    throw new InvalidRunStateError({ reason: 'a call id is pending twice' });
  const open = unansweredCalls(state.messages).map((call) => call.id);
  const sorted = (ids: string[]) => [...ids].sort().join('\u0000');
  if (sorted(open) !== sorted(pending)) {
    throw new InvalidRunStateError({
      reason: `the pending calls (${pending.join(', ') || 'none'}) are not the unanswered calls of the last assistant turn (${open.join(', ') || 'none'})`,
    });
  }
  return state;
}
