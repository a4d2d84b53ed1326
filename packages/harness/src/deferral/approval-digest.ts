import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { ApprovalSecretError } from '../errors/approval-secret-error.js';
import { canonical } from '../ledger/idempotency-key.js';

/**
 * The host secret approvals are signed with: a string or bytes, or a function of the run id
 * (e.g. a per-tenant key). With one, every pending call's digest is an HMAC-SHA-256; without one,
 * a plain SHA-256 (detects edits, not forgeries by whoever can also recompute the digest).
 */
export type ApprovalSecret = string | Uint8Array | ((runId: string) => string | Uint8Array);

/** What a pending call's digest binds: the run, the call, the tool and the model-visible arguments. */
export interface ApprovalDigestInput {
  readonly runId: string;
  readonly callId: string;
  readonly toolName: string;
  /** The arguments the model chose (no host-injected values). */
  readonly arguments: unknown;
  /**
   * The policy the approval is asked under ({@link approvalPolicyDigest}): when given, the digest
   * binds it too, so a state whose policy digest was edited is refused like an edited call.
   */
  readonly policy?: string | undefined;
}

/**
 * The digest of one pending call: `hmac-sha256:<hex>` with a secret, `sha256:<hex>` without, over the
 * canonical JSON (keys sorted at every depth) of run id, call id, tool name and arguments. Computed
 * once when a call pauses; checked on resume against the state's pending call and the host's decision.
 */
export function approvalDigest(call: ApprovalDigestInput, secret?: ApprovalSecret): string {
  const body =
    call.policy === undefined
      ? canonical(['tiny.approval.v1', call.runId, call.callId, call.toolName, call.arguments])
      : canonical(['tiny.approval.v2', call.runId, call.callId, call.toolName, call.arguments, call.policy]);
  if (secret === undefined) return `sha256:${createHash('sha256').update(body).digest('hex')}`;
  return `hmac-sha256:${createHmac('sha256', approvalKey(secret, call.runId)).update(body).digest('hex')}`;
}

/**
 * The key `secret` gives for `runId`: a string or bytes of at least {@link MIN_KEY_BYTES} bytes,
 * not whitespace only and not all zero bytes, else {@link ApprovalSecretError} (an empty or
 * zero-filled HMAC key would let anyone forge an approval).
 * @internal
 */
export function approvalKey(secret: ApprovalSecret, runId: string): string | Uint8Array {
  let key: unknown = secret;
  if (typeof secret === 'function') {
    try {
      key = secret(runId);
    } catch (error) {
      throw new ApprovalSecretError({ runId, reason: 'the key function threw', cause: error });
    }
  }
  if (typeof key === 'string' || key instanceof Uint8Array) {
    const weakness = keyWeakness(key);
    if (weakness === undefined) return key;
    throw new ApprovalSecretError({
      runId,
      reason: `expected a key of at least ${MIN_KEY_BYTES} bytes, got ${weakness}`,
    });
  }
  throw new ApprovalSecretError({ runId, reason: `expected a string or Uint8Array key, got ${describeKey(key)}` });
}

/** The fewest bytes an approval key may have (HMAC zero-pads shorter keys, so tiny keys are guessable). */
export const MIN_KEY_BYTES = 16;

/**
 * Why `key` is too weak to sign approvals, or `undefined`: shorter than {@link MIN_KEY_BYTES} bytes,
 * whitespace only, or all zero bytes (HMAC zero-pads its key, so an all-zero key signs exactly as
 * an empty one would, and anyone can forge with it).
 * @internal
 */
export function keyWeakness(key: string | Uint8Array): string | undefined {
  const bytes = typeof key === 'string' ? Buffer.from(key, 'utf8') : key;
  if (bytes.length === 0) return typeof key === 'string' ? 'an empty string' : 'empty bytes';
  if (typeof key === 'string' && key.trim() === '') return 'a whitespace-only string';
  if (bytes.every((byte) => byte === 0)) return 'a key of zero bytes only (equivalent to an empty key)';
  if (bytes.length < MIN_KEY_BYTES) return `${bytes.length} bytes`;
  return undefined;
}

