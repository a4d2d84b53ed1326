import { type LanguageModelV1Request, type Message, messageText, type ToolDialectKind } from '@tiny/llm';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../registry/tool-registry.js';
import { eventsOfType, ScriptedModel, scriptedToolCall } from '../testkit/index.js';
import { AgentHarness } from './agent-harness.js';

// Issue #31: each tool is shown to the model in its own format (`ToolSchema.format`): `json` tools
// as native declarations, `xml` and `ptype` tools in the prompt in their own syntax, and calls
// written that way are read back from the text through the same admission as native calls.

function world(options: { approveSearch?: boolean } = {}) {
  const executed: { name: string; args: unknown }[] = [];
  const record = (name: string) => (args: unknown) => {
    executed.push({ name, args });
    return `${name} ok`;
  };
  const lookup = defineTool({
    name: 'lookup',
    description: 'Look a key up.',
    parameters: Type.Object({ key: Type.String() }),
    execute: record('lookup'),
  });
  const weather = defineTool({
    name: 'weather',
    description: 'Weather for a city.',
    parameters: Type.Object({
      city: Type.String({ description: 'City name' }),
      days: Type.Optional(Type.Integer({ minimum: 1, maximum: 7 })),
    }),
    execute: record('weather'),
  });
  const search = defineTool({
    name: 'search',
    description: 'Search documents.',
    parameters: Type.Object({ query: Type.String(), limit: Type.Optional(Type.Integer()) }),
    policy: options.approveSearch ? ToolPolicy.classified().requiringApproval() : undefined,
    execute: record('search'),
  });
  const registry = new ToolRegistry()
    .register(lookup)
    .register(weather, { format: { type: 'xml' } })
    .register(search, { format: { type: 'ptype', parameters: ['query', 'limit'] } });
  return { executed, registry };
}

const systemText = (request: LanguageModelV1Request): string =>
  request.messages
    .filter((message) => message.role === 'system' || message.role === 'user')
    .map((message) => messageText(message))
    .join('\n');

describe('a native-capable model with json, xml and ptype tools', () => {
  it('declares json natively and xml/ptype in the prompt, and runs a mixed turn through admission', async () => {
    const { executed, registry } = world();
    const model = new ScriptedModel({
      steps: [
        {
          content: 'Checking.\n<weather><city>Paris</city><days>2</days></weather>\nsearch("rust agents", 5)',
          toolCalls: [scriptedToolCall('lookup', { key: 'a' }, 'native-1')],
        },
        { content: 'done' },
      ],
    });
    const run = await new AgentHarness({ model, tools: registry }).invoke({}, [{ role: 'user', content: 'go' }]);
    const [first, second] = model.requests as [LanguageModelV1Request, LanguageModelV1Request];
    // One request: only the json tool on the wire, the others in their own syntax in the prompt.
    expect(first.tools?.map((tool) => tool.name)).toEqual(['lookup']);
    const prompt = systemText(first);
    expect(prompt).toContain('<weather>');
    expect(prompt).toContain('<city>string</city>');
    expect(prompt).toContain('City name');
    expect(prompt).toContain('search(query: string, limit?: integer)');
    expect(prompt).not.toContain('"name": "lookup"');
    // Typed values: integers from the XML text and the positional literal.
    expect(executed).toEqual([
      { name: 'lookup', args: { key: 'a' } },
      { name: 'weather', args: { city: 'Paris', days: 2 } },
      { name: 'search', args: { query: 'rust agents', limit: 5 } },
    ]);
    // Fresh unique ids for the text calls; the native id is kept.
    const assistant = run.messages.find((message) => message.role === 'assistant');
    const ids = assistant?.role === 'assistant' ? (assistant.toolCalls ?? []).map((call) => call.id) : [];
    expect(ids[0]).toBe('native-1');
    expect(new Set(ids).size).toBe(3);
    expect(ids.slice(1).every((id) => id.startsWith(`${run.runId}-m0-tool-`))).toBe(true);
    // Replay: native call as tool_calls, text calls as the text the model wrote, results in the envelope.
    const replayed = second.messages.find((message) => message.role === 'assistant');
    expect(replayed?.role === 'assistant' && replayed.toolCalls?.map((call) => call.name)).toEqual(['lookup']);
    const replayText = messageText(replayed as Message);
    expect(replayText).toContain('<weather><city>Paris</city><days>2</days></weather>');
    expect(replayText).toContain('search("rust agents", 5)');
    expect(second.messages.filter((message) => message.role === 'tool').map((m) => m.toolCallId)).toEqual(['native-1']);
    const envelope = second.messages.at(-1) as Message;
    expect(envelope.role).toBe('user');
    expect(messageText(envelope)).toContain('<tool_result name="weather" status="ok">');
    expect(messageText(envelope)).toContain('<tool_result name="search" status="ok">');
    // The format a call was written in is on its events.
    const started = eventsOfType(run.events, 'tool_started');
    expect(started.map((event) => [event.toolName, event.format])).toEqual([
      ['lookup', 'json'],
      ['weather', 'xml'],
      ['search', 'ptype'],
    ]);
    expect(eventsOfType(run.events, 'tool_completed').map((event) => event.format)).toEqual(['json', 'xml', 'ptype']);
  });

  it('answers a malformed xml call with a repairable tool error and never runs it', async () => {
    const { executed, registry } = world();
    const model = new ScriptedModel({
      steps: [{ content: '<weather><city>Paris</weather>' }, { content: 'done' }],
    });
    const run = await new AgentHarness({ model, tools: registry }).invoke({}, [{ role: 'user', content: 'go' }]);
    expect(executed).toEqual([]);
    const answer = run.messages.find((message) => message.role === 'tool');
    expect(answer).toMatchObject({ toolName: 'weather', isError: true });
    expect(messageText(answer as Message)).toContain('could not parse the arguments of tool `weather`');
    expect(messageText(answer as Message)).toContain("write the call again in the tool's xml syntax");
    expect(eventsOfType(run.events, 'invalid_tool_args')).toMatchObject([
      { toolName: 'weather', recovery: 'tool_error' },
    ]);
    // The model sees its own malformed text and the error, in the envelope.
    const next = (model.requests[1] as LanguageModelV1Request).messages;
    expect(messageText(next.find((message) => message.role === 'assistant') as Message)).toBe(
      '<weather><city>Paris</weather>',
    );
    expect(messageText(next.at(-1) as Message)).toContain('status="error"');
  });

  it('validates text calls against the declared schema like native calls', async () => {
    const { executed, registry } = world();
    const model = new ScriptedModel({
      steps: [
        { content: '<weather><city>Paris</city><days>40</days></weather>\nsearch("x", "five")\nnope(1)' },
        { content: 'done' },
      ],
    });
    const run = await new AgentHarness({ model, tools: registry }).invoke({}, [{ role: 'user', content: 'go' }]);
    expect(executed).toEqual([]);
    const answers = run.messages.filter((message) => message.role === 'tool');
    expect(answers.map((answer) => answer.role === 'tool' && [answer.toolName, answer.isError])).toEqual([
      ['weather', true],
      ['search', true],
    ]);
  });

  it('asks for approval of a text call like a native one', async () => {
    const { executed, registry } = world({ approveSearch: true });
    const model = new ScriptedModel({ steps: [{ content: 'search("secret plans")' }, { content: 'done' }] });
    const run = await new AgentHarness({ model, tools: registry }).invoke({}, [{ role: 'user', content: 'go' }]);
    expect(executed).toEqual([]);
    expect(run.outcome).toBe('deferred');
    expect(run.deferred?.approvals.map((call) => [call.toolName, call.arguments, call.reason])).toEqual([
      ['search', { query: 'secret plans' }, 'approval_required'],
    ]);
  });

  it('holds partial xml and ptype markup out of model_delta', async () => {
    const { registry } = world();
    const model = new ScriptedModel({
      chunkSize: 3,
      steps: [
        { content: 'Let me look. <weather><city>Paris</city></weather> and search("rust agents", 5) then' },
        { content: 'Sunny.' },
      ],
    });
    const stream = new AgentHarness({ model, tools: registry }).stream({}, [{ role: 'user', content: 'go' }]);
    const deltas: string[] = [];
    for await (const event of stream) if (event.type === 'model_delta') deltas.push(event.delta);
    const run = await stream.result;
    expect(run.text).toBe('Sunny.');
    const shown = deltas.join('');
    expect(shown).toContain('Let me look.');
    expect(shown).not.toContain('<');
    expect(shown).not.toContain('Par');
    expect(shown).not.toContain('search(');
  });

  it('keeps reading xml and ptype tools when the profile restricts the grammars', async () => {
    const { executed, registry } = world();
    const model = new ScriptedModel({
      profile: { toolCallFormats: ['harmony'] },
      steps: [{ content: '<weather><city>Oslo</city></weather>' }, { content: 'done' }],
    });
    await new AgentHarness({ model, tools: registry }).invoke({}, [{ role: 'user', content: 'go' }]);
    expect(executed).toEqual([{ name: 'weather', args: { city: 'Oslo' } }]);
  });
});

