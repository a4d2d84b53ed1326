import { createHash } from 'node:crypto';
import { InvalidInputError } from '@tiny/tools';

type Step = { readonly value: unknown } | { readonly text: string } | { readonly leave: object };

/**
 * Canonical JSON: object keys sorted at every depth. Walks with an explicit stack, so no depth of
 * nesting can overflow the call stack, and refuses a cycle instead of looping.
 * @throws {InvalidInputError} when the value is cyclic or cannot be read (a `BigInt`, a throwing
 * getter or proxy): never a raw `RangeError` or `TypeError`.
 * @internal
 */
export function canonical(value: unknown): string {
  try {
    return canonicalSteps(value);
  } catch (error) {
    if (InvalidInputError.isInstance(error)) throw error;
    throw new InvalidInputError({
      entryPoint: 'canonical JSON',
      reason: `the value cannot be written as JSON (${error instanceof Error ? error.message : String(error)})`,
      cause: error,
    });
  }
}

function canonicalSteps(root: unknown): string {
  const parts: string[] = [];
  const open = new Set<object>();
  const stack: Step[] = [{ value: root }];
  for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
    if ('text' in step) {
      parts.push(step.text);
      continue;
    }
    if ('leave' in step) {
      open.delete(step.leave);
      continue;
    }
    const value = step.value;
    if (typeof value !== 'object' || value === null) {
      parts.push(JSON.stringify(value) ?? 'null');
      continue;
    }
    if (open.has(value)) {
      throw new InvalidInputError({ entryPoint: 'canonical JSON', reason: 'the value is cyclic' });
    }
    open.add(value);
    const children: Step[] = [];
    if (Array.isArray(value)) {
      parts.push('[');
      for (let index = 0; index < value.length; index += 1) {
        if (index > 0) children.push({ text: ',' });
        children.push({ value: value[index] });
      }
      children.push({ text: ']' });
    } else {
      parts.push('{');
      for (const [index, key] of Object.keys(value).sort().entries()) {
        children.push({ text: `${index > 0 ? ',' : ''}${JSON.stringify(key)}:` });
        children.push({ value: (value as Record<string, unknown>)[key] });
      }
      children.push({ text: '}' });
    }
    children.push({ leave: value });
    for (let index = children.length - 1; index >= 0; index -= 1) stack.push(children[index] as Step);
  }
  return parts.join('');
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
