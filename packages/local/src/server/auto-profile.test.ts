/**
 * `autoProfile` end to end: a `@tiny/provider-openai` preset with `{ autoProfile }` and an
 * `AgentHarness`, against replayed llama.cpp, Ollama and LM Studio servers on 127.0.0.1 (the
 * capability endpoints from `__fixtures__/`, see its README; the chat completions are scripted
 * answers in the OpenAI shape). No other configuration: the probe picks native or prompt-guided
 * tools, the system prompt placement and the grammar, and the run reports it in one event.
 */
import { readFileSync } from 'node:fs';
import { type AgentEvent, AgentHarness } from '@tiny/harness';
import { type AutoProfiler, llamacpp, lmstudio, ollama } from '@tiny/provider-openai';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { afterEach, describe, expect, it } from 'vitest';
import { autoProfile } from './auto-profile.js';
import { type RecordedRequest, type Route, replayServer } from './replay-server.test-helper.js';

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;
const template = (name: string): string =>
  readFileSync(new URL(`../template/__fixtures__/${name}`, import.meta.url), 'utf8');

const weather = defineTool({
  name: 'weather',
  description: 'Look up the weather forecast for a city.',
  parameters: Type.Object({ city: Type.String() }),
  policy: ToolPolicy.readOnly(),
  execute: ({ city }) => `${city}: light snow, -3 °C`,
});

const completion = (message: Record<string, unknown>, finish = 'stop') => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1765000000,
  model: 'local',
  choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
  usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
});

/** First a call, then a final answer: as text (prompt-guided) or as native `tool_calls`. */
function chat(native: boolean): Route {
  let turn = 0;
  return () => {
    turn += 1;
    if (turn > 1) return { json: completion({ content: 'Oslo: light snow, -3 °C.' }) };
    return native
      ? {
          json: completion(
            {
              content: null,
              tool_calls: [
                { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } },
              ],
            },
            'tool_calls',
          ),
        }
      : { json: completion({ content: '<tool_call>{"name": "weather", "arguments": {"city": "Oslo"}}</tool_call>' }) };
  };
}

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
async function serve(routes: Readonly<Record<string, Route>>) {
  const server = await replayServer(routes);
  servers.push(server);
  return server;
}

const chats = (requests: readonly RecordedRequest[]) =>
  requests
    .filter((request) => request.path === '/v1/chat/completions')
    .map((request) => request.body as Record<string, unknown>);

async function run(model: ConstructorParameters<typeof AgentHarness>[0]['model']) {
  const events: AgentEvent[] = [];
  const harness = new AgentHarness({ model, tools: [weather] });
  const result = await harness.invoke(
    {},
    [
      { role: 'system', content: 'Be terse.' },
      { role: 'user', content: 'Weather in Oslo?' },
    ],
    {
      onEvent: (event) => events.push(event),
    },
  );
  return { result, events, harness };
}

