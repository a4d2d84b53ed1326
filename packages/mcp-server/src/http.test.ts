import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { type AgentEvent, InMemoryArtifactStore, REDACTED } from '@tiny/harness';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs fixture without types
import { fixtureTools, SECRET } from './__fixtures__/tools.mjs';
import { McpServerOptionsError } from './errors/mcp-server-options-error.js';
import { McpToolServer } from './mcp-tool-server.js';
import { type ServedTools, serveToolsOverMcp } from './serve-tools-over-mcp.js';

const TOKEN = 'test-token-0123456789abcdef';
const started: ServedTools[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
  await Promise.all(started.splice(0).map((served) => served.close()));
});

async function serve(tools = fixtureTools(), extra: Parameters<typeof serveToolsOverMcp>[1] = {}) {
  const served = await serveToolsOverMcp(tools, { transport: { http: { token: TOKEN } }, ...extra });
  started.push(served);
  return served;
}

/** Resolves when a client's standalone SSE stream (server-to-client notifications) is open. */
let streamOpen: Promise<void> = Promise.resolve();

async function client(
  url: URL,
  token: string | null = TOKEN,
  elicit?: () => { action: 'accept' | 'decline'; content?: Record<string, unknown> },
) {
  let opened: () => void = () => undefined;
  streamOpen = new Promise((resolve) => {
    opened = resolve;
  });
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: token === null ? {} : { headers: { Authorization: `Bearer ${token}` } },
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      if (init?.method === 'GET' && response.status === 200) opened();
      return response;
    },
  });
  const mcp = new Client(
    { name: 'http-test', version: '1.0.0' },
    elicit === undefined ? {} : { capabilities: { elicitation: { form: {} } } },
  );
  if (elicit !== undefined) mcp.setRequestHandler(ElicitRequestSchema, () => elicit());
  clients.push(mcp);
  await mcp.connect(transport);
  return mcp;
}

/** A raw POST of an initialize request, with the headers given (Host included: fetch cannot set it). */
function rawInitialize(url: URL, headers: Record<string, string>): Promise<number> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const textOf = (result: object) =>
  ((result as { content?: unknown }).content as { type: string; text?: string }[])
    .map((part) => part.text ?? '')
    .join('\n');

