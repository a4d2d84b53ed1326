import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { eventsOfType, ScriptedModel } from '../testkit/index.js';

// A call whose block the text ended inside may be missing anything after the cut (a closing quote,
// a flag, a second argument): it is answered with an error, never repaired into a runnable call.
describe('a text call cut off before its block closed', () => {
  it.each([
    ['Functionary, cut inside a string', '>>>run\n{"cmd":"rm -rf /tmp/build'],
    ['Functionary, cut after a value', '>>>run\n{"cmd":"rm -rf /tmp/build"'],
    ['Mistral, cut after a value', '[TOOL_CALLS]run[ARGS]{"cmd":"rm -rf /tmp/build"'],
  ])('never runs: %s', async (_, text) => {
    const ran: unknown[] = [];
    const run = defineTool({
      name: 'run',
      description: 'Runs a command.',
      parameters: Type.Object({ cmd: Type.Optional(Type.String()) }),
      policy: ToolPolicy.readOnly(),
      execute: (args) => {
        ran.push(args);
        return 'ok';
      },
    });
    const model = new ScriptedModel({ steps: [{ content: text }, { content: 'done' }] });
    const result = await new AgentHarness({ model, tools: [run], policy: { toolDialect: 'tagged_json' } }).invoke(
      {},
      'go',
    );
    expect(ran).toEqual([]);
    expect(result.text).toBe('done');
    const invalid = eventsOfType(result.events, 'invalid_tool_args');
    expect(invalid.map((event) => event.recovery)).toEqual(['tool_error']);
  });

  it('leaves a Hermes block cut inside its arguments as text, and runs nothing', async () => {
    const ran: unknown[] = [];
    const run = defineTool({
      name: 'run',
      description: 'Runs a command.',
      parameters: Type.Object({ cmd: Type.Optional(Type.String()) }),
      policy: ToolPolicy.readOnly(),
      execute: (args) => {
        ran.push(args);
        return 'ok';
      },
    });
    const text = '<tool_call>{"name":"run","arguments":{"cmd":"rm -rf /tmp/build"';
    const model = new ScriptedModel({ steps: [{ content: text }, { content: 'done' }] });
    await new AgentHarness({ model, tools: [run], policy: { toolDialect: 'tagged_json' } }).invoke({}, 'go');
    expect(ran).toEqual([]);
  });
});