function describeKey(value: unknown): string {
  if (value === null) return 'null';
  if (value instanceof Promise) return 'a promise (the key function must be synchronous)';
  return typeof value;
}

/** Constant-time comparison of two digests. @internal */
export function sameDigest(left: string, right: string): boolean {
  const a = Buffer.from(left);
  const b = Buffer.from(right);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** What {@link approvalPolicyDigest} reads of a tool: its definition and its declared policy. */
export interface ApprovalPolicyInput {
  readonly name: string;
  readonly description?: string | undefined;
  /** The model-facing parameter schema. */
  readonly parameters?: unknown;
  /**
   * The tool's declared policy: side effects, access (which holds `approvalRequired`) and runtime
   * (sandbox, timeouts, result size).
   */
  readonly policy?:
    | { readonly sideEffects?: unknown; readonly access?: unknown; readonly runtime?: unknown }
    | undefined;
  /** The arguments the host injects (name and source): a new one changes what the call does. */
  readonly injected?: readonly { readonly name: string; readonly source?: unknown }[] | undefined;
  /**
   * The tools this one may call (`nestedTools`), read like this one, recursively: a changed, added
   * or removed helper changes what an approved call does. Their order does not count; a tool met
   * again on its own nesting path (a cycle) counts by name only.
   */
  readonly nestedTools?: readonly ApprovalPolicyInput[] | undefined;
}

/**
 * The digest of the policy an approval is asked under: `policy-sha256:<hex>` over the tool's name,
 * description, model-facing parameters, declared side effects, access rules (approval requirement
 * included), runtime (sandbox, timeouts, result size), host-injected arguments (names and
 * sources, never values) and declared `nestedTools` (each one's name and definition digest,
 * recursively, in no particular order); a fixed digest for a tool the harness does not know. A
 * paused call carries it; an approval resumed under a different one is not run but asked again
 * (`needs_reapproval`). It covers the declared definition, not the code: an `execute` changed under
 * the same definition keeps the digest.
 */
export function approvalPolicyDigest(tool: ApprovalPolicyInput | undefined): string {
  const body =
    tool === undefined ? canonical(['tiny.approval-policy.v2', null]) : definitionBody(tool, new Set(), new WeakMap());
  return `policy-sha256:${sha256(body)}`;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The canonical body of `tool`'s definition. `path` holds the tools on the nesting path (a tool met
 * again there is a cycle, written as its name); `memo` keeps the bodies of tools whose nesting had
 * no cycle (theirs do not depend on the path), so a helper shared by many tools is read once.
 */
function definitionBody(
  tool: ApprovalPolicyInput,
  path: Set<ApprovalPolicyInput>,
  memo: WeakMap<ApprovalPolicyInput, string>,
): string {
  const known = memo.get(tool);
  if (known !== undefined) return known;
  const fields: unknown[] = [
    'tiny.approval-policy.v2',
    tool.name,
    tool.description ?? null,
    tool.parameters ?? null,
    tool.policy?.sideEffects ?? null,
    tool.policy?.access ?? null,
    tool.policy?.runtime ?? null,
    (tool.injected ?? []).map((argument) => [argument.name, argument.source ?? null]),
  ];
  let cut = false;
  const nested = tool.nestedTools ?? [];
  if (nested.length > 0) {
    // By name, the last one winning (as the harness looks nested tools up), then sorted.
    const byName = new Map<string, ApprovalPolicyInput>();
    for (const helper of nested) byName.set(helper.name, helper);
    path.add(tool);
    const entries: [string, string][] = [];
    for (const [name, helper] of byName) {
      if (path.has(helper)) {
        cut = true;
        entries.push([name, 'cycle']);
        continue;
      }
      const helperBody = definitionBody(helper, path, memo);
      if (!memo.has(helper)) cut = true;
      entries.push([name, `sha256:${sha256(helperBody)}`]);
    }
    path.delete(tool);
    entries.sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
    fields.push(['nested', entries]);
  }
  const body = canonical(fields);
  if (!cut) memo.set(tool, body);
  return body;
}
