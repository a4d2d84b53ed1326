import { type AnyTool, InvalidInputError, ToolResult } from '@tiny/tools';
import { sealArguments } from '../admission/seal-arguments.js';
import type { DeferredCall, ToolArguments } from './deferred-call.js';

/**
 * One decision about a deferred call. `digest` is the pending call's digest when the decision was
 * made from the `DeferredCall` itself (not a bare id): on resume it must match the call as the state
 * holds it, else the resume is refused (`DeferredResolutionError`, problem `digest_mismatch`).
 */
export type DeferredDecision = (
  | { readonly kind: 'approve' }
  | { readonly kind: 'approve_with_args'; readonly arguments: unknown }
  | { readonly kind: 'deny'; readonly message: string }
  | { readonly kind: 'respond'; readonly result: ToolResult }
  | { readonly kind: 'retry'; readonly message: string }
  | { readonly kind: 'fail'; readonly message: string }
) & { readonly digest?: string | undefined };

/** A pending call named by id, or the `DeferredCall` itself (then the decision carries its digest). */
export type DeferredCallRef = string | Pick<DeferredCall, 'callId' | 'digest'>;

/**
 * A pending call whose arguments may be typed (a `DeferredCall<TArgs>` from `approvalsFor`): what
 * `approveWithArgs` infers the type of the edited arguments from.
 */
export type TypedDeferredCallRef<TArgs> =
  | string
  | (Pick<DeferredCall, 'callId' | 'digest'> & { readonly arguments?: TArgs | undefined });

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

function checkDigest(method: string, digest: unknown): string | undefined {
  if (digest === undefined) return undefined;
  if (typeof digest !== 'string' || digest === '')
    throw new InvalidInputError({
      entryPoint: `DeferredToolResults.${method}`,
      reason: `\`digest\` must be a non-empty string, got ${describe(digest)}`,
    });
  return digest;
}

/** The id and digest of a call reference, checked. */
function reference(method: string, ref: unknown): { callId: string; digest: string | undefined } {
  if (typeof ref === 'object' && ref !== null) {
    const { callId, digest } = ref as { callId?: unknown; digest?: unknown };
    checkCallId(method, callId);
    return { callId: callId as string, digest: checkDigest(method, digest) };
  }
  checkCallId(method, ref);
  return { callId: ref as string, digest: undefined };
}

function checkMessage(method: string, message: unknown): void {
  if (typeof message !== 'string')
    throw new InvalidInputError({
      entryPoint: `DeferredToolResults.${method}`,
      reason: `\`message\` must be a string, got ${describe(message)}`,
    });
}

/** The host's edited arguments as a frozen JSON copy (a `toJSON` read once); a `toJSON` that throws is refused. */
function sealedArguments(args: unknown): unknown {
  try {
    return sealArguments(args);
  } catch (error) {
    throw new InvalidInputError({
      entryPoint: 'DeferredToolResults.approveWithArgs',
      reason: '`args` must be JSON: a toJSON in it threw',
      cause: error,
    });
  }
}

/** Drops an undefined `digest` key so decisions compare and serialise as before. */
function stripDigest(decision: DeferredDecision): DeferredDecision {
  const { digest: _digest, ...rest } = decision;
  return rest as DeferredDecision;
}

/**
 * The host's decisions about a paused run's deferred calls, keyed by call id. Every method checks
 * its arguments (`InvalidInputError` naming the method and the bad argument; nothing is recorded). Approvals re-enter
 * the full admission pipeline (edited arguments are validated like the model's); denials and host
 * results are answered without running anything. The last decision for an id wins.
 */
export class DeferredToolResults {
  private readonly decisions = new Map<string, DeferredDecision>();

  /**
   * Run the call with the model's arguments. Pass the `DeferredCall` (from `run.deferred`) rather
   * than its id to bind the approval to the exact call (its digest); see {@link DeferredCallRef}.
   */
  approve(call: DeferredCallRef): this {
    const { callId, digest } = reference('approve', call);
    return this.set(callId, { kind: 'approve', digest });
  }

