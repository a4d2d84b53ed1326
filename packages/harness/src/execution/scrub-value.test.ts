import { ToolFailedError } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { REDACTED } from './redaction.js';
import { scrubValue, UNCHECKABLE } from './scrub-value.js';
import { expandSecrets } from './secret-variants.js';

const SECRET = 'sk-abc-123-xyz';
const secrets = expandSecrets([SECRET]);

describe('scrubValue', () => {
  it('returns a value without secrets as it is (same identity)', () => {
    const error = new Error('fine', { cause: { a: [1, 'two'] } });
    expect(scrubValue(error, secrets)).toBe(error);
  });

  it('copies an error with its prototype and markers, scrubbing message, stack, cause, errors and custom fields', () => {
    const original = new ToolFailedError({ reason: `key ${SECRET}` });
    const cyclic: Record<string, unknown> = { token: SECRET };
    cyclic.self = cyclic;
    Object.assign(original, { extra: cyclic, [SECRET]: 'as a key' });
    const aggregate = new AggregateError([original, `plain ${SECRET}`], 'many', { cause: original });
    const copy = scrubValue(aggregate, secrets);
    expect(copy).not.toBe(aggregate);
    expect(copy).toBeInstanceOf(AggregateError);
    const [first, second] = copy.errors as [ToolFailedError, string];
    expect(ToolFailedError.isInstance(first)).toBe(true);
    expect(first.message).not.toContain(SECRET);
    expect(first.stack).not.toContain(SECRET);
    expect(second).toBe(`plain ${REDACTED}`);
    expect(copy.cause).toBe(first);
    const extra = (first as unknown as { extra: Record<string, unknown> }).extra;
    expect(extra.token).toBe(REDACTED);
    expect(extra.self).toBe(extra);
    expect(Object.keys(first)).toContain(REDACTED);
    // The original is untouched.
    expect(original.message).toContain(SECRET);
  });

  it('copies Maps and Sets entry by entry and passes binary data as it is', () => {
    const bytes = new Uint8Array(1_000_000);
    const value = { headers: new Map([['authorization', `Bearer ${SECRET}`]]), seen: new Set([SECRET]), bytes };
    const copy = scrubValue(value, secrets);
    expect(copy.headers.get('authorization')).toBe(`Bearer ${REDACTED}`);
    expect([...copy.seen]).toEqual([REDACTED]);
    expect(copy.bytes).toBe(bytes);
  });

  it('replaces a value it cannot walk (a revoked proxy) with a note, never throwing', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(scrubValue({ inner: proxy }, secrets)).toBe(UNCHECKABLE);
  });
});
