import { describe, expect, it } from 'vitest';
import { scrubCause } from './scrub-cause.js';

const KEY = 'sk-scrub-cause-0123456789abcdef';

describe('scrubCause', () => {
  it('copies an error chain with every secret scrubbed, keeping prototypes and fields', () => {
    // undici's message for a key holding a newline (a Headers.append failure) quotes the header value.
    const inner = Object.assign(new TypeError(`Headers.append: "Bearer ${KEY}" is an invalid header value.`), {
      code: `E_${KEY}`,
    });
    const outer = new Error(`fetch failed for ${KEY}`, { cause: inner });
    const copy = scrubCause(outer, [KEY]) as Error & { cause: TypeError & { code: string } };
    expect(copy).toBeInstanceOf(Error);
    expect(copy.message).toBe('fetch failed for [redacted]');
    expect(copy.stack).not.toContain(KEY);
    expect(copy.cause).toBeInstanceOf(TypeError);
    expect(copy.cause.message).toBe('Headers.append: "Bearer [redacted]" is an invalid header value.');
    expect(copy.cause.code).toBe('E_[redacted]');
    // The original is left as it was.
    expect(outer.message).toContain(KEY);
  });
  it('returns a chain that spells no secret as it is (the same object)', () => {
    const cause = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') });
    expect(scrubCause(cause, [KEY])).toBe(cause);
    expect(scrubCause(new Error(KEY), undefined)).toBeInstanceOf(Error);
  });
  it('copies a chain whose secret lies past eight causes', () => {
    let chain: Error = new Error(`deep ${KEY}`);
    for (let level = 0; level < 12; level += 1) chain = new Error(`level ${level}`, { cause: chain });
    expect(scrubCause(chain, KEY)).not.toBe(chain);
  });
  it('scrubs strings, plain objects and AggregateError members; a cycle ends after eight causes', () => {
    expect(scrubCause(`x ${KEY}`, KEY)).toBe('x [redacted]');
    expect(scrubCause({ header: `Bearer ${KEY}` }, KEY)).toEqual({ header: 'Bearer [redacted]' });
    const aggregate = scrubCause(new AggregateError([new Error(KEY)], 'all failed'), KEY) as AggregateError;
    expect((aggregate.errors[0] as Error).message).toBe('[redacted]');
    const looped = new Error(KEY) as Error & { cause?: unknown };
    looped.cause = looped;
    let depth = 0;
    for (let at = scrubCause(looped, KEY) as Error | undefined; at !== undefined; at = at.cause as Error | undefined) {
      expect(at.message).toBe('[redacted]');
      depth += 1;
    }
    expect(depth).toBe(9);
  });
});

describe('scrubCause: fields it cannot read as JSON', () => {
  // A custom fetch's failure may carry the request's headers in shapes a JSON walk does not see.
  const shapes: Array<[string, (headers: Record<string, string>) => Error]> = [
    [
      'a Headers object',
      (headers) => Object.assign(new TypeError('fetch failed'), { request: { headers: new Headers(headers) } }),
    ],
    ['a Map', (headers) => Object.assign(new TypeError('fetch failed'), { meta: new Map(Object.entries(headers)) })],
    [
      'a hidden field',
      (headers) =>
        Object.defineProperty(new TypeError('fetch failed'), 'config', { value: { headers }, enumerable: false }),
    ],
    [
      'a symbol-keyed field',
      (headers) => Object.assign(new TypeError('fetch failed'), { [Symbol('config')]: { headers } }),
    ],
  ];

  it.each(shapes)('leaves no secret in %s of the cause (util.inspect included)', async (_name, make) => {
    const { inspect } = await import('node:util');
    const cause = make({ authorization: `Bearer ${KEY}` });
    const copy = scrubCause(new Error('request failed', { cause }), [KEY]);
    expect(inspect(copy, { depth: 10, showHidden: true })).not.toContain(KEY);
    expect(JSON.stringify(Object.getOwnPropertyNames((copy as { cause: object }).cause))).not.toContain('config');
  });
});
