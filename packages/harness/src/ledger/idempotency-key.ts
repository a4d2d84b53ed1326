import { createHash } from 'node:crypto';

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The default idempotency key of a call: SHA-256 (hex) of the tool name and its arguments as
 * canonical JSON (object keys sorted at every depth), so the same call always gets the same key
 * whatever order the model wrote the keys in.
 */
export function defaultIdempotencyKey(toolName: string, args: unknown): string {
  return createHash('sha256').update(toolName).update('\u0000').update(canonical(args)).digest('hex');
}
