import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import type { AgentEvent } from '../events/agent-event.js';
import { sensitive } from '../execution/redaction.js';
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

  // A started call owns everything to its end: the markup of a call cut off inside its arguments
  // (a sensitive value included) never reaches model_delta events or the run's final text, in any
  // prompt-guided dialect; the cut-off call is answered with an error.
  it.each([
    ['tagged_json', '<tool_call>{"name":"login","arguments":{"user":"ada","password":"hunter2-secret'],
    ['tagged_json', '<tool_call>{"name":"login","arguments":{"user":"ada","password":"hunter2-secret"'],
    ['pformat', '<tool_call>login[0|ada|1|hunter2-secret'],
    ['python', '<tool_call>login(user="ada", password="hunter2-secret'],
    ['typescript', '<tool_call>login({user: "ada", password: "hunter2-secret'],
  ] as const)('never shows a %s call cut off inside its arguments: %s', async (dialect, cut) => {
    for (const finishReason of ['length', 'stop'] as const) {
      const ran: unknown[] = [];
      const login = defineTool({
        name: 'login',
        description: 'Logs in.',
        parameters: Type.Object({ user: Type.String(), password: sensitive(Type.String()) }),
        policy: ToolPolicy.readOnly(),
        execute: (args) => {
          ran.push(args);
          return 'welcome';
        },
      });
      const model = new ScriptedModel({
        chunkSize: 5,
        steps: [{ content: `Logging in. ${cut}`, finishReason }, { content: 'done' }],
      });
      const harness = new AgentHarness({ model, tools: [login], policy: { toolDialect: dialect } });
      const stream = harness.stream('go');
      const events: AgentEvent[] = [];
      for await (const event of stream) events.push(event);
      const result = await stream.result;
      const shown = events.flatMap((event) => (event.type === 'model_delta' ? [event.delta] : [])).join('');
      expect(shown).toBe('Logging in.done');
      expect(result.text).toBe('done');
      expect(JSON.stringify(events)).not.toContain('hunter2');
      expect(ran).toEqual([]);
      const answered = events.filter(
        (event) => event.type === 'invalid_tool_args' || event.type === 'tool_call_refused',
      );
      expect(answered).toHaveLength(1);
    }
  });
});
