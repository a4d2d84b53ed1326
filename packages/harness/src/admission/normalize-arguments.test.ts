import { defineTool } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { eventsOfType, ScriptedModel, scriptedToolCall } from '../testkit/index.js';
import { normalizeArguments } from './normalize-arguments.js';

const schema = { type: 'object', properties: { note: { type: 'string' } } } as const;

function optTool(executed: unknown[]) {
  return defineTool({
    name: 'opt',
    description: 'Optional note.',
    parameters: schema,
    execute: (args) => {
      executed.push(args);
      return 'ran';
    },
  });
}

describe('normalizeArguments never manufactures {}', () => {
  it.each([
    ['an array holding an object', [{ note: 'a' }]],
    ['a word', 'oops'],
    ['broken JSON', '{bad'],
    ['a number', 5],
    ['null', null],
    ['true', true],
    ['an empty array', []],
    ['a JSON array string', '[{"note":"a"}]'],
    ['a JSON number string', '5'],
  ])('leaves %s alone', (_name, value) => {
    expect(normalizeArguments(value, schema)).toBeUndefined();
  });

  it('decodes an object string, a fenced or double-encoded one, and unwraps one envelope', () => {
    expect(normalizeArguments('{"note":"a"}', schema)).toEqual({ note: 'a' });
    expect(normalizeArguments('```json\n{"note":"b"}\n```', schema)).toEqual({ note: 'b' });
    expect(normalizeArguments(JSON.stringify('{"note":"c"}'), schema)).toEqual({ note: 'c' });
    expect(normalizeArguments({ arguments: { note: 'd' } }, schema)).toEqual({ note: 'd' });
  });

  it('reads absent arguments (undefined, a blank string) as {}', () => {
    expect(normalizeArguments(undefined, schema)).toEqual({});
    expect(normalizeArguments('  ', schema)).toEqual({});
  });

  it.each([[[{ note: 'a' }]], ['oops'], ['{bad'], [5], [null]])(
    'a native call with %j never runs the tool; the model gets a repairable error with the same id',
    async (value) => {
      const executed: unknown[] = [];
      const model = new ScriptedModel({
        steps: [{ toolCalls: [scriptedToolCall('opt', value, 'c1')] }, { content: 'done' }],
      });
      const harness = new AgentHarness({
        model,
        tools: [optTool(executed)],
        policy: { invalidArgs: 'normalize_then_return_tool_error' },
      });
      const run = await harness.invoke({}, [{ role: 'user', content: 'go' }]);
      expect(executed).toEqual([]);
      const answer = run.messages.find((message) => message.role === 'tool');
      expect(answer).toMatchObject({ toolCallId: 'c1', isError: true });
      expect(eventsOfType(run.events, 'invalid_tool_args').map((event) => event.recovery)).toEqual(['tool_error']);
      expect(run.outcome).toBe('final');
    },
  );
});
