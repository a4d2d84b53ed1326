import { type Message, messageText } from '@tiny/llm';
import { defineTool, ToolInputError, ToolPolicy, type ToolResult } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { InMemoryToolEffectLedger } from '../ledger/in-memory-tool-effect-ledger.js';
import { ScriptedModel } from '../testkit/index.js';
import { snapshotArguments } from './snapshot-arguments.js';

const deep = (depth: number): Record<string, unknown> => {
  const root: Record<string, unknown> = {};
  let at = root;
  for (let level = 1; level < depth; level += 1) {
    at.a = {};
    at = at.a as Record<string, unknown>;
  }
  return root;
};
const cyclic = () => {
  const value: Record<string, unknown> = { a: {} };
  (value.a as Record<string, unknown>).self = value;
  return value;
};
const toolText = (messages: readonly Message[]) =>
  messageText(messages.find((message) => message.role === 'tool') as Message);

describe('snapshotArguments', () => {
  it('copies plain JSON as JSON.stringify would (toJSON, undefined) and shares nothing with the input', () => {
    const input = { a: [1, undefined, 'x'], b: undefined, when: new Date(0), nested: { n: null } };
    const snapshot = snapshotArguments(input);
    expect(snapshot).toEqual({ ok: true, value: JSON.parse(JSON.stringify(input)) });
    if (snapshot.ok) expect((snapshot.value as { nested: unknown }).nested).not.toBe(input.nested);
    expect(snapshotArguments('{"raw":1}')).toEqual({ ok: true, value: '{"raw":1}' });
    const proto = JSON.parse('{"__proto__":{"x":1}}');
    const copied = snapshotArguments(proto);
    expect(copied.ok && Object.keys(copied.value as object)).toEqual(['__proto__']);
  });

  const refused: [string, () => unknown, string][] = [
    ['a BigInt', () => ({ a: 10n }), 'json'],
    [
      'a throwing getter',
      () => ({
        get a() {
          throw new RangeError('boom');
        },
      }),
      'json',
    ],
    [
      'a throwing proxy',
      () =>
        new Proxy(
          {},
          {
            ownKeys: () => {
              throw new TypeError('trap');
            },
          },
        ),
      'json',
    ],
    ['a function', () => ({ a: () => 1 }), 'json'],
    ['NaN', () => ({ a: Number.NaN }), 'json'],
    ['a deep toJSON', () => ({ a: { toJSON: () => deep(100_000) } }), 'maxDepth'],
    ['100k-deep nesting', () => deep(100_000), 'maxDepth'],
    ['a cycle', cyclic, 'maxDepth'],
  ];
  it.each(refused)('refuses %s without throwing', (_label, make, keyword) => {
    const snapshot = snapshotArguments(make());
    expect(snapshot).toMatchObject({ ok: false, keyword });
  });

  it('measures depth exactly for trees and for shared objects reached again deeper', () => {
    expect(snapshotArguments(deep(5), 5).ok).toBe(true);
    expect(snapshotArguments(deep(6), 5)).toMatchObject({ ok: false, keyword: 'maxDepth' });
    // `shared` is copied first at depth 2 (4 deep at its leaf), then reached again under `b` at depth 3.
    const shared = deep(3);
    expect(snapshotArguments({ a: shared, b: { c: shared } }, 4)).toMatchObject({ ok: false, keyword: 'maxDepth' });
    expect(snapshotArguments({ a: shared, b: { c: shared } }, 5).ok).toBe(true);
  });

  it('keeps keys named like Object.prototype members as own data properties, never calling an inherited setter', () => {
    const input = JSON.parse('{"toString":1,"constructor":{"x":2},"hasOwnProperty":"s","__proto__":null}');
    const snapshot = snapshotArguments(input);
    expect(snapshot.ok).toBe(true);
    const copy = (snapshot.ok ? snapshot.value : {}) as Record<string, unknown>;
    expect(Object.keys(copy)).toEqual(['toString', 'constructor', 'hasOwnProperty', '__proto__']);
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')).toMatchObject({ value: null, enumerable: true });
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy.constructor).toEqual({ x: 2 });
  });

  it('copies a shared object once (a wide DAG does not blow up)', () => {
    let value: unknown = { leaf: 1 };
    for (let level = 0; level < 40; level += 1) value = { left: value, right: value };
    expect(snapshotArguments(value).ok).toBe(true);
  });
});

describe('non-JSON arguments through invoke and nested calls, with a ledger', () => {
  const ran: string[] = [];
  const inner = defineTool({
    name: 'inner',
    description: '',
    parameters: Type.Object({ a: Type.Any() }),
    policy: ToolPolicy.classified().withSideEffects({ externalService: true }),
    execute: () => {
      ran.push('inner');
      return 'inner ran';
    },
  });
  const runnerWith = (args: () => unknown) =>
    defineTool({
      name: 'runner',
      description: '',
      parameters: Type.Object({}),
      nestedTools: [inner],
      execute: async (_args, context) => {
        try {
          const result = await context.callTool?.('inner', args() as Record<string, unknown>);
          return (result as ToolResult).output();
        } catch (error) {
          return `refused: ${ToolInputError.isInstance(error) ? 'ToolInputError' : String(error)}`;
        }
      },
    });

  it.each(refused())('a model call with %s is answered as invalid, nothing raw escapes', async (_label, make) => {
    ran.length = 0;
    const checkpoints = new InMemoryCheckpointStore();
    const harness = new AgentHarness({
      model: new ScriptedModel({
        steps: [
          {
            toolCalls: [{ id: 'c1', name: 'inner', arguments: make() as Record<string, unknown>, rawArguments: '{}' }],
          },
          { content: 'done' },
        ],
      }),
      tools: [inner],
      ledger: new InMemoryToolEffectLedger(),
    });
    const run = await harness.invoke({ runId: 'r' }, [{ role: 'user', content: 'go' }], {
      onCheckpoint: (state) => checkpoints.save(state),
    });
    expect(run.outcome).toBe('final');
    expect(toolText(run.messages)).toMatch(/invalid arguments for tool `inner`/);
    expect(ran).toEqual([]);
  });

  it.each(refused())('a nested call with %s is refused with ToolInputError', async (_label, make) => {
    ran.length = 0;
    const harness = new AgentHarness({
      model: new ScriptedModel({
        steps: [{ toolCalls: [{ id: 'c1', name: 'runner', arguments: {} }] }, { content: 'done' }],
      }),
      tools: [runnerWith(make)],
      ledger: new InMemoryToolEffectLedger(),
    });
    const run = await harness.invoke({ runId: 'r' }, [{ role: 'user', content: 'go' }]);
    expect(toolText(run.messages)).toBe('refused: ToolInputError');
    expect(ran).toEqual([]);
  });
});

function refused(): [string, () => unknown][] {
  return [
    ['a BigInt', () => ({ a: 10n })],
    [
      'a throwing getter',
      () => ({
        get a() {
          throw new RangeError('boom');
        },
      }),
    ],
    ['a deep toJSON', () => ({ a: { toJSON: () => deep(100_000) } })],
    ['100k-deep nesting', () => ({ a: deep(100_000) })],
    ['5k-deep nesting', () => ({ a: deep(5_000) })],
    ['a cycle', () => ({ a: cyclic() })],
  ];
}