describe.each(['xml', 'pformat', 'python', 'typescript'] as const satisfies readonly ToolDialectKind[])(
  'text dialect %s with json, xml and ptype tools',
  (dialect) => {
    it('renders every tool in its own format and runs calls written in each', async () => {
      const { executed, registry } = world();
      const model = new ScriptedModel({
        profile: { toolCalling: false },
        steps: [
          (request) => {
            expect(request.tools).toBeUndefined();
            const prompt = systemText(request);
            expect(prompt).toContain('<city>string</city>');
            expect(prompt).toContain('search(query: string, limit?: integer)');
            expect(prompt).toContain('lookup');
            return { content: '<weather><city>Paris</city><days>2</days></weather>\nsearch("rust agents", 5)' };
          },
          (request) => {
            const assistant = request.messages.find((message) => message.role === 'assistant') as Message;
            expect(messageText(assistant)).toContain('<weather><city>Paris</city><days>2</days></weather>');
            expect(request.messages.some((message) => message.role === 'tool')).toBe(false);
            return { content: 'done' };
          },
        ],
      });
      await new AgentHarness({ model, tools: registry, policy: { toolDialect: dialect } }).invoke({}, [
        { role: 'user', content: 'go' },
      ]);
      expect(executed).toEqual([
        { name: 'weather', args: { city: 'Paris', days: 2 } },
        { name: 'search', args: { query: 'rust agents', limit: 5 } },
      ]);
    });
  },
);

describe('registering a tool with a format', () => {
  const tool = defineTool({
    name: 'search',
    description: 'Search documents.',
    parameters: Type.Object({ query: Type.String(), limit: Type.Optional(Type.Integer()) }),
    execute: () => 'ok',
  });
  it.each([
    [{ type: 'ptype', parameters: ['query', 'page'] }, 'parameter "page" is not a property'],
    [{ type: 'ptype', parameters: ['limit'] }, 'required property "query" is missing'],
    [{ type: 'ptype', parameters: ['query', 'query'] }, 'must not repeat a name'],
    [{ type: 'ptype' }, 'needs `parameters`'],
    [{ type: 'yaml' }, '`format.type` must be'],
  ])('refuses %j with a ToolDefinitionError', (format, reason) => {
    expect(() => new ToolRegistry().register(tool, { format: format as never })).toThrow(reason);
  });
});
