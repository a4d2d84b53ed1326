import { InvalidInputError, ToolResult } from '@tiny/tools';
import type { DeferredCall } from '../run/agent-run.js';

/** One decision about a deferred call. */
export type DeferredDecision =
  | { readonly kind: 'approve' }
  | { readonly kind: 'approve_with_args'; readonly arguments: unknown }
  | { readonly kind: 'deny'; readonly message: string }
  | { readonly kind: 'respond'; readonly result: ToolResult }
  | { readonly kind: 'retry'; readonly message: string }
  | { readonly kind: 'fail'; readonly message: string };

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

function checkCallId(method: string, callId: unknown): void {
  if (typeof callId !== 'string' || callId === '')
    throw new InvalidInputError({
      entryPoint: `DeferredToolResults.${method}`,
      reason: `\`callId\` must be a non-empty string, got ${describe(callId)}`,
    });
}

function checkMessage(method: string, message: unknown): void {
  if (typeof message !== 'string')
    throw new InvalidInputError({
      entryPoint: `DeferredToolResults.${method}`,
      reason: `\`message\` must be a string, got ${describe(message)}`,
    });
}

/**
 * The host's decisions about a paused run's deferred calls, keyed by call id. Every method checks
 * its arguments (`InvalidInputError` naming the method and the bad argument; nothing is recorded). Approvals re-enter
 * the full admission pipeline (edited arguments are validated like the model's); denials and host
 * results are answered without running anything. The last decision for an id wins.
 */
export class DeferredToolResults {
  private readonly decisions = new Map<string, DeferredDecision>();

  /** Run the call with the model's arguments. */
  approve(callId: string): this {
    checkCallId('approve', callId);
    return this.set(callId, { kind: 'approve' });
  }

  /** Run the call with edited arguments (validated against the tool's declared schema). */
  approveWithArgs(callId: string, args: unknown): this {
    checkCallId('approveWithArgs', callId);
    return this.set(callId, { kind: 'approve_with_args', arguments: args });
  }

  /** Do not run the call; the model reads `message` as a tool error. */
  deny(callId: string, message: string): this {
    checkCallId('deny', callId);
    checkMessage('deny', message);
    return this.set(callId, { kind: 'deny', message });
  }

  /** The host ran the call (an external tool): this is its result. */
  respond(callId: string, result: ToolResult | string): this {
    checkCallId('respond', callId);
    if (typeof result !== 'string' && !ToolResult.isInstance(result))
      throw new InvalidInputError({
        entryPoint: 'DeferredToolResults.respond',
        reason: `\`result\` must be a ToolResult or a string, got ${describe(result)}`,
      });
    return this.set(callId, {
      kind: 'respond',
      result: typeof result === 'string' ? ToolResult.success(result) : result,
    });
  }

  /** Answer with a retry result (`ToolResult.retry`). */
  retry(callId: string, message: string): this {
    checkCallId('retry', callId);
    checkMessage('retry', message);
    return this.set(callId, { kind: 'retry', message });
  }

  /** Answer with a failed result (`ToolResult.failed`). */
  fail(callId: string, message: string): this {
    checkCallId('fail', callId);
    checkMessage('fail', message);
    return this.set(callId, { kind: 'fail', message });
  }

  /** Approves every approval in `pending` that has no decision yet. */
  approveAll(pending: { readonly approvals: readonly DeferredCall[] }): this {
    for (const call of pending.approvals) if (!this.decisions.has(call.callId)) this.approve(call.callId);
    return this;
  }

  /** The decision for `callId`, if any. */
  get(callId: string): DeferredDecision | undefined {
    return this.decisions.get(callId);
  }

  /** Every call id with a decision, in the order decided. */
  callIds(): string[] {
    return [...this.decisions.keys()];
  }

  /** The decisions as plain JSON (results in their JSON shape), e.g. to send to another process. */
  toJSON(): Record<string, unknown> {
    return Object.fromEntries(
      [...this.decisions].map(([id, decision]) => [
        id,
        decision.kind === 'respond' ? { ...decision, result: decision.result.toJSON() } : decision,
      ]),
    );
  }

  /** Reads decisions written by {@link DeferredToolResults.toJSON}. @throws {InvalidInputError} on malformed data. */
  static fromJSON(json: unknown): DeferredToolResults {
    if (typeof json !== 'object' || json === null)
      throw new InvalidInputError({
        entryPoint: 'DeferredToolResults.fromJSON',
        reason: 'deferred decisions must be an object',
      });
    const results = new DeferredToolResults();
    for (const [id, raw] of Object.entries(json)) {
      if (typeof raw !== 'object' || raw === null)
        throw new InvalidInputError({
          entryPoint: 'DeferredToolResults.fromJSON',
          reason: `decision for \`${id}\` must be an object, got ${describe(raw)}`,
        });
      const decision = raw as Record<string, unknown>;
      const message = typeof decision.message === 'string' ? decision.message : undefined;
      switch (decision.kind) {
        case 'approve':
          results.approve(id);
          break;
        case 'approve_with_args':
          results.approveWithArgs(id, decision.arguments);
          break;
        case 'respond':
          results.respond(id, ToolResult.fromJSON(decision.result));
          break;
        case 'deny':
        case 'retry':
        case 'fail':
          if (message === undefined)
            throw new InvalidInputError({
              entryPoint: 'DeferredToolResults.fromJSON',
              reason: `decision for \`${id}\` needs a message`,
            });
          results.set(id, { kind: decision.kind, message });
          break;
        default:
          throw new InvalidInputError({
            entryPoint: 'DeferredToolResults.fromJSON',
            reason: `decision for \`${id}\` has an unknown kind`,
          });
      }
    }
    return results;
  }

  private set(callId: string, decision: DeferredDecision): this {
    this.decisions.set(callId, decision);
    return this;
  }
}
