import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { type ElicitRequest, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { type AgentEvent, sensitive } from '@tiny/harness';
import { type AnyTool, defineTool, ToolPolicy } from '@tiny/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { McpToolServer, type McpToolServerOptions } from './mcp-tool-server.js';
import { type ServedTools, serveToolsOverMcp } from './serve-tools-over-mcp.js';

// Regression tests for the breaker's findings on the served call (issue 37): sensitive fields in the
// approval question, the concurrency limit dodged by cancelling, sessions leaked by refused
// initialize requests, a removed tool run after its approval, and a throwing event sink.

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
});

type Elicit = (
  request: ElicitRequest,
) =>
  | { action: 'accept' | 'decline'; content?: Record<string, unknown> }
  | Promise<{ action: 'accept' | 'decline'; content?: Record<string, unknown> }>;

/** A real SDK client connected to `server` over the SDK's in-memory transport pair. */
async function connect(server: McpToolServer, elicit?: Elicit): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide, { sessionId: 'in-memory' });
  const client = new Client(
    { name: 'hardening-test', version: '1.0.0' },
    elicit === undefined ? {} : { capabilities: { elicitation: { form: {} } } },
  );
  if (elicit !== undefined) client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request));
  await client.connect(clientSide);
  closers.push(
    () => client.close(),
    () => server.close(),
  );
  return client;
}

function serverOf(tools: readonly AnyTool[], options: McpToolServerOptions = {}): McpToolServer {
  return new McpToolServer(tools, options);
}

