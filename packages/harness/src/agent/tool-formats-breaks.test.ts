import { type LanguageModelV1Request, type Message, messageText } from '@tiny/llm';
import { defineTool } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../registry/tool-registry.js';
import { eventsOfType, ScriptedModel, scriptedToolCall } from '../testkit/index.js';
import { AgentHarness } from './agent-harness.js';

// Regression tests for the breaker's findings on issue 31 (scripts in the FORMATS-fix brief):
// B1 calls written inside an unterminated own-format call ran; B2 a partial call reached
// model_delta; B3 replay rewrote a call into the tool's format instead of the syntax it was made in.

function world() {
  const executed: { name: string; args: unknown }[] = [];
  const record = (name: string) => (args: unknown) => {
    executed.push({ name, args });
    return `${name} ok`;
  };
  const weather = defineTool({
    name: 'weather',
    description: 'Weather for a city.',
    parameters: Type.Object({ city: Type.String(), days: Type.Optional(Type.Integer()) }),
    execute: record('weather'),
  });
  const search = defineTool({
    name: 'search',
    description: 'Search documents.',
    parameters: Type.Object({ query: Type.String(), limit: Type.Optional(Type.Integer()) }),
    execute: record('search'),
  });
  const send = defineTool({
    name: 'send_email',
    description: 'Send an email.',
    parameters: Type.Object({ to: Type.String(), body: Type.String(), apiKey: Type.String() }),
    injected: [{ name: 'apiKey', source: 'host' }],
    execute: record('send_email'),
  });
  const lookup = defineTool({
    name: 'lookup',
    description: 'Look a key up.',
    parameters: Type.Object({ key: Type.String() }),
    execute: record('lookup'),
  });
  const registry = new ToolRegistry()
    .register(lookup)
    .register(weather, { format: { type: 'xml' } })
    .register(search, { format: { type: 'ptype', parameters: ['query', 'limit'] } })
    .register(send, { format: { type: 'xml' } });
  return { executed, registry };
}

const context = { hostValues: { apiKey: 'SECRET-KEY' } };

describe('an own-format call that never closes (B1)', () => {
  for (const content of [
    '<weather><city><send_email><to>x</to><body>y</body></send_email></city>',
    'Checking. <weather><city>Paris</city></weathr> <lookup>',
    'search("a <weather><city>X</city></weather>',
  ]) {
    it(`is one repairable invalid call and nothing inside it runs: ${content.slice(0, 40)}`, async () => {
      const { executed, registry } = world();
      const model = new ScriptedModel({ steps: [{ content }, { content: 'done' }] });
      const run = await new AgentHarness({ model, tools: registry }).invoke(context, 'go');
      expect(executed).toEqual([]);
      const answers = run.messages.filter((message) => message.role === 'tool');
      expect(answers).toHaveLength(1);
      expect(answers[0]).toMatchObject({
        isError: true,
        toolName: content.startsWith('search') ? 'search' : 'weather',
      });
      expect(eventsOfType(run.events, 'invalid_tool_args')).toMatchObject([{ recovery: 'tool_error' }]);
      expect(run.text).toBe('done');
    });
  }
});

describe('a partial call at the end of a stream (B2)', () => {
  for (const chunkSize of [1, 3, 5]) {
    it(`never reaches model_delta and becomes the invalid call (chunks of ${chunkSize})`, async () => {
      const { executed, registry } = world();
      const model = new ScriptedModel({
        chunkSize,
        steps: [{ content: 'Let me see <weather><city>Par' }, { content: 'done' }],
      });
      const stream = new AgentHarness({ model, tools: registry }).stream(context, 'go');
      const deltas: string[] = [];
      for await (const event of stream) {
        if (event.type === 'model_delta' && event.modelCallId.endsWith('m0')) deltas.push(event.delta);
      }
      const run = await stream.result;
      expect(deltas.join('')).toBe('Let me see');
      expect(executed).toEqual([]);
      expect(run.messages.filter((message) => message.role === 'tool')).toMatchObject([
        { toolName: 'weather', isError: true },
      ]);
    });
  }
});

describe('replay in the syntax a call was made in (B3)', () => {
  const assistantAndAfter = (request: LanguageModelV1Request): readonly Message[] =>
    request.messages.slice(request.messages.findIndex((message) => message.role === 'assistant'));

  it('replays a tagged JSON call to an xml tool as tagged JSON', async () => {
    const { executed, registry } = world();
    const model = new ScriptedModel({
      steps: [{ content: '<tool_call>{"name":"weather","arguments":{"city":"TJ"}}</tool_call>' }, { content: 'done' }],
    });
    await new AgentHarness({ model, tools: registry }).invoke(context, 'go');
    expect(executed).toEqual([{ name: 'weather', args: { city: 'TJ' } }]);
    const [assistant, results] = assistantAndAfter(model.requests[1] as LanguageModelV1Request);
    expect(assistant).toEqual({
      role: 'assistant',
      content: '<tool_call>{"name":"weather","arguments":{"city":"TJ"}}</tool_call>',
    });
    expect(results?.role).toBe('user');
    expect(messageText(results as Message)).toContain('<tool_result name="weather" status="ok">');
  });

  it('replays a native call to an xml tool as a native tool call with a tool message', async () => {
    const { executed, registry } = world();
    const model = new ScriptedModel({
      steps: [{ content: '', toolCalls: [scriptedToolCall('weather', { city: 'NAT' }, 'n1')] }, { content: 'done' }],
    });
    await new AgentHarness({ model, tools: registry }).invoke(context, 'go');
    expect(executed).toEqual([{ name: 'weather', args: { city: 'NAT' } }]);
    const [assistant, result] = assistantAndAfter(model.requests[1] as LanguageModelV1Request);
    expect(assistant).toMatchObject({ role: 'assistant', toolCalls: [{ id: 'n1', name: 'weather' }] });
    expect(messageText(assistant as Message)).not.toContain('<weather>');
    expect(result).toMatchObject({ role: 'tool', toolCallId: 'n1', content: 'weather ok' });
  });
});
