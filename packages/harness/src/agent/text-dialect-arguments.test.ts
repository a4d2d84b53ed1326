import { type Message, messageText } from '@tiny/llm';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { eventsOfType, ScriptedModel } from '../testkit/index.js';
import { AgentHarness } from './agent-harness.js';

// HARDEN item 1: a text-dialect call whose stated arguments are not an object reaches admission
// as an invalid call (raw text kept), exactly like a native call with bad JSON; it never runs with {}.
// The raw text appears in `invalid_tool_args` events only with `captureToolIo` (redaction by default).

const dialects = ['xml', 'pformat', 'python', 'typescript'] as const;

function world() {
  const executed: unknown[] = [];
  const opt = defineTool({
    name: 'opt',
    description: 'Writes a note somewhere.',
    parameters: Type.Object({ note: Type.Optional(Type.String()) }),
    policy: ToolPolicy.classified().withSideEffects({ writesFiles: true }),
    execute: (args) => {
      executed.push(args);
      return 'written';
    },
  });
  return { executed, tools: [opt] };
}

async function run(dialect: (typeof dialects)[number], content: string) {
  const { executed, tools } = world();
  const model = new ScriptedModel({ steps: [{ content }, { content: 'done' }] });
  const result = await new AgentHarness({ model, tools, policy: { toolDialect: dialect, captureToolIo: true } }).invoke(
    {},
    [{ role: 'user', content: 'go' }],
  );
  const assistant = result.messages.find((message) => message.role === 'assistant');
  const calls = assistant?.role === 'assistant' ? (assistant.toolCalls ?? []) : [];
  const answers = result.messages.filter((message) => message.role === 'tool');
  return { executed, result, calls, answers };
}

const badValues: ReadonlyArray<readonly [string, string]> = [
  ['"arguments":"{\\"note\\": }"', '{"note": }'],
  ['"arguments":5', '5'],
  ['"arguments":[]', '[]'],
  ['"arguments":true', 'true'],
  ['"arguments":null', 'null'],
  ['"arguments":"oops"', 'oops'],
  ['"parameters":"rm -rf"', 'rm -rf'],
  ['"arguments":[{"note":"a"}]', '[{"note":"a"}]'],
];

describe.each(dialects)('text dialect %s: stated arguments that are not an object', (dialect) => {
  it.each(badValues)(
    'never runs `opt` with {} for %s; answers the same call id with a tool error',
    async (stated, raw) => {
      const { executed, result, calls, answers } = await run(
        dialect,
        `Writing it.\n<tool_call>{"name":"opt",${stated}}</tool_call>`,
      );
      expect(executed).toEqual([]);
      expect(calls).toHaveLength(1);
      expect(calls[0]?.arguments).toBe(raw);
      expect(answers).toHaveLength(1);
      expect(answers[0]).toMatchObject({ toolCallId: calls[0]?.id, isError: true });
      expect(messageText(answers[0] as Message)).toContain('could not parse the arguments of tool `opt`');
      const [event] = eventsOfType(result.events, 'invalid_tool_args');
      expect(event).toMatchObject({ callId: calls[0]?.id, toolName: 'opt', arguments: raw, recovery: 'tool_error' });
    },
  );

  it('repairs invalid argument text the relaxed ladder can read, before validation', async () => {
    const { executed, result } = await run(
      dialect,
      '<|channel|>commentary to=functions.opt<|message|>{"note": "hi"} and then some<|call|>',
    );
    expect(executed).toEqual([{ note: 'hi' }]);
    expect(eventsOfType(result.events, 'invalid_tool_args')).toEqual([]);
  });

  it('sends invalid argument text through the harness repair, with the same call id', async () => {
    const raw = '{"note":"hi"}{"note":"hi"}';
    const { executed, result, calls } = await run(
      dialect,
      `<tool_call>${JSON.stringify({ name: 'opt', arguments: raw })}</tool_call>`,
    );
    expect(executed).toEqual([{ note: 'hi' }]);
    expect(eventsOfType(result.events, 'invalid_tool_args')).toEqual([
      expect.objectContaining({ callId: calls[0]?.id, arguments: raw, recovery: 'repaired' }),
    ]);
  });

  it('runs `opt` with {} only when the call states no arguments', async () => {
    const { executed } = await run(dialect, '<tool_call>{"name":"opt"}</tool_call>');
    expect(executed).toEqual([{}]);
  });
});

describe('calls that state no arguments in the code and P-Format dialects', () => {
  it('reads opt() and opt[] as {}', async () => {
    expect((await run('python', '<tool_call>opt()</tool_call>')).executed).toEqual([{}]);
    expect((await run('typescript', '<tool_call>opt()</tool_call>')).executed).toEqual([{}]);
    expect((await run('pformat', '<tool_call>opt[]</tool_call>')).executed).toEqual([{}]);
  });

  it('never runs a code call whose arguments cannot be read', async () => {
    const { executed } = await run('python', '<tool_call>opt(note=)</tool_call>');
    expect(executed).toEqual([]);
  });
});
