import { type Message, messageText, nestsDeeperThan as nestsDeeper } from '@tiny/llm';
import { defineTool, ToolInputError, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { InMemoryToolEffectLedger } from '../ledger/in-memory-tool-effect-ledger.js';
import { eventsOfType, ScriptedModel } from '../testkit/index.js';
import { MAX_ARGUMENT_DEPTH } from './normalize-arguments.js';

const nestsDeeperThan = (value: unknown) => nestsDeeper(value, MAX_ARGUMENT_DEPTH);

/** `{ x: { a: { a: ... 1 } } }` with `depth` levels of objects, built without recursion. */
const nested = (depth: number): Record<string, unknown> => {
  let value: unknown = 1;
  for (let level = 1; level < depth; level += 1) value = { a: value };
  return { x: value };
};
const rawOf = (depth: number) => `{"x":${'{"a":'.repeat(depth - 2)}1${'}'.repeat(depth - 2)}}`;
const toolText = (messages: readonly Message[]) =>
  messageText(messages.find((message) => message.role === 'tool') as Message);

const tools = (executed: string[]) => [
  defineTool({
    name: 'send',
    description: '',
    parameters: Type.Object({ x: Type.Any() }),
    policy: ToolPolicy.classified().withSideEffects({ externalService: true }),
    execute: () => {
      executed.push('send');
      return 'sent';
    },
  }),
  defineTool({
    name: 'pay',
    description: '',
    parameters: Type.Object({ x: Type.Any() }),
    policy: ToolPolicy.classified().withSideEffects({ payment: true }).requiringApproval(),
    execute: () => {
      executed.push('pay');
      return 'paid';
    },
  }),
];

describe('argument depth', () => {
  it('measures depth without recursion, also for cyclic and shared values', () => {
    expect(nestsDeeperThan(nested(MAX_ARGUMENT_DEPTH))).toBe(false);
    expect(nestsDeeperThan(nested(MAX_ARGUMENT_DEPTH + 1))).toBe(true);
    expect(nestsDeeperThan(nested(1_000_000))).toBe(true);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(nestsDeeperThan(cyclic)).toBe(true);
    let shared: unknown[] = [];
    for (let level = 0; level < 60; level += 1) shared = [shared, shared];
    expect(nestsDeeperThan(shared)).toBe(false);
    expect(nestsDeeperThan('{"a":'.repeat(10_000))).toBe(false);
  });

  it.each([
    ['send', 3_000],
    ['pay', 3_000],
    ['send', 10_000],
    ['pay', 100_000],
  ])(
    'answers %s with arguments %i deep as invalid, with a ledger and captured I/O, and runs nothing',
    async (tool, depth) => {
      const executed: string[] = [];
      const ledger = new InMemoryToolEffectLedger();
      const model = new ScriptedModel({
        steps: [
          { toolCalls: [{ id: 'c1', name: tool, arguments: nested(depth), rawArguments: rawOf(depth) }] },
          { content: 'done' },
        ],
      });
      const run = await new AgentHarness({
        model,
        tools: tools(executed),
        ledger,
        policy: { captureToolIo: true },
      }).invoke({ runId: 'r1' }, [{ role: 'user', content: 'go' }]);
      expect(run.outcome).toBe('final');
      expect(toolText(run.messages)).toMatch(
        /invalid arguments for tool `\w+`: <root> must not nest .* 64 levels deep/,
      );
      expect(eventsOfType(run.events, 'invalid_tool_args')).toHaveLength(1);
      expect(executed).toEqual([]);
      expect(ledger.rows('r1')).toEqual([]);
    },
  );

  it('refuses deep arguments hidden in a JSON string the same way, and throws ToolInputError under invalidArgs: fail', async () => {
    const text = JSON.stringify(rawOf(5_000));
    const model = () =>
      new ScriptedModel({
        steps: [
          { toolCalls: [{ id: 'c1', name: 'send', arguments: JSON.parse(text), rawArguments: text }] },
          { content: 'done' },
        ],
      });
    const executed: string[] = [];
    const run = await new AgentHarness({ model: model(), tools: tools(executed) }).invoke({}, [
      { role: 'user', content: 'go' },
    ]);
    expect(toolText(run.messages)).toMatch(/invalid arguments for tool `send`/);
    const deep = new ScriptedModel({
      steps: [{ toolCalls: [{ id: 'c1', name: 'send', arguments: nested(500), rawArguments: rawOf(500) }] }],
    });
    const error = await new AgentHarness({ model: deep, tools: tools(executed), policy: { invalidArgs: 'fail' } })
      .invoke({}, [{ role: 'user', content: 'go' }])
      .catch((caught: unknown) => caught);
    expect(ToolInputError.isInstance(error)).toBe(true);
    expect(executed).toEqual([]);
  });
});