describe('serveToolsOverMcp over Streamable HTTP on 127.0.0.1', () => {
  it('binds 127.0.0.1 and serves list and call to a client with the token', async () => {
    const served = await serve();
    expect(served.http?.url.hostname).toBe('127.0.0.1');
    const mcp = await client(served.http?.url as URL);
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['weather', 'send_sms', 'delete_note', 'echo']);
    const result = await mcp.callTool({ name: 'weather', arguments: { city: 'Lisbon' } });
    expect(result.structuredContent).toEqual({ city: 'Lisbon', forecast: 'light snow, -3 °C' });
    const invalid = await mcp.callTool({ name: 'weather', arguments: {} });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toContain('city');
  });

  it('refuses a missing or wrong token (401) and runs nothing', async () => {
    const ran: unknown[] = [];
    const served = await serve(fixtureTools(ran));
    const url = served.http?.url as URL;
    await expect(client(url, null)).rejects.toThrow(/unauthorized/);
    await expect(client(url, 'wrong-token-0123456789abcdef')).rejects.toThrow(/unauthorized/);
    expect(await rawInitialize(url, { host: `127.0.0.1:${url.port}` })).toBe(401);
    expect(await rawInitialize(url, { host: `127.0.0.1:${url.port}`, authorization: 'Bearer nope' })).toBe(401);
    expect(await rawInitialize(url, { host: `127.0.0.1:${url.port}`, authorization: `Bearer ${TOKEN}` })).toBe(200);
    expect(ran).toEqual([]);
  });

  it('refuses a foreign Origin and a foreign Host (DNS rebinding), even with the token', async () => {
    const served = await serve();
    const url = served.http?.url as URL;
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect(await rawInitialize(url, { ...auth, host: `127.0.0.1:${url.port}`, origin: 'http://evil.example' })).toBe(
      403,
    );
    expect(await rawInitialize(url, { ...auth, host: `evil.example:${url.port}` })).toBe(403);
    expect(await rawInitialize(url, { ...auth, host: `localhost:${url.port}` })).toBe(200);
  });

  it('admits an allowed Origin', async () => {
    const served = await serve(fixtureTools(), {
      transport: { http: { token: TOKEN, allowedOrigins: ['http://localhost:5173'] } },
    });
    const url = served.http?.url as URL;
    const host = `127.0.0.1:${url.port}`;
    const auth = `Bearer ${TOKEN}`;
    expect(await rawInitialize(url, { host, authorization: auth, origin: 'http://localhost:5173' })).toBe(200);
    expect(await rawInitialize(url, { host, authorization: auth, origin: 'http://localhost:5174' })).toBe(403);
  });

  it('never serves HTTP without a token or an authorizer, and refuses short tokens', async () => {
    await expect(serveToolsOverMcp(fixtureTools(), { transport: { http: {} } })).rejects.toBeInstanceOf(
      McpServerOptionsError,
    );
    await expect(serveToolsOverMcp(fixtureTools(), { transport: { http: { token: 'short' } } })).rejects.toThrow(
      /16 characters/,
    );
  });

  it('binds a session to its principal: another principal cannot use its session id', async () => {
    const served = await serveToolsOverMcp(fixtureTools(), {
      transport: {
        http: {
          authorize: (req) =>
            req.headers['x-user'] === 'alice' || req.headers['x-user'] === 'bob' ? req.headers['x-user'] : false,
        },
      },
    });
    started.push(served);
    const url = served.http?.url as URL;
    const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: { 'x-user': 'alice' } } });
    const alice = new Client({ name: 'alice', version: '1' });
    clients.push(alice);
    await alice.connect(transport);
    const sessionId = transport.sessionId as string;
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        url,
        {
          method: 'POST',
          headers: {
            host: `127.0.0.1:${url.port}`,
            'x-user': 'bob',
            'mcp-session-id': sessionId,
            'mcp-protocol-version': '2025-06-18',
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} }));
    });
    expect(status).toBe(404);
    expect(await rawInitialize(url, { host: `127.0.0.1:${url.port}`, 'x-user': 'mallory' })).toBe(401);
  });

  it('isolates sessions: each gets its own context', async () => {
    const counter = defineTool({
      name: 'count',
      description: 'Counts calls in this session.',
      parameters: { type: 'object', properties: {} },
      policy: ToolPolicy.readOnly(),
      execute(_args, context) {
        const state = context.state as { calls: number };
        state.calls += 1;
        return String(state.calls);
      },
    });
    const served = await serve([counter], { context: () => ({ state: { calls: 0 } }) });
    const url = served.http?.url as URL;
    const first = await client(url);
    const second = await client(url);
    await first.callTool({ name: 'count', arguments: {} });
    expect(textOf(await first.callTool({ name: 'count', arguments: {} }))).toBe('2');
    expect(textOf(await second.callTool({ name: 'count', arguments: {} }))).toBe('1');
  });

  it('limits concurrent calls per session', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered: () => void = () => undefined;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const slow = defineTool({
      name: 'slow',
      description: 'Waits for the test.',
      parameters: { type: 'object', properties: {} },
      policy: ToolPolicy.readOnly(),
      async execute() {
        entered();
        await gate;
        return 'done';
      },
    });
    const served = await serve([slow], { maxConcurrentCalls: 1 });
    const url = served.http?.url as URL;
    const mcp = await client(url);
    const other = await client(url);
    const pending = mcp.callTool({ name: 'slow', arguments: {} });
    await inside;
    const refused = await mcp.callTool({ name: 'slow', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('too many calls');
    // Another session has its own budget.
    const otherCall = other.callTool({ name: 'slow', arguments: {} });
    release();
    expect(textOf(await pending)).toBe('done');
    expect(textOf(await otherCall)).toBe('done');
  });

  it('asks for approval through elicitation over HTTP, and redacts the host secret in events', async () => {
    const events: AgentEvent[] = [];
    const ran: unknown[] = [];
    const served = await serve(fixtureTools(ran), {
      context: { hostValues: { apiKey: SECRET } },
      harness: { policy: { captureToolIo: true } },
      onEvent: (event) => events.push(event),
    });
    const url = served.http?.url as URL;
    const yes = await client(url, TOKEN, () => ({ action: 'accept', content: { approve: true } }));
    const accepted = await yes.callTool({ name: 'send_sms', arguments: { to: '+4712345678', text: 'hi' } });
    expect(accepted.isError).toBeFalsy();
    expect(JSON.stringify(accepted)).not.toContain(SECRET);
    const no = await client(url, TOKEN, () => ({ action: 'decline' }));
    const declined = await no.callTool({ name: 'send_sms', arguments: { to: '+4712345678', text: 'no' } });
    expect(declined.isError).toBe(true);
    const none = await client(url);
    const refused = await none.callTool({ name: 'send_sms', arguments: { to: '+4712345678', text: 'none' } });
    expect(refused.isError).toBe(true);
    expect(ran).toEqual([{ name: 'send_sms', to: '+4712345678', text: 'hi' }]);
    expect(events.filter((event) => event.type === 'tool_approved')).toHaveLength(1);
    expect(events.filter((event) => event.type === 'tool_denied')).toHaveLength(2);
    expect(JSON.stringify(events)).not.toContain(SECRET);
    expect(JSON.stringify(events)).toContain(REDACTED);
  });

  it('notifies tools/list_changed when the listing changes, and not when it stays the same', async () => {
    const served = await serve();
    const mcp = await client(served.http?.url as URL);
    await streamOpen;
    let notified = 0;
    let changed: () => void = () => undefined;
    const seen = new Promise<void>((resolve) => {
      changed = resolve;
    });
    mcp.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      notified += 1;
      changed();
    });
    await served.server.setTools(fixtureTools());
    await served.server.setTools(fixtureTools().filter((tool: { name: string }) => tool.name !== 'echo'));
    await seen;
    expect(notified).toBe(1);
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['weather', 'send_sms', 'delete_note']);
    const gone = await mcp.callTool({ name: 'echo', arguments: { text: 'x' } });
    expect(gone.isError).toBe(true);
  });

  it('gives byte-identical definitions from separate servers (stable across restarts)', () => {
    const one = JSON.stringify(new McpToolServer(fixtureTools()).definitions());
    const two = JSON.stringify(new McpToolServer([...fixtureTools()]).definitions());
    expect(two).toBe(one);
    expect(one).toContain('"inputSchema":{"additionalProperties":false,"properties":{"city"');
  });

  it('cuts a result over maxResultBytes to text with an artifact reference, and times a slow tool out', async () => {
    const big = defineTool({
      name: 'big',
      description: 'A large result.',
      parameters: { type: 'object', properties: {} },
      policy: ToolPolicy.readOnly().withRuntime({ maxResultBytes: 200 }),
      execute: () => 'x'.repeat(5000),
    });
    const stuck = defineTool({
      name: 'stuck',
      description: 'Never finishes.',
      parameters: { type: 'object', properties: {} },
      policy: ToolPolicy.readOnly().withRuntime({ timeoutMs: 50 }),
      execute: () => new Promise<string>(() => undefined),
    });
    const served = await serve([big, stuck], { harness: { artifacts: new InMemoryArtifactStore() } });
    const mcp = await client(served.http?.url as URL);
    const cut = textOf(await mcp.callTool({ name: 'big', arguments: {} }));
    expect(cut).toContain('tiny-artifact://');
    expect(cut.length).toBeLessThan(1000);
    const timedOut = await mcp.callTool({ name: 'stuck', arguments: {} });
    expect(timedOut.isError).toBe(true);
    expect(textOf(timedOut)).toMatch(/time/i);
  });
});
