import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalServerProbeError } from '../errors/local-server-probe-error.js';
import { probeLocalServer } from './probe-local-server.js';
import { type Route, replayServer } from './replay-server.test-helper.js';

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;
const template = (name: string): string =>
  readFileSync(new URL(`../template/__fixtures__/${name}`, import.meta.url), 'utf8');

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
async function serve(routes: Readonly<Record<string, Route>>) {
  const server = await replayServer(routes);
  servers.push(server);
  return server;
}

describe('probeLocalServer', () => {
  it('reads llama.cpp /props: context, caps and the Gemma 2 template (first_user, prompt-guided)', async () => {
    const server = await serve({
      'GET /props': {
        json: { ...fixture('llamacpp-props.json'), chat_template: template('google-gemma-2-2b-it.jinja') },
      },
      'GET /v1/models': { json: fixture('llamacpp-models.json') },
    });
    const probe = await probeLocalServer(`${server.url}/v1`);
    expect(probe).toMatchObject({
      server: 'llamacpp',
      baseURL: `${server.url}/v1`,
      model: 'gemma-2-2b-it-Q4_K_M.gguf',
      contextLength: 8192,
      nativeTools: false,
      vision: false,
      profile: { toolCalling: false, parallelToolCalls: false, systemPrompt: 'first_user' },
    });
    expect(probe.template?.systemRole).toBe('rejected');
    expect(probe.notes.join('\n')).toContain('System role not supported');
    // It asked each runtime's endpoint once, and never posted a chat.
    expect(server.requests.map((request) => `${request.method} ${request.path}`).sort()).toEqual([
      'GET /api/v0/models',
      'GET /props',
      'GET /v1/models',
    ]);
  });

  it('trusts chat_template_caps over the template for tools, and takes the grammar from the template', async () => {
    const caps = { supports_tools: true, supports_tool_calls: true, supports_system_role: true };
    const server = await serve({
      'GET /props': {
        json: {
          ...fixture('llamacpp-props.json'),
          chat_template: template('Qwen3.5-4B.jinja'),
          chat_template_caps: caps,
        },
      },
    });
    const probe = await probeLocalServer(server.url);
    expect(probe.profile).toEqual({
      toolCalling: true,
      parallelToolCalls: true,
      systemPrompt: 'system',
      toolCallFormats: ['invoke_xml'],
    });
    expect(probe.reasoning).toBe(true);
    expect(probe.template?.reasoning.generationOpensThink).toBe(true);
  });

  it('notes a template that cannot be inspected and falls back to the caps', async () => {
    const server = await serve({
      'GET /props': { json: { ...fixture('llamacpp-props.json'), chat_template: "{{ raise_exception('nope') }}" } },
    });
    const probe = await probeLocalServer(server.url);
    expect(probe.template).toBeUndefined();
    expect(probe.profile).toMatchObject({ toolCalling: false, systemPrompt: 'first_user' });
    expect(probe.notes.join('\n')).toMatch(/chat template not inspected: chat template throws on every probe/);
  });

  // A served template is code: its rendering is bounded, and one that hits a bound decides nothing.
  const endless = '{% macro f(n) %}{% if n < 60 %}{{ f(n + 1) }}{{ f(n + 1) }}{% endif %}{% endmacro %}{{ f(0) }}';

  it('notes a served template that hits its render bound and falls back to the caps', async () => {
    const server = await serve({
      'GET /props': { json: { ...fixture('llamacpp-props.json'), chat_template: endless } },
    });
    const probe = await probeLocalServer(server.url, { renderTimeoutMs: 300, timeoutMs: 60_000 });
    expect(probe.server).toBe('llamacpp');
    expect(probe.template).toBeUndefined();
    expect(probe.profile).toMatchObject({ toolCalling: false, systemPrompt: 'first_user' });
    expect(probe.notes.join('\n')).toMatch(/chat template not inspected: chat template exceeds its time bound/);
  });

  it("ends a served template's rendering at the probe's own timeoutMs", async () => {
    const server = await serve({
      'GET /props': { json: { ...fixture('llamacpp-props.json'), chat_template: endless } },
    });
    const thrown = await probeLocalServer(server.url, { timeoutMs: 1500, renderTimeoutMs: 600_000 }).catch(
      (error: unknown) => error,
    );
    expect(LocalServerProbeError.isInstance(thrown)).toBe(true);
    expect(thrown).toMatchObject({ reason: 'timeout' });
  });

  it("ends a served template's rendering with the signal's reason", async () => {
    const server = await serve({
      'GET /props': { json: { ...fixture('llamacpp-props.json'), chat_template: endless } },
    });
    const controller = new AbortController();
    const reason = new Error('user stopped');
    const pending = probeLocalServer(server.url, {
      signal: controller.signal,
      timeoutMs: 600_000,
      renderTimeoutMs: 600_000,
    });
    // Abort once the server has been asked (the rendering starts after its answers).
    while (server.requests.length < 3) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  it('reads Ollama /api/show: capabilities and the context length of the architecture', async () => {
    const server = await serve({ 'POST /api/show': { json: fixture('ollama-show.json') } });
    const probe = await probeLocalServer(`${server.url}/v1`, { model: 'llama3.2' });
    expect(probe).toMatchObject({
      server: 'ollama',
      model: 'llama3.2',
      contextLength: 131072,
      nativeTools: true,
      reasoning: false,
      profile: { toolCalling: true, systemPrompt: 'system' },
    });
    expect(server.requests.find((request) => request.path === '/api/show')?.body).toEqual({ model: 'llama3.2' });
  });

  it('reads an Ollama model without tools and a template without a system role', async () => {
    const server = await serve({ 'POST /api/show': { json: fixture('ollama-show-no-tools.json') } });
    const probe = await probeLocalServer(server.url, { model: 'gemma2:2b' });
    expect(probe).toMatchObject({
      server: 'ollama',
      contextLength: 4096,
      nativeTools: false,
      profile: { toolCalling: false, systemPrompt: 'first_user' },
    });
  });

  it('reads LM Studio /api/v0/models: the asked model, else the loaded chat model', async () => {
    const server = await serve({
      'GET /api/v0/models': { json: fixture('lmstudio-models.json') },
      'GET /v1/models': { json: { object: 'list', data: [{ id: 'llama-3.2-3b-instruct', object: 'model' }] } },
    });
    const loaded = await probeLocalServer(`${server.url}/v1`);
    expect(loaded).toMatchObject({
      server: 'lmstudio',
      model: 'llama-3.2-3b-instruct',
      contextLength: 4096,
      loaded: true,
      vision: false,
      nativeTools: true,
      profile: { toolCalling: true },
    });
    const gemma = await probeLocalServer(`${server.url}/v1`, { model: 'google/gemma-3-4b' });
    expect(gemma).toMatchObject({
      nativeTools: false,
      vision: true,
      contextLength: 8192,
      profile: { toolCalling: false },
    });
    const unloaded = await probeLocalServer(`${server.url}/v1`, { model: 'qwen2-vl-7b-instruct' });
    expect(unloaded).toMatchObject({ loaded: false, nativeTools: undefined, contextLength: 32768, profile: {} });
  });

  it('reads vLLM /v1/models and leaves tools to the preset', async () => {
    const server = await serve({ 'GET /v1/models': { json: fixture('vllm-models.json') } });
    const probe = await probeLocalServer(`${server.url}/v1`, { model: 'Qwen/Qwen3-8B' });
    expect(probe).toMatchObject({ server: 'vllm', model: 'Qwen/Qwen3-8B', contextLength: 40960, profile: {} });
    expect(probe.notes.join('\n')).toContain('--enable-auto-tool-choice');
  });

  it('falls back to OpenAI-compatible defaults with a note for an unknown server', async () => {
    const server = await serve({
      'GET /v1/models': { json: { object: 'list', data: [{ id: 'm', object: 'model' }] } },
    });
    const probe = await probeLocalServer(`${server.url}/v1`);
    expect(probe).toMatchObject({ server: 'openai-compatible', model: 'm', profile: {} });
    expect(probe.notes[0]).toMatch(/OpenAI-compatible defaults/);
  });

  it('ignores shapes it does not know instead of misreading them', async () => {
    const server = await serve({
      'GET /props': { json: { hello: 'world' } },
      'GET /api/v0/models': { json: { data: 'nope' } },
      'GET /v1/models': { json: [1, 2, 3] },
    });
    const probe = await probeLocalServer(server.url);
    expect(probe.server).toBe('openai-compatible');
    expect(probe.profile).toEqual({});
  });

  it('throws a typed error when nothing answers, and when the timeout passes', async () => {
    const server = await serve({});
    const url = server.url;
    await server.close();
    servers.length = 0;
    await expect(probeLocalServer(url)).rejects.toSatisfy(
      (error: unknown) => LocalServerProbeError.isInstance(error) && error.reason === 'unreachable',
    );
    // A server that accepts the connection and never answers.
    const hang = await import('node:http').then(({ createServer }) => {
      const pending = createServer(() => undefined);
      return new Promise<import('node:http').Server>((resolve) =>
        pending.listen(0, '127.0.0.1', () => resolve(pending)),
      );
    });
    const port = (hang.address() as import('node:net').AddressInfo).port;
    await expect(probeLocalServer(`http://127.0.0.1:${port}`, { timeoutMs: 50 })).rejects.toSatisfy(
      (error: unknown) => LocalServerProbeError.isInstance(error) && error.reason === 'timeout',
    );
    hang.closeAllConnections();
    await new Promise<void>((resolve) => hang.close(() => resolve()));
  });

  it('rethrows the abort reason and refuses a bad base URL', async () => {
    const server = await serve({});
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(probeLocalServer(server.url, { signal: controller.signal })).rejects.toBe(reason);
    await expect(probeLocalServer('ftp://127.0.0.1/v1')).rejects.toThrow(/http\(s\)/);
    await expect(probeLocalServer('not a url')).rejects.toMatchObject({ name: 'InvalidInputError' });
  });
});
