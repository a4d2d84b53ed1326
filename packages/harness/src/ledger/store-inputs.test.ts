import { InvalidInputError } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { InMemoryArtifactStore } from '../artifacts/in-memory-artifact-store.js';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import type { RunState } from '../deferral/run-state.js';
import { InvalidRunStateError } from '../errors/invalid-run-state-error.js';
import { canonical, defaultIdempotencyKey } from './idempotency-key.js';
import { InMemoryToolEffectLedger } from './in-memory-tool-effect-ledger.js';

const deep = (depth: number): unknown => {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = { a: value };
  return value;
};

describe('canonical JSON', () => {
  it('matches the recursive definition (keys sorted at every depth)', () => {
    const value = { b: [1, { d: 'x', c: null }, undefined], a: { z: true, y: [] }, e: 'é"' };
    expect(canonical(value)).toBe('{"a":{"y":[],"z":true},"b":[1,{"c":null,"d":"x"},null],"e":"é\\""}');
    expect(canonical(undefined)).toBe('null');
    expect(canonical([])).toBe('[]');
    expect(canonical({})).toBe('{}');
  });

  it('handles 100k-deep values without a stack overflow and refuses cycles and BigInts typed', () => {
    expect(canonical(deep(100_000))).toHaveLength(100_000 * 6 + 1);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = { back: cyclic };
    expect(() => canonical(cyclic)).toThrow(InvalidInputError);
    expect(() => canonical({ a: 1n })).toThrow(InvalidInputError);
    expect(() => defaultIdempotencyKey({ runId: 'r', callId: 'c', toolName: 't', arguments: cyclic })).toThrow(
      InvalidInputError,
    );
    const shared = { x: 1 };
    expect(canonical([shared, shared])).toBe('[{"x":1},{"x":1}]');
  });
});

describe('InMemoryToolEffectLedger inputs', () => {
  const bad: [string, (ledger: InMemoryToolEffectLedger) => unknown][] = [
    ['started(null)', (ledger) => ledger.started(null as never)],
    [
      'started({ runId: {} })',
      (ledger) => ledger.started({ runId: {}, callId: 'c', tool: 't', idempotencyKey: 'k' } as never),
    ],
    [
      'started({ runId: 1 })',
      (ledger) => ledger.started({ runId: 1, callId: 'c', tool: 't', idempotencyKey: 'k' } as never),
    ],
    ['settled(null)', (ledger) => ledger.settled(null as never)],
    ['settled(bad status)', (ledger) => ledger.settled({ runId: 'r', callId: 'c', status: 'bogus' } as never)],
    ['unresolved({})', (ledger) => ledger.unresolved({} as never)],
  ];
  it.each(bad)('%s rejects with InvalidInputError', async (_label, call) => {
    await expect(Promise.resolve().then(() => call(new InMemoryToolEffectLedger()))).rejects.toThrow(InvalidInputError);
  });

  it('rows(Symbol()) throws InvalidInputError and a numeric run id is never stored', async () => {
    const ledger = new InMemoryToolEffectLedger();
    expect(() => ledger.rows(Symbol() as never)).toThrow(InvalidInputError);
    await ledger.started({ runId: '1', callId: 'c', tool: 't', idempotencyKey: 'k' });
    expect(ledger.rows('1')).toHaveLength(1);
  });
});

describe('in-memory stores', () => {
  it('refuse a detached buffer with InvalidInputError', async () => {
    const data = new Uint8Array(4);
    structuredClone(data.buffer, { transfer: [data.buffer] });
    await expect(
      new InMemoryArtifactStore().put(data, { runId: 'r', callId: 'c', name: 'n', mediaType: 'text/plain' }),
    ).rejects.toThrow(InvalidInputError);
  });

  it('InMemoryCheckpointStore.save validates like load and keeps the good state', async () => {
    const store = new InMemoryCheckpointStore();
    const good: RunState = {
      version: 1,
      runId: 'r',
      messages: [{ role: 'user', content: 'good' }],
      budgets: { modelCalls: 0, toolCalls: 0 },
      usage: {},
    };
    await store.save(good);
    for (const state of [
      { runId: 'r' },
      { ...good, usage: { a: 1n } },
      { ...good, usage: deep(20_000) },
      { ...good, toJSON: () => ({ ...good, runId: 'other' }) },
    ]) {
      await expect(store.save(state as RunState)).rejects.toSatisfy(InvalidRunStateError.isInstance);
    }
    expect((await store.load('r'))?.messages[0]).toEqual({ role: 'user', content: 'good' });
  });
});

describe('parseRunState on hostile objects', () => {
  it('a throwing version getter or proxy is an InvalidRunStateError, never raw', async () => {
    const { parseRunState } = await import('../deferral/run-state.js');
    const hostile = {
      get version() {
        throw new RangeError('getter');
      },
    };
    expect(() => parseRunState(hostile)).toThrow(InvalidRunStateError);
    const proxy = new Proxy(
      {},
      {
        get: () => {
          throw new TypeError('trap');
        },
      },
    );
    expect(() => parseRunState(proxy)).toThrow(InvalidRunStateError);
  });
});
