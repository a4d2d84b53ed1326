import { AgentHarness, ToolChoiceIgnoredError } from '@tiny/harness';
import { eventsOfType } from '@tiny/harness/testkit';
import { useReplayServer } from '@tiny/provider-tests';
import { createValidator, defineTool, type JsonSchema } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { llamacpp } from './presets/llamacpp.js';
import { lmstudio } from './presets/lmstudio.js';
import { ollama } from './presets/ollama.js';
import { vllm } from './presets/vllm.js';

// Issue #32, items 3 and 4, over 127.0.0.1 against replayed local servers: a forced tool choice
// the server ignores is enforced (never a silent prose answer, never a call under `none`), and a
// prompt-guided request carries the call envelope schema in each server's field. Each fixture
// names the sources of its shapes.

const replay = useReplayServer(new URL('./__fixtures__/forced-choice/', import.meta.url));

function world() {
  const ran: string[] = [];
  const weather = defineTool({
    name: 'weather',
    description: 'Weather for a city.',
    parameters: Type.Object({ city: Type.String() }, { additionalProperties: false }),
    // A forced choice holds on every model call: the run ends through this tool.
    returnDirect: true,
    execute: ({ city }) => {
      ran.push(`weather:${city}`);
      return `${city}: sunny`;
    },
  });
  const wipe = defineTool({
    name: 'wipe',
    description: 'Delete everything.',
    parameters: Type.Object({}),
    execute: () => {
      ran.push('wipe');
      return 'wiped';
    },
  });
  return { ran, tools: [weather, wipe] };
}

const ask = [{ role: 'user' as const, content: 'Weather in Oslo?' }];
type Body = Record<string, unknown> & { messages: { role: string; content: unknown }[] };
const bodies = () => replay.server().requests.map((request) => request.body as Body);
const lastMessage = (body: Body | undefined) => body?.messages.at(-1);

describe('a forced tool choice a local server ignores', () => {
  it('llama.cpp, required, prose twice: one retry that says so, then ToolChoiceIgnoredError', async () => {
    const { ran, tools } = world();
    const model = llamacpp({ baseURL: replay.load('llamacpp-required-prose.json') })('qwen2.5-7b');
    const error = await new AgentHarness({ model, tools })
      .invoke({}, ask, { toolChoice: { type: 'required' } })
      .catch((caught) => caught);
    expect(ToolChoiceIgnoredError.isInstance(error)).toBe(true);
    expect(error.attempts).toBe(2);
    const [first, second] = bodies();
    expect(first?.tool_choice).toBe('required');
    expect(second?.tool_choice).toBe('required');
    expect(lastMessage(first)).toEqual({ role: 'user', content: 'Weather in Oslo?' });
    expect(lastMessage(second)).toEqual({ role: 'user', content: expect.stringMatching(/tool choice `required`/) });
    expect(ran).toEqual([]);
  });

  it('Ollama, none, answered with a call: the call never runs, the retry answers in text', async () => {
    const { ran, tools } = world();
    const model = ollama({ baseURL: replay.load('ollama-none-calls.json') })('llama3.2:3b');
    const run = await new AgentHarness({ model, tools }).invoke({}, ask, { toolChoice: { type: 'none' } });
    expect([run.outcome, run.text]).toEqual(['final', 'Oslo is sunny today.']);
    expect(ran).toEqual([]);
    expect(eventsOfType(run.events, 'tool_choice_ignored')).toEqual([
      expect.objectContaining({ calledTools: ['wipe'], action: 'retry', attempt: 1 }),
    ]);
    // The second request replays no call that never ran.
    const second = bodies()[1];
    expect(JSON.stringify(second?.messages)).not.toContain('tool_calls');
    expect(lastMessage(second)).toEqual({ role: 'user', content: expect.stringMatching(/were not run/) });
  });

  it('LM Studio, a named tool answered in prose, then called after the retry: it runs once', async () => {
    const { ran, tools } = world();
    const model = lmstudio({ baseURL: replay.load('lmstudio-named-prose.json') })('qwen2.5-7b-instruct');
    const run = await new AgentHarness({ model, tools }).invoke({}, ask, {
      toolChoice: { type: 'tool', toolName: 'weather' },
    });
    expect([run.outcome, run.text]).toEqual(['return_direct', 'Oslo: sunny']);
    expect(ran).toEqual(['weather:Oslo']);
    // The preset's quirk: a named choice goes out as `required` with the tools narrowed to it.
    const first = bodies()[0] as Body & { tools: { function: { name: string } }[] };
    expect(first.tools.map((tool) => tool.function.name)).toEqual(['weather']);
  });
});

describe('constrained prompt-guided calls on each server', () => {
  const promptGuided = { profile: { toolCalling: false } };
  const cases = [
    ['llamacpp', () => llamacpp({ ...promptGuided, baseURL: replay.load('llamacpp-constrained.json') })('qwen2.5-7b')],
    ['ollama', () => ollama({ ...promptGuided, baseURL: replay.load('ollama-constrained.json') })('llama3.2:3b')],
    ['lmstudio', () => lmstudio({ ...promptGuided, baseURL: replay.load('lmstudio-constrained.json') })('qwen2.5-7b')],
    [
      'vllm',
      () =>
        vllm({ ...promptGuided, schemaField: 'structured_outputs', baseURL: replay.load('vllm-constrained.json') })(
          'Qwen/Qwen3-8B',
        ),
    ],
  ] as const;

  for (const [server, makeModel] of cases) {
    it(`${server}: the request carries the envelope schema in the server's field; the envelope answer runs the call`, async () => {
      const { ran, tools } = world();
      const run = await new AgentHarness({ model: makeModel(), tools }).invoke({}, ask, {
        toolChoice: { type: 'tool', toolName: 'weather' },
      });
      expect([run.outcome, ran]).toEqual(['return_direct', ['weather:Oslo']]);
      const body = bodies()[0] as Body & {
        response_format?: { json_schema: { name: string; schema: JsonSchema } };
        structured_outputs?: { json: JsonSchema };
      };
      expect(body.tools).toBeUndefined();
      const schema = server === 'vllm' ? body.structured_outputs?.json : body.response_format?.json_schema.schema;
      if (server !== 'vllm') expect(body.response_format?.json_schema.name).toBe('tool_call_envelope');
      const validator = createValidator(schema as JsonSchema);
      expect(validator.validate({ name: 'weather', arguments: { city: 'Oslo' } }).ok).toBe(true);
      // A named choice: no other tool and no prose fit.
      expect(validator.validate({ name: 'wipe', arguments: {} }).ok).toBe(false);
      expect(validator.validate({ answer: 'sunny' }).ok).toBe(false);
    });
  }
});
