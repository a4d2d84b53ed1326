import { inspect } from 'node:util';
import { ToolFailedError } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { CIRCULAR, TOO_DEEP } from './plain-data.js';
import { REDACTED } from './redaction.js';
import { scrubThrown, scrubValue, UNCHECKABLE } from './scrub-value.js';
import { expandSecrets } from './secret-variants.js';

const SECRET = 'sk-abc-123-xyz';
const secrets = expandSecrets([SECRET]);

describe('scrubValue', () => {
  it('returns a value as it is when there is no secret to scrub (tools without secrets pay nothing)', () => {
    const error = new Error('fine', { cause: { a: [1, 'two'] } });
    expect(scrubValue(error, [])).toBe(error);
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
    expect(extra.self).toBe(CIRCULAR);
    expect(Object.keys(first)).toContain(REDACTED);
    // The original is untouched.
    expect(original.message).toContain(SECRET);
  });

  it('converts data to the JSON it serialises as: Maps and Sets as JSON writes them, binary as base64', () => {
    const bytes = Buffer.from(`{"key":"${SECRET}"}`);
    const value = { headers: new Map([['authorization', `Bearer ${SECRET}`]]), seen: new Set([SECRET]), bytes };
    const copy = scrubValue(value, secrets) as unknown as Record<string, unknown>;
    expect(copy.headers).toEqual({});
    expect(copy.seen).toEqual({});
    expect(JSON.stringify(copy)).not.toContain(bytes.toString('base64').slice(12, 30));
    expect((copy.bytes as { bytes: number }).bytes).toBe(bytes.byteLength);
  });

  it('serialises what it checked: URLs, Dates, toJSON and getters read once, and never throws on them', () => {
    class Req {
      #key = SECRET;
      toJSON() {
        return { auth: this.#key };
      }
    }
    const at = new Date(0);
    const value = { u: new URL(`https://h/?k=${SECRET}`), req: new Req(), at, boxed: new String(SECRET) };
    const copy = scrubValue(value, secrets);
    const text = JSON.stringify(copy);
    expect(text).not.toContain(SECRET);
    expect((copy as unknown as { at: string }).at).toBe(at.toISOString());
    expect(() =>
      JSON.stringify(scrubValue({ k: SECRET, at: new Date(), u: new URL('https://h/') }, secrets)),
    ).not.toThrow();
  });

  it('checks values nested deeper than JSON walkers usually stop, and reports what it could not reach', () => {
    let deep: unknown = { k: SECRET };
    for (let level = 0; level < 40; level += 1) deep = { n: deep };
    expect(JSON.stringify(scrubValue(deep, secrets))).not.toContain(SECRET);
    let deeper: unknown = { k: SECRET };
    for (let level = 0; level < 300; level += 1) deeper = { n: deeper };
    const text = JSON.stringify(scrubValue(deeper, secrets));
    expect(text).not.toContain(SECRET);
    expect(text).toContain(TOO_DEEP);
  });

  it('copies a thrown error with a built-in prototype: no getter, symbol or proxy of the tool gives the secret back', () => {
    class Leaky extends Error {
      #key = SECRET;
      get detail() {
        return `key ${this.#key}`;
      }
    }
    const error = new Leaky('x', { cause: { url: new URL(`https://h/?k=${SECRET}`) } });
    Object.assign(error, { [Symbol(SECRET)]: 1, [Symbol('s')]: SECRET });
    const hidden = new Proxy(new Error(`inner ${SECRET}`), { ownKeys: () => [] });
    const aggregate = new AggregateError([error, hidden], 'many');
    const copy = scrubThrown(aggregate, secrets) as AggregateError;
    expect(copy).toBeInstanceOf(AggregateError);
    const text = inspect(copy, { depth: 20, showHidden: true });
    expect(text).not.toContain(SECRET);
    const first = copy.errors[0] as Error & { detail: string };
    expect(first).not.toBeInstanceOf(Leaky);
    expect(first.detail).toBe(`key ${REDACTED}`);
    expect(first.name).toBe('Error');
  });

  it('describes a thrown non-error as scrubbed text, without letting its toString throw', () => {
    expect(scrubThrown({ toString: () => `bad ${SECRET}` }, secrets)).toBe(`bad ${REDACTED}`);
    expect(scrubThrown(new URL(`https://h/?k=${SECRET}`), secrets)).toBe(`https://h/?k=${REDACTED}`);
    const hostile = {
      toString() {
        throw new Error('no');
      },
      key: SECRET,
    };
    expect(scrubThrown(hostile, secrets)).toBe(`{"key":"${REDACTED}"}`);
  });

  it('follows a cause chain 40 links deep', () => {
    let error = new Error(`root ${SECRET}`);
    for (let level = 0; level < 40; level += 1) error = new Error(`wrap ${level}`, { cause: error });
    const copy = scrubThrown(error, secrets);
    expect(inspect(copy, { depth: 100 })).not.toContain(SECRET);
  });

  it('replaces a value it cannot walk (a revoked proxy) with a note, never throwing', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(scrubValue({ inner: proxy }, secrets)).toEqual({ inner: UNCHECKABLE });
  });
});
