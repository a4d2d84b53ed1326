import { type LanguageModelV1Request, type Message, messageText } from '@tiny/llm';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { InvalidRunStateError } from '../errors/invalid-run-state-error.js';
import { ToolRegistry } from '../registry/tool-registry.js';
import { eventsOfType, ScriptedModel } from '../testkit/index.js';
import { DeferredToolResults } from './deferred-tool-results.js';
import { parseRunState, RUN_STATE_VERSION, type RunState, serializeRunState } from './run-state.js';

// How a call was written (FORMATS: `AssistantToolCall.grammar`, and whether its block was cut off)
// must survive a pause and a crash: the replay after a resume writes the call in the syntax the
// model used, a retry asks for that syntax, and a cut-off call is never repaired into a runnable
// one (issue: a checkpointed `>>>run\n{"cmd":"rm -rf /tmp/build"` ran `rm -rf /tmp/build` on resume).

function searchRegistry(grammarFormat: 'ptype' | 'xml') {
  const search = defineTool({
    name: 'search',
    description: 'Search documents.',
    parameters: Type.Object({ query: Type.String() }),
    policy: ToolPolicy.classified().requiringApproval(),
    execute: ({ query }) => `found ${query}`,
  });
  const format =
    grammarFormat === 'ptype' ? { type: 'ptype' as const, parameters: ['query'] } : { type: 'xml' as const };
  return new ToolRegistry().register(search, { format });
}

function runTool(ran: unknown[]) {
  return defineTool({
    name: 'run',
    description: 'Runs a command.',
    parameters: Type.Object({ cmd: Type.Optional(Type.String()) }),
    policy: ToolPolicy.readOnly(),
    execute: (args) => {
      ran.push(args);
      return 'ok';
    },
  });
}

/** Runs until the first checkpoint is stored, then "crashes" (the listener throws after saving). */
async function crashAfterCheckpoint(harness: AgentHarness): Promise<RunState> {
  const store = new InMemoryCheckpointStore();
  await expect(
    harness.invoke({ runId: 'r' }, [{ role: 'user', content: 'go' }], {
      onCheckpoint: async (state) => {
        await store.save(state);
        throw new Error('crash');
      },
    }),
  ).rejects.toThrow(/crash/);
  return parseRunState(JSON.parse(serializeRunState((await store.load('r')) as RunState)));
}

describe('a text call keeps how it was written across a pause', () => {
  it.each([
    ['ptype', 'search("secret plans")', 'search("secret plans")'],
    ['xml', '<search><query>secret plans</query></search>', '<search><query>secret plans</query></search>'],
  ] as const)(
    'a %s call: pause, serialize, resume, and the next request replays it in that syntax',
    async (format, written, replayed) => {
      const seen: LanguageModelV1Request[] = [];
      const model = new ScriptedModel({
        steps: [
          { content: written },
          (request) => {
            seen.push(request);
            return { content: 'done' };
          },
        ],
      });
      const harness = new AgentHarness({ model, tools: searchRegistry(format) });
      const paused = await harness.invoke({}, [{ role: 'user', content: 'go' }]);
      expect(paused.outcome).toBe('deferred');
      const text = serializeRunState(paused.state as RunState);
      const grammar = format === 'ptype' ? 'ptype' : 'xml_element';
      const restored = parseRunState(JSON.parse(text));
      expect((restored.messages.at(-1) as { toolCalls?: { grammar?: string }[] }).toolCalls?.[0]?.grammar).toBe(
        grammar,
      );

      const run = await new AgentHarness({ model, tools: searchRegistry(format) }).resumeDeferred(
        {},
        restored,
        new DeferredToolResults().approveAll(paused.deferred!),
      );
      expect(run.text).toBe('done');
      const assistant = seen[0]?.messages.find((message) => message.role === 'assistant') as Message;
      expect(messageText(assistant)).toContain(replayed);
      // Replayed as text in the model's syntax, never as a native tool call.
      expect((assistant as { toolCalls?: unknown[] }).toolCalls ?? []).toEqual([]);
      // The resumed run knows how the call was written.
      expect(eventsOfType(run.events, 'tool_started').map((event) => [event.format, event.grammar])).toEqual([
        [format, grammar],
      ]);
    },
  );

  it('a call cut off before its block closed, checkpointed, then a crash: the resume never repairs or runs it', async () => {
    const ran: unknown[] = [];
    const model = new ScriptedModel({ steps: [{ content: '>>>run\n{"cmd":"rm -rf /tmp/build"' }] });
    const saved = await crashAfterCheckpoint(
      new AgentHarness({ model, tools: [runTool(ran)], policy: { toolDialect: 'tagged_json' } }),
    );
    expect(saved.version).toBe(3);
    const callId = (saved.messages.at(-1) as unknown as { toolCalls: { id: string }[] }).toolCalls[0]?.id as string;
    expect(saved.cutOffCalls).toEqual([callId]);

    const run = await new AgentHarness({
      model: new ScriptedModel({ steps: [{ content: 'done' }] }),
      tools: [runTool(ran)],
      policy: { toolDialect: 'tagged_json' },
    }).resume({}, saved);
    expect(ran).toEqual([]);
    expect(eventsOfType(run.events, 'invalid_tool_args').map((event) => event.recovery)).toEqual(['tool_error']);
    expect(eventsOfType(run.events, 'tool_completed')[0]?.error).toMatch(/cut off before it closed/);
    expect(run.text).toBe('done');
  });

  it('a whole text call checkpointed runs on resume, and the state stays version 1', async () => {
    const ran: unknown[] = [];
    const model = new ScriptedModel({ steps: [{ content: '>>>run\n{"cmd":"ls"}\n' }] });
    const saved = await crashAfterCheckpoint(
      new AgentHarness({ model, tools: [runTool(ran)], policy: { toolDialect: 'tagged_json' } }),
    );
    expect(saved.version).toBe(1);
    expect(saved.cutOffCalls).toBeUndefined();
    await new AgentHarness({
      model: new ScriptedModel({ steps: [{ content: 'done' }] }),
      tools: [runTool(ran)],
      policy: { toolDialect: 'tagged_json' },
    }).resume({}, saved);
    expect(ran).toEqual([{ cmd: 'ls' }]);
  });

  it('refuses cutOffCalls below version 3, naming a call that is not open, and an empty grammar', () => {
    const messages = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', name: 'run', arguments: '{', grammar: 'tagged_json' }],
      },
    ];
    const base = { runId: 'r', messages, budgets: { modelCalls: 1, toolCalls: 0 }, usage: {} };
    expect(parseRunState({ ...base, version: 3, cutOffCalls: ['c1'] }).cutOffCalls).toEqual(['c1']);
    for (const version of [1, 2])
      expect(() => parseRunState({ ...base, version, cutOffCalls: ['c1'] })).toThrow(/needs schema version 3/);
    expect(() => parseRunState({ ...base, version: 3, cutOffCalls: ['c9'] })).toThrow(InvalidRunStateError);
    expect(() => parseRunState({ ...base, version: RUN_STATE_VERSION + 1 })).toThrow(
      new RegExp(`reads versions 1 to ${RUN_STATE_VERSION}`),
    );
    const blank = [
      messages[0],
      { ...messages[1], toolCalls: [{ id: 'c1', name: 'run', arguments: '{}', grammar: '' }] },
    ];
    expect(() => parseRunState({ ...base, version: 1, messages: blank })).toThrow(InvalidRunStateError);
  });
});