  /**
   * Run the call with edited arguments. The digest, when given, binds the decision to the call the
   * model made; the edited arguments are the host's. On resume, before anything runs, they are
   * validated against the tool's declared schema (host-injected values in place): a mismatch is
   * refused to the host (`DeferredResolutionError`, problem `invalid_arguments`), never answered to
   * the model. The tool result the model reads opens with a note of the arguments that ran.
   *
   * Typed two ways: name the tool (`approveWithArgs<typeof pay>(call, { to: 'ada', cents: 250 })`),
   * or pass a typed call from `run.deferred.approvalsFor(pay)` and the arguments are checked
   * against its type. With a bare id or an untyped call, `args` is `unknown` (checked at run time).
   * `args` is copied when given, as `JSON.stringify` would write it (a `toJSON` called once, own
   * enumerable keys only, functions dropped), and frozen: later edits of the object change nothing.
   */
  approveWithArgs<TTool extends AnyTool>(call: DeferredCallRef, args: ToolArguments<TTool>): this;
  approveWithArgs<TArgs = unknown>(call: TypedDeferredCallRef<TArgs>, args: NoInfer<TArgs>): this;
  approveWithArgs(call: DeferredCallRef, args: unknown): this {
    const { callId, digest } = reference('approveWithArgs', call);
    // A frozen copy taken now: what is validated, run, noted to the model and recorded
    // (`tool_approved.arguments`) is what the host gave, whatever it does with its object later.
    return this.set(callId, { kind: 'approve_with_args', arguments: sealedArguments(args), digest });
  }

  /** Do not run the call; the model reads `message` as a tool error. */
  deny(call: DeferredCallRef, message: string): this {
    const { callId, digest } = reference('deny', call);
    checkMessage('deny', message);
    return this.set(callId, { kind: 'deny', message, digest });
  }

  /** The host ran the call (an external tool): this is its result. */
  respond(call: DeferredCallRef, result: ToolResult | string): this {
    const { callId, digest } = reference('respond', call);
    if (typeof result !== 'string' && !ToolResult.isInstance(result))
      throw new InvalidInputError({
        entryPoint: 'DeferredToolResults.respond',
        reason: `\`result\` must be a ToolResult or a string, got ${describe(result)}`,
      });
    return this.set(callId, {
      kind: 'respond',
      result: typeof result === 'string' ? ToolResult.success(result) : result,
      digest,
    });
  }

  /** Answer with a retry result (`ToolResult.retry`). */
  retry(call: DeferredCallRef, message: string): this {
    const { callId, digest } = reference('retry', call);
    checkMessage('retry', message);
    return this.set(callId, { kind: 'retry', message, digest });
  }

  /** Answer with a failed result (`ToolResult.failed`). */
  fail(call: DeferredCallRef, message: string): this {
    const { callId, digest } = reference('fail', call);
    checkMessage('fail', message);
    return this.set(callId, { kind: 'fail', message, digest });
  }

  /** Approves every approval in `pending` that has no decision yet, each bound to its digest. */
  approveAll(pending: { readonly approvals: readonly DeferredCall[] }): this {
    for (const call of pending.approvals) if (!this.decisions.has(call.callId)) this.approve(call);
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
      [...this.decisions].map(([id, { digest, ...decision }]) => [
        id,
        {
          ...(decision.kind === 'respond' ? { ...decision, result: decision.result.toJSON() } : decision),
          ...(digest === undefined ? {} : { digest }),
        },
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
      const ref = { callId: id, digest: checkDigest('fromJSON', decision.digest) };
      switch (decision.kind) {
        case 'approve':
          results.approve(ref);
          break;
        case 'approve_with_args':
          results.approveWithArgs(ref, decision.arguments);
          break;
        case 'respond':
          results.respond(ref, ToolResult.fromJSON(decision.result));
          break;
        case 'deny':
        case 'retry':
        case 'fail':
          if (message === undefined)
            throw new InvalidInputError({
              entryPoint: 'DeferredToolResults.fromJSON',
              reason: `decision for \`${id}\` needs a message`,
            });
          results.set(id, { kind: decision.kind, message, digest: ref.digest });
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
    this.decisions.set(callId, decision.digest === undefined ? stripDigest(decision) : decision);
    return this;
  }
}
