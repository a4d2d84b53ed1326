import { createHash } from 'node:crypto';

/** Canonical JSON: object keys sorted at every depth. @internal */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What the default idempotency key is derived from (the model-visible call, no host values). */
export interface IdempotencyKeyInput {
  readonly runId: string;
  readonly callId: string;
  readonly toolName: string;
  /** The arguments the model chose; host-injected values must not be in them, sensitive fields read `[redacted]`. */
  readonly arguments: unknown;
}

/**
 * The default idempotency key of a call: SHA-256 (hex) over the run id, the call id, the tool name
 * and the model-visible arguments as canonical JSON (object keys sorted at every depth). The harness
 * strips host-injected values and replaces sensitive fields (`x-tiny-sensitive`, `policy.access.redact`)
 * by `[redacted]` before calling it, so no secret can be recovered from the key by trying values (it
 * is stored in ledgers and handed to tools); the run id and call id keep it unique per call (a call
 * id is never reused in a run), and it needs no key material, so it is the same after a restart. A
 * tool that wants injected or sensitive values in its key derives its own with `Tool.idempotencyKey`. The same call of the same run keeps its key across a
 * resume, whatever order the model wrote the keys in.
 */
export function defaultIdempotencyKey(call: IdempotencyKeyInput): string {
  return createHash('sha256')
    .update(canonical([call.runId, call.callId, call.toolName, call.arguments]))
    .digest('hex');
}
