import { defineTool, ToolPolicy } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { ToolExecutionError } from '../errors/tool-execution-error.js';
import type { AgentEvent } from '../events/agent-event.js';
import { ScriptedModel, scriptedToolCall, toolEventViolations } from '../testkit/index.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const parameters = { type: 'object', properties: { i: { type: 'number' } } } as const;

/** A tool of the batch: concurrency-safe, read-only, running `execute`. */
const tool = (name: string, execute: () => unknown, extra: Record<string, unknown> = {}) =>
  defineTool({
    name,
    description: name,
    parameters,
    policy: ToolPolicy.readOnly(),
    isConcurrencySafe: () => true,
    execute: execute as never,
    ...extra,
  });

/** Values a tool may throw or reject with that break a naive `String()`, `.message` or property read. */
const hostile: Record<string, () => unknown> = {
  'a proxy whose get trap throws': () =>
    new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
      },
    ),
  'a revoked proxy': () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  },
  'a null-prototype object': () => Object.create(null),
  'an object whose toString throws': () => ({
    toString() {
      throw new Error('toString');
    },
  }),
  'an Error whose message getter throws': () => {
    const error = new Error('x');
    Object.defineProperty(error, 'message', {
      get() {
        throw new Error('getter');
      },
    });
    return error;
  },
};

async function runBatch(execute: () => unknown, toolErrors: 'fail' | 'return_error', maxConcurrency: number) {
  const events: AgentEvent[] = [];
  const model = new ScriptedModel({
    steps: [
      { toolCalls: [scriptedToolCall('bad', { i: 1 }, 'c1'), scriptedToolCall('slow', { i: 2 }, 'c2')] },
      { content: 'done' },
    ],
  });
  const harness = new AgentHarness({
    model,
    tools: [
      tool('bad', execute),
      tool('slow', async () => {
        await sleep(5);
        return 'slow';
      }),
    ],
    policy: { toolErrors: { kind: toolErrors }, maxConcurrency },
  });
  const settled = await harness
    .invoke([{ role: 'user', content: 'go' }], { onEvent: (event) => events.push(event) })
    .then(
      (run) => ({ run, error: undefined }),
      (error: unknown) => ({ run: undefined, error }),
    );
  return { ...settled, events };
}

describe('a tool that throws or rejects with a value that cannot be read', () => {
  for (const [label, make] of Object.entries(hostile)) {
    for (const shape of ['throws', 'rejects'] as const) {
      const execute =
        shape === 'throws'
          ? () => {
              throw make();
            }
          : () => Promise.reject(make());
      it(`${shape} ${label}: with toolErrors fail, the run fails with ToolExecutionError and every call has one outcome`, async () => {
        for (const maxConcurrency of [1, 4]) {
          const { error, events } = await runBatch(execute, 'fail', maxConcurrency);
          expect(ToolExecutionError.isInstance(error)).toBe(true);
          expect(toolEventViolations(events)).toEqual([]);
        }
      });
      it(`${shape} ${label}: with return_error, the model reads a tool error and the run completes`, async () => {
        const { run, events } = await runBatch(execute, 'return_error', 4);
        expect(run?.outcome).toBe('final');
        expect(toolEventViolations(events)).toEqual([]);
      });
    }
  }
});

describe("a tool's isConcurrencySafe that throws", () => {
  it('runs the batch one call at a time and reports nothing of what it threw (it saw host values)', async () => {
    const key = 'hostKEY-7f3a9b1c2d';
    const events: AgentEvent[] = [];
    let running = 0;
    let most = 0;
    const execute = async () => {
      running += 1;
      most = Math.max(most, running);
      await sleep(2);
      running -= 1;
      return 'ok';
    };
    const leaky = defineTool({
      name: 'leaky',
      description: 'leaky',
      parameters: { type: 'object', properties: { apiKey: { type: 'string' } }, required: ['apiKey'] },
      injected: [{ name: 'apiKey', source: 'host' }],
      isConcurrencySafe: (args: { apiKey: string }) => {
        throw new Error(`saw ${args.apiKey}`);
      },
      execute,
    });
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('other', {}, 'c1'), scriptedToolCall('leaky', {}, 'c2')] },
        { content: 'done' },
      ],
    });
    const run = await new AgentHarness({ model, tools: [tool('other', execute), leaky] }).invoke(
      { hostValues: { apiKey: key } },
      [{ role: 'user', content: 'go' }],
      { onEvent: (event) => events.push(event) },
    );
    expect(run.outcome).toBe('final');
    expect(most).toBe(1);
    expect(JSON.stringify(events)).not.toContain(key);
    expect(toolEventViolations(events)).toEqual([]);
  });
});

describe('a concurrent batch in which one call fails the run', () => {
  it('starts no call after the failure, and reports the ones held back as discarded', async () => {
    const started: string[] = [];
    const events: AgentEvent[] = [];
    const fails = tool('fails', async () => {
      started.push('fails');
      throw new Error('boom');
    });
    const slow = (name: string) =>
      tool(name, async () => {
        started.push(name);
        await sleep(10);
        return name;
      });
    const model = new ScriptedModel({
      steps: [
        {
          toolCalls: [
            scriptedToolCall('fails', {}, 'c1'),
            scriptedToolCall('a', {}, 'c2'),
            scriptedToolCall('b', {}, 'c3'),
            scriptedToolCall('c', {}, 'c4'),
          ],
        },
        { content: 'done' },
      ],
    });
    const harness = new AgentHarness({
      model,
      tools: [fails, slow('a'), slow('b'), slow('c')],
      policy: { maxConcurrency: 2 },
    });
    await expect(
      harness.invoke([{ role: 'user', content: 'go' }], { onEvent: (event) => events.push(event) }),
    ).rejects.toThrow(ToolExecutionError);
    expect(started).toEqual(['fails', 'a']);
    expect(toolEventViolations(events)).toEqual([]);
    const discarded = events.filter(
      (event) => event.type === 'tool_failed' && event.error === 'discarded: another call in the batch failed',
    );
    expect(discarded.map((event) => (event as { callId: string }).callId).sort()).toEqual(['c2', 'c3', 'c4']);
  });
});