/** Resolves on the next turn of the event loop, once every pending microtask has run. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

const textOf = (result: unknown) =>
  ((result as { content: { type: string; text?: string }[] }).content ?? []).map((part) => part.text ?? '').join('\n');

describe('the approval question', () => {
  it('shows the arguments as events do: schema-marked sensitive fields redacted at any depth', async () => {
    const ran: unknown[] = [];
    const login = defineTool({
      name: 'login',
      description: 'Log in.',
      parameters: {
        type: 'object',
        properties: {
          user: { type: 'string' },
          password: sensitive({ type: 'string' }),
          auth: { type: 'object', properties: { pin: { type: 'string', 'x-tiny-sensitive': true } } },
          keys: { type: 'array', items: { type: 'object', properties: { secret: sensitive({ type: 'string' }) } } },
          note: { type: 'string' },
        },
        required: ['user'],
      },
      policy: ToolPolicy.classified()
        .requiringApproval()
        .withAccess({ redact: ['note'] }),
      execute: (args: unknown) => {
        ran.push(args);
        return 'ok';
      },
    });
    const questions: string[] = [];
    const client = await connect(serverOf([login]), (request) => {
      questions.push(String(request.params.message));
      return { action: 'accept', content: { approve: true } };
    });
    const result = await client.callTool({
      name: 'login',
      arguments: {
        user: 'bob',
        password: 'hunter2-PASSWORD-xyz',
        auth: { pin: 'PIN-9876543210' },
        keys: [{ secret: 'KEY-SECRET-0001' }, { secret: 'KEY-SECRET-0002' }],
        note: 'NOTE-PRIVATE-42',
      },
    });
    expect(result.isError).not.toBe(true);
    expect(ran).toHaveLength(1);
    expect(questions).toHaveLength(1);
    const question = questions[0] as string;
    for (const secret of ['hunter2', 'PIN-98', 'KEY-SECRET', 'NOTE-PRIVATE']) expect(question).not.toContain(secret);
    expect(question).toContain('"user":"bob"');
    expect(question).toContain('"pin":"[redacted]"');
    expect(question).toContain('"password":"[redacted]"');
  });
});

describe('the per-session concurrency limit', () => {
  it('counts a cancelled call until its tool body has settled', async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let bodyDone: () => void = () => undefined;
    const settled = new Promise<void>((resolve) => {
      bodyDone = resolve;
    });
    let started = 0;
    let live = 0;
    let peak = 0;
    const slow = defineTool({
      name: 'slow',
      description: 'Waits for the test.',
      parameters: { type: 'object', properties: {} },
      policy: ToolPolicy.readOnly(),
      execute: async () => {
        started += 1;
        live += 1;
        peak = Math.max(peak, live);
        await gate;
        live -= 1;
        bodyDone();
        return 'done';
      },
    });
    let failed: () => void = () => undefined;
    const cancelled = new Promise<void>((resolve) => {
      failed = resolve;
    });
    let toolStarted: () => void = () => undefined;
    const running = new Promise<void>((resolve) => {
      toolStarted = resolve;
    });
    const client = await connect(
      serverOf([slow], {
        maxConcurrentCalls: 1,
        onEvent: (event: AgentEvent) => {
          if (event.type === 'tool_started') toolStarted();
          if (event.type === 'tool_failed') failed();
        },
      }),
    );
    const abort = new AbortController();
    const first = client.callTool({ name: 'slow', arguments: {} }, undefined, { signal: abort.signal });
    await running;
    abort.abort('the user cancelled');
    await expect(first).rejects.toThrow();
    // The server's run has given up on the call (its request is answered), but the body still runs.
    await cancelled;
    await nextTurn();
    const second = await client.callTool({ name: 'slow', arguments: {} });
    expect(second.isError).toBe(true);
    expect(textOf(second)).toContain('too many calls at once');
    expect(started).toBe(1);
    open();
    await settled;
    await nextTurn();
    const third = await client.callTool({ name: 'slow', arguments: {} });
    expect(third.isError).not.toBe(true);
    expect(textOf(third)).toBe('done');
    expect(started).toBe(2);
    expect(peak).toBe(1);
  });
});

describe('a tool set changed while an approval is pending', () => {
  const pay = (description = 'Pay an invoice.', ran: string[] = []) =>
    defineTool({
      name: 'pay',
      description,
      parameters: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
      policy: ToolPolicy.classified().requiringApproval(),
      execute: () => {
        ran.push(description);
        return 'paid';
      },
    });

  it('does not run a tool removed by setTools once its approval comes back', async () => {
    const ran: string[] = [];
    const server = serverOf([pay(undefined, ran)]);
    const client = await connect(server, async () => {
      await server.setTools([]);
      return { action: 'accept', content: { approve: true } };
    });
    const result = await client.callTool({ name: 'pay', arguments: { amount: 5 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('needs_reapproval');
    expect(ran).toEqual([]);
  });

  it('does not run a tool whose definition changed; runs one replaced by the same definition', async () => {
    const ran: string[] = [];
    const server = serverOf([pay('Pay an invoice.', ran)]);
    let next: AnyTool = pay('Pay an invoice, and tip the courier.', ran);
    const client = await connect(server, async () => {
      await server.setTools([next]);
      return { action: 'accept', content: { approve: true } };
    });
    const changed = await client.callTool({ name: 'pay', arguments: { amount: 5 } });
    expect(changed.isError).toBe(true);
    expect(textOf(changed)).toContain('needs_reapproval');
    expect(ran).toEqual([]);
    next = pay('Pay an invoice, and tip the courier.', ran);
    const same = await client.callTool({ name: 'pay', arguments: { amount: 5 } });
    expect(same.isError).not.toBe(true);
    expect(ran).toEqual(['Pay an invoice, and tip the courier.']);
  });
});

describe('an event sink that fails', () => {
  it('never changes the call result, whether it throws or rejects', async () => {
    const ran: string[] = [];
    const echo = defineTool({
      name: 'echo',
      description: 'Echo.',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      policy: ToolPolicy.readOnly(),
      execute: ({ text }: { text: string }) => {
        ran.push(text);
        return text;
      },
    });
    const throwing = await connect(
      serverOf([echo], {
        onEvent: () => {
          throw new Error('sink is down');
        },
      }),
    );
    const thrown = await throwing.callTool({ name: 'echo', arguments: { text: 'one' } });
    expect(thrown.isError).not.toBe(true);
    expect(textOf(thrown)).toBe('one');
    const rejecting = await connect(
      serverOf([echo], { onEvent: (() => Promise.reject(new Error('sink is down'))) as never }),
    );
    const rejected = await rejecting.callTool({ name: 'echo', arguments: { text: 'two' } });
    expect(rejected.isError).not.toBe(true);
    expect(textOf(rejected)).toBe('two');
    expect(ran).toEqual(['one', 'two']);
  });
});

describe('HTTP sessions', () => {
  const TOKEN = 'test-token-0123456789abcdef';

  async function serve(maxSessions: number): Promise<ServedTools> {
    const served = await serveToolsOverMcp([], { transport: { http: { token: TOKEN, maxSessions } } });
    closers.push(() => served.close());
    return served;
  }

  function rawInitialize(url: URL, accept: string): Promise<number> {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        url,
        { method: 'POST', headers: { 'content-type': 'application/json', accept, authorization: `Bearer ${TOKEN}` } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  async function httpClient(url: URL) {
    const transport = new StreamableHTTPClientTransport(url, {
      requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
    });
    const client = new Client({ name: 'http-session-test', version: '1.0.0' });
    await client.connect(transport);
    closers.push(() => client.close());
    return { client, transport };
  }

  it('leaves no session behind for an initialize request the transport refuses, and counts against maxSessions', async () => {
    const served = await serve(2);
    const http = served.http as NonNullable<ServedTools['http']>;
    const statuses = new Set<number>();
    for (let i = 0; i < 50; i += 1) statuses.add(await rawInitialize(http.url, 'text/plain'));
    expect([...statuses]).toEqual([406]);
    expect(http.sessions()).toBe(0);
    expect(served.server.sessionCount()).toBe(0);

    // The refused requests took no places: two clients still fit, a third does not.
    const first = await httpClient(http.url);
    await httpClient(http.url);
    expect(http.sessions()).toBe(2);
    expect(served.server.sessionCount()).toBe(2);
    expect(await rawInitialize(http.url, 'application/json, text/event-stream')).toBe(503);
    expect(served.server.sessionCount()).toBe(2);

    // A session the client ends is gone from both sides, and its place is free again.
    await first.transport.terminateSession();
    expect(http.sessions()).toBe(1);
    expect(served.server.sessionCount()).toBe(1);
    expect(await rawInitialize(http.url, 'application/json, text/event-stream')).toBe(200);
    expect(served.server.sessionCount()).toBe(2);
  });
});

describe('served tools calling their nested tools', () => {
  it('runs a nested call to a tool that is also served, once, as the same tool', async () => {
    const ran: string[] = [];
    const inner = defineTool({
      name: 'inner',
      description: 'Doubles n.',
      parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      policy: ToolPolicy.readOnly(),
      execute: ({ n }: { n: number }) => {
        ran.push(`inner:${n}`);
        return n * 2;
      },
    });
    const parent = defineTool({
      name: 'parent',
      description: 'Calls inner.',
      parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      policy: ToolPolicy.readOnly(),
      nestedTools: [inner],
      execute: async ({ n }: { n: number }, context) => {
        const result = await context.callTool?.('inner', { n });
        return `ok:${String(result?.output())}`;
      },
    });
    const client = await connect(serverOf([parent, inner]));
    const result = await client.callTool({ name: 'parent', arguments: { n: 3 } });
    expect(result.isError).not.toBe(true);
    expect(textOf(result)).toBe('ok:6');
    expect(ran).toEqual(['inner:3']);
  });
});
