import { ToolResult } from '@tiny/tools';
import type { LoopState, PendingCall } from '../agent/loop-state.js';
import { redactionOf, redactValue } from '../execution/redaction.js';
import type { RegisteredTool } from '../registry/tool-registry.js';
import { defaultIdempotencyKey } from './idempotency-key.js';
import type { EffectSettled } from './tool-effect-ledger.js';

/**
 * The arguments without the names the host injects (what the model chose), with every sensitive
 * field `[redacted]`: a key is stored in ledger rows and handed to tools, and a hash of a
 * low-entropy value (a PIN) is recovered by trying them all. The key stays unique per call without
 * them: it covers the run id and the call id, and a call id is never reused within a run.
 */
function modelVisible(entry: RegisteredTool, args: Record<string, unknown>): Record<string, unknown> {
  const injected = entry.tool.injected;
  let visible: Record<string, unknown> = args;
  if (injected.length > 0) {
    visible = { ...args };
    for (const argument of injected) delete visible[argument.name];
  }
  return redactValue(visible, redactionOf(entry.tool)) as Record<string, unknown>;
}

/**
 * The idempotency key of a call: the tool's own (`Tool.idempotencyKey`, which sees the injected
 * values too), else the host's `idempotencyKey` option (for example derived from run and call ids
 * by a durable engine), else {@link defaultIdempotencyKey}. The host rule and the default see the
 * model-visible arguments only, sensitive fields `[redacted]`: neither host-injected nor sensitive
 * values enter them.
 * @internal
 */
export function idempotencyKeyOf(
  state: LoopState,
  callId: string,
  entry: RegisteredTool,
  args: Record<string, unknown>,
): string {
  const own = entry.tool.idempotencyKey(args as never);
  if (own !== undefined) return own;
  const call = { runId: state.runId, callId, toolName: entry.name, arguments: modelVisible(entry, args) };
  return state.idempotencyKey?.(call) ?? defaultIdempotencyKey(call);
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Writes the `started` row before a call executes. When the write fails, `abort` (the default)
 * answers the call with an error result instead of running it; `continue` runs it unrecorded.
 * Both emit `ledger_write_failed`. Returns the answer when the call must not run.
 * @internal
 */
export async function recordStarted(
  state: LoopState,
  call: PendingCall,
  entry: RegisteredTool,
  idempotencyKey: string,
): Promise<ToolResult | undefined> {
  const ledger = state.ledger;
  if (ledger === undefined) return undefined;
  let first: unknown;
  try {
    first = await ledger.started({ runId: state.runId, callId: call.id, tool: entry.name, idempotencyKey });
  } catch (error) {
    const action = state.ledgerFailure === 'continue' ? 'continued' : 'aborted';
    if (state.sink.active) {
      state.sink.emit({
        type: 'ledger_write_failed',
        callId: call.id,
        phase: 'started',
        action,
        error: message(error),
      });
    }
    if (action === 'continued') return undefined;
    return ToolResult.error(`tool \`${entry.name}\` was not run: its effect could not be recorded (${message(error)})`);
  }
  // The ledger already had this call: another resume of the same state started it. A replay-safe
  // tool may run again (reconciliation left it for that); anything else runs at most once.
  if (first === false && entry.tool.policy.runtime.replay !== 'safe') {
    if (state.sink.active) {
      state.sink.emit({
        type: 'ledger_write_failed',
        callId: call.id,
        phase: 'started',
        action: 'aborted',
        error: ALREADY_STARTED,
      });
    }
    return ToolResult.error(`tool \`${entry.name}\` was not run: ${ALREADY_STARTED}`);
  }
  return undefined;
}

const ALREADY_STARTED = 'the ledger shows this call already started (another resume of the same state ran it)';

/** Settles a row; a failed write never fails the run (the row stays `started`; an event says so). @internal */
export async function recordSettled(state: LoopState, callId: string, status: EffectSettled['status']): Promise<void> {
  const ledger = state.ledger;
  if (ledger === undefined) return;
  try {
    await ledger.settled({ runId: state.runId, callId, status });
  } catch (error) {
    if (state.sink.active) {
      state.sink.emit({
        type: 'ledger_write_failed',
        callId,
        phase: 'settled',
        action: 'ignored',
        error: message(error),
      });
    }
  }
}