describe('autoProfile on the presets', () => {
  it('is structurally the AutoProfiler of @tiny/provider-openai', () => {
    const profiler: AutoProfiler = autoProfile;
    expect(typeof profiler).toBe('function');
  });

  it('llama.cpp serving Gemma 2: prompt-guided, system text in the first user turn, one event', async () => {
    const server = await serve({
      'GET /props': {
        json: { ...fixture('llamacpp-props.json'), chat_template: template('google-gemma-2-2b-it.jinja') },
      },
      'GET /v1/models': { json: fixture('llamacpp-models.json') },
      'POST /v1/chat/completions': chat(false),
    });
    const model = llamacpp({ baseURL: `${server.url}/v1`, autoProfile })('gemma-2-2b-it');
    expect(model.profile.toolCalling).toBe(true); // the preset's guess, before the probe
    const { result, events } = await run(model);
    expect(result.outcome).toBe('final');
    expect(result.executedTools).toEqual(['weather']);
    const profiled = events.filter((event) => event.type === 'model_profiled');
    expect(profiled).toHaveLength(1);
    expect(profiled[0]).toMatchObject({
      modelId: 'gemma-2-2b-it',
      server: 'llamacpp',
      contextLength: 8192,
      toolCalling: false,
      systemPrompt: 'first_user',
    });
    expect((profiled[0] as { reasons: readonly string[] }).reasons.join('\n')).toContain('System role not supported');
    expect(events.findIndex((event) => event.type === 'model_profiled')).toBeLessThan(
      events.findIndex((event) => event.type === 'run_started'),
    );
    expect(events.find((event) => event.type === 'tools_advertised')).toMatchObject({ dialect: 'tagged_json' });
    // Every request: no tools on the wire, no system message, the instructions in the first user turn.
    const bodies = chats(server.requests);
    expect(bodies).toHaveLength(2);
    for (const body of bodies) {
      expect(body.tools).toBeUndefined();
      const messages = body.messages as { role: string; content: string }[];
      expect(messages.some((message) => message.role === 'system')).toBe(false);
      expect(messages[0]?.role).toBe('user');
      expect(messages[0]?.content).toContain('Be terse.');
      expect(messages[0]?.content).toContain('## Tool Use Protocol');
    }
    expect(model.profile).toMatchObject({ toolCalling: false, systemPrompt: 'first_user', toolFormats: [] });
  });

  it('probes once per base URL and model: a second run and a second provider reuse it, without an event', async () => {
    const server = await serve({
      'GET /props': {
        json: { ...fixture('llamacpp-props.json'), chat_template: template('google-gemma-2-2b-it.jinja') },
      },
      'POST /v1/chat/completions': chat(false),
    });
    const model = llamacpp({ baseURL: `${server.url}/v1`, autoProfile })('gemma');
    const first = await run(model);
    expect(first.events.filter((event) => event.type === 'model_profiled')).toHaveLength(1);
    const again = llamacpp({ baseURL: `${server.url}/v1`, autoProfile })('gemma');
    expect(again.profile.systemPrompt).toBe('first_user'); // known before any call
    const second = await run(again);
    expect(second.events.filter((event) => event.type === 'model_profiled')).toHaveLength(0);
    expect(server.requests.filter((request) => request.path === '/props')).toHaveLength(1);
  });

  it('Ollama with the tools capability: native tools, system kept', async () => {
    const server = await serve({
      'POST /api/show': { json: fixture('ollama-show.json') },
      'POST /v1/chat/completions': chat(true),
    });
    const model = ollama({ baseURL: `${server.url}/v1`, autoProfile })('llama3.2');
    const { result, events } = await run(model);
    expect(result.executedTools).toEqual(['weather']);
    expect(events.find((event) => event.type === 'model_profiled')).toMatchObject({
      server: 'ollama',
      toolCalling: true,
      systemPrompt: 'system',
      contextLength: 131072,
    });
    const first = chats(server.requests)[0] as { tools?: unknown[]; messages: { role: string }[] };
    expect(first.tools).toHaveLength(1);
    expect(first.messages[0]?.role).toBe('system');
  });

  it('LM Studio with a model that lists no tool_use: prompt-guided', async () => {
    const server = await serve({
      'GET /api/v0/models': { json: fixture('lmstudio-models.json') },
      'GET /v1/models': { json: { object: 'list', data: [{ id: 'google/gemma-3-4b', object: 'model' }] } },
      'POST /v1/chat/completions': chat(false),
    });
    const model = lmstudio({ baseURL: `${server.url}/v1`, autoProfile })('google/gemma-3-4b');
    const { result, events } = await run(model);
    expect(result.executedTools).toEqual(['weather']);
    expect(events.find((event) => event.type === 'model_profiled')).toMatchObject({
      server: 'lmstudio',
      toolCalling: false,
      systemPrompt: 'system',
      contextLength: 8192,
    });
    expect(chats(server.requests).every((body) => body.tools === undefined)).toBe(true);
  });

  it('keeps the preset profile when the probe fails, and says why', async () => {
    const server = await serve({ 'POST /v1/chat/completions': chat(true) });
    const failing: AutoProfiler = async () => {
      throw new Error('probe refused');
    };
    const model = llamacpp({ baseURL: `${server.url}/v1`, autoProfile: failing })('m');
    const { result, events } = await run(model);
    expect(result.executedTools).toEqual(['weather']);
    const event = events.find((candidate) => candidate.type === 'model_profiled');
    expect(event).toMatchObject({ server: 'unknown', toolCalling: true, systemPrompt: 'system' });
    expect((event as { reasons: readonly string[] }).reasons[0]).toContain('probe refused');
  });

  it('refuses autoProfile: true with the way to pass the profiler', () => {
    expect(() => llamacpp({ autoProfile: true as never })).toThrow(/import \{ autoProfile \} from '@tiny\/local'/);
  });
});
