import { type AgentMiddleware, type PendingCall, REDACTED, type RunState, redactToolArguments } from '@tiny/harness';
import { findTool, type ToolLookup } from './tool-display.js';

/** Adds to `out` every string and number leaf of `value` (the values a sensitive field held). */
function leaves(value: unknown, out: string[], depth: number): void {
  if (typeof value === 'string') {
    if (value !== REDACTED) out.push(value);
  } else if (typeof value === 'number' || typeof value === 'bigint') out.push(String(value));
  else if (depth < 32 && typeof value === 'object' && value !== null)
    for (const item of Object.values(value)) leaves(item, out, depth + 1);
}

/** Adds to `out` what `original` holds where `redacted` (its `redactToolArguments` form) says `[redacted]`. */
function redactedValues(original: unknown, redacted: unknown, out: string[], depth: number): void {
  if (redacted === REDACTED) {
    leaves(original, out, 0);
    return;
  }
  if (depth >= 32 || typeof original !== 'object' || original === null) return;
  if (typeof redacted !== 'object' || redacted === null) return;
  for (const [key, item] of Object.entries(original))
    redactedValues(item, (redacted as Record<string, unknown>)[key], out, depth + 1);
}

/** The values of a call's sensitive fields (`sensitive(...)` of its tool), as the model sent them. */
export function sensitiveArgumentValues(lookup: ToolLookup | undefined, call: PendingCall): string[] {
  const out: string[] = [];
  try {
    const tool = findTool(lookup, call.name);
    if (tool === undefined || call.invalid !== undefined) return out;
    redactedValues(call.arguments, redactToolArguments(tool, call.arguments), out, 0);
  } catch {
    // A value that cannot be read is not shown by the harness either.
  }
  return out;
}

/**
 * A run middleware that adds the values of sensitive arguments of each call the model makes (or
 * that runs after approval) to `secrets`, so a stream reading that list scrubs them from the
 * model's later text too (a model that repeats the password it sent).
 */
export function collectSensitiveArguments(lookup: ToolLookup | undefined, secrets: string[]): AgentMiddleware {
  const add = (call: PendingCall) => {
    for (const value of sensitiveArgumentValues(lookup, call)) if (!secrets.includes(value)) secrets.push(value);
  };
  return {
    name: 'ui-stream-sensitive-arguments',
    afterModel(input) {
      for (const call of input.calls) add(call);
      return undefined;
    },
    beforeTool(call) {
      add(call);
      return undefined;
    },
  };
}

/**
 * Adds to `secrets` the sensitive argument values of every call a paused run holds: its pending
 * approvals and deferred calls (approved, denied or deferred again on resume, the model may repeat
 * them) and the calls recorded in its transcript, so the resumed stream scrubs them from the
 * model's later text.
 */
export function collectPausedRunSecrets(lookup: ToolLookup | undefined, state: RunState, secrets: string[]): void {
  const add = (call: PendingCall) => {
    for (const value of sensitiveArgumentValues(lookup, call)) if (!secrets.includes(value)) secrets.push(value);
  };
  const pending = state.pending;
  for (const call of [...(pending?.approvals ?? []), ...(pending?.calls ?? [])])
    add({ id: call.callId, name: call.toolName, arguments: call.arguments });
  for (const message of state.messages)
    if (message.role === 'assistant') for (const call of message.toolCalls ?? []) add(call);
}
