import { CALL_ENVELOPE_SCHEMA_NAME, type LanguageModelV1Request, type Message } from '@tiny/llm';
import { createValidator, defineTool, type JsonSchema } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { eventsOfType, ScriptedModel } from '../testkit/index.js';
import { AgentHarness } from './agent-harness.js';

// Issue #32, item 4: a prompt-guided model on a server with constrained decoding is handed the
// JSON Schema of a valid reply, and the reply is read back through the same admission.

function world() {
  const ran: string[] = [];
  const weather = defineTool({
    name: 'weather',
    description: 'Weather for a city.',
    parameters: Type.Object({ city: Type.String(), account: Type.String() }, { additionalProperties: false }),
    injected: [{ name: 'account', source: 'host' }],
    // A forced choice holds on every model call, so the forced runs below end through this tool.
    returnDirect: true,
    execute: ({ city, account }) => {
      ran.push(`weather:${city}:${account}`);
      return `${city}: sunny`;
    },
  });
  return { ran, tools: [weather] };
}

const ask: Message[] = [{ role: 'user', content: 'Weather in Oslo?' }];
const promptGuided = { toolCalling: false, structuredOutput: 'json_schema' as const };
const envelopeOf = (request: LanguageModelV1Request | undefined) => {
  const format = request?.responseFormat;
  return format?.type === 'json_schema' ? format : undefined;
};

describe('constrained prompt-guided calls', () => {
  it('a forced choice carries the envelope schema by default; a call in the envelope runs through admission', async () => {
    const { ran, tools } = world();
    const model = new ScriptedModel({
      profile: promptGuided,
      steps: [{ content: '{"name":"weather","arguments":{"city":"Oslo"}}' }, { content: 'sunny' }],
    });
    const run = await new AgentHarness({ model, tools }).invoke({ hostValues: { account: 'acct-9' } }, ask, {
      toolChoice: { type: 'required' },
    });
    const format = envelopeOf(model.requests[0]);
    expect(format?.name).toBe(CALL_ENVELOPE_SCHEMA_NAME);
    const schema = format?.schema as JsonSchema;
    // Only a call fits: no plain-answer branch under `required`, and the injected field is not there.
    expect(createValidator(schema).validate({ answer: 'prose' }).ok).toBe(false);
    expect(createValidator(schema).validate({ name: 'weather', arguments: { city: 'Oslo' } }).ok).toBe(true);
    expect(JSON.stringify(model.requests[0])).not.toContain('account');
    expect(JSON.stringify(model.requests[0]?.messages)).toContain('exactly one JSON object');
    expect(ran).toEqual(['weather:Oslo:acct-9']);
    expect(eventsOfType(run.events, 'tool_started')[0]?.grammar).toBe('bare_json');
  });

  it('an envelope naming an unknown tool or with bad arguments never runs anything', async () => {
    for (const content of [
      '{"name":"delete_all","arguments":{}}',
      '{"name":"weather","arguments":{"city":5}}',
      '{"name":"weather","arguments":"Oslo"}',
    ]) {
      const { ran, tools } = world();
      const model = new ScriptedModel({
        profile: { ...promptGuided, constrainedCalls: true },
        steps: [{ content }, { content: '{"answer":"sorry"}' }],
      });
      const run = await new AgentHarness({ model, tools }).invoke({ hostValues: { account: 'a' } }, ask);
      expect(ran, content).toEqual([]);
      expect(run.text).toBe('sorry');
      expect(JSON.stringify(run.messages)).toMatch(/unknown tool|Invalid|not a JSON object|must be/i);
    }
  });

  it('auto with constrainedCalls: true has the plain-answer branch, read back as the answer text', async () => {
    const { tools } = world();
    const model = new ScriptedModel({
      profile: { ...promptGuided, constrainedCalls: true },
      steps: [{ content: '{"answer":"It is sunny."}' }],
    });
    const run = await new AgentHarness({ model, tools }).invoke({}, ask);
    expect(createValidator(envelopeOf(model.requests[0])?.schema as JsonSchema).validate({ answer: 'x' }).ok).toBe(
      true,
    );
    expect([run.outcome, run.text]).toEqual(['final', 'It is sunny.']);
  });

  it('is off for auto by default, with constrainedCalls: false, under none, and when the caller set a response format', async () => {
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [promptGuided, {}],
      [{ ...promptGuided, constrainedCalls: false }, { toolChoice: { type: 'required' } }],
      [{ ...promptGuided, constrainedCalls: true }, { toolChoice: { type: 'none' } }],
      [{ toolCalling: false, structuredOutput: 'none' }, { toolChoice: { type: 'required' } }],
      [{ ...promptGuided, constrainedCalls: true }, { modelSettings: { responseFormat: { type: 'json' } } }],
    ];
    for (const [profile, options] of cases) {
      const { tools } = world();
      const model = new ScriptedModel({ profile, steps: [{ content: 'sunny' }, { content: 'sunny' }] });
      await new AgentHarness({ model, tools, policy: { toolChoiceIgnored: 'accept' } }).invoke({}, ask, options);
      expect(envelopeOf(model.requests[0])?.name, JSON.stringify([profile, options])).not.toBe(
        CALL_ENVELOPE_SCHEMA_NAME,
      );
    }
  });

  it('a server that ignores the schema: its text is read as without constraints, and the forced choice still holds', async () => {
    const { ran, tools } = world();
    const model = new ScriptedModel({
      profile: promptGuided,
      steps: [
        { content: 'It is sunny in Oslo.' },
        { content: '<tool_call>{"name":"weather","arguments":{"city":"Oslo"}}</tool_call>' },
        { content: 'done' },
      ],
    });
    const run = await new AgentHarness({ model, tools }).invoke({ hostValues: { account: 'a' } }, ask, {
      toolChoice: { type: 'tool', toolName: 'weather' },
    });
    expect(eventsOfType(run.events, 'tool_choice_ignored').map((event) => event.action)).toEqual(['retry']);
    expect(ran).toEqual(['weather:Oslo:a']);
    expect(envelopeOf(model.requests[1])?.name).toBe(CALL_ENVELOPE_SCHEMA_NAME);
  });
});
