import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs fixture without types
import { fixtureTools, SECRET } from './__fixtures__/tools.mjs';
import { McpToolServer } from './mcp-tool-server.js';

const fixture = fileURLToPath(new URL('./__fixtures__/stdio-server.mjs', import.meta.url));

type Answer = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> };

/** A real SDK client on a spawned stdio server; with `answer`, it declares elicitation and answers with it. */
async function connect(answer?: (message: string) => Answer) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [fixture], stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client(
    { name: 'test-client', version: '1.0.0' },
    answer === undefined ? {} : { capabilities: { elicitation: { form: {} } } },
  );
  const asked: string[] = [];
  if (answer !== undefined)
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      const message = String(request.params.message);
      asked.push(message);
      return answer(message);
    });
  await client.connect(transport);
  const events = () =>
    stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { session: string; event: { type: string; [key: string]: unknown } });
  const ran = () =>
    stderr
      .split('\n')
      .filter((line) => line.startsWith('RAN '))
      .map((line) => JSON.parse(line.slice(4)) as { name: string; [key: string]: unknown });
  return { client, asked, events, ran };
}

const open: Client[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
});

const textOf = (result: object) =>
  ((result as { content?: unknown }).content as { type: string; text?: string }[])
    .map((part) => part.text ?? '')
    .join('\n');

describe('serveToolsOverMcp over stdio, driven by the MCP SDK client', () => {
  it('lists model-facing schemas and policy annotations, never injected parameters, x-tiny-* or hidden tools', async () => {
    const { client } = await connect();
    open.push(client);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['weather', 'send_sms', 'delete_note', 'echo']);
    const sms = tools.find((tool) => tool.name === 'send_sms');
    expect(Object.keys(sms?.inputSchema.properties ?? {})).toEqual(['text', 'to']);
    expect(sms?.inputSchema.required).toEqual(['to', 'text']);
    expect(JSON.stringify(tools)).not.toContain('apiKey');
    expect(JSON.stringify(tools)).not.toContain('x-tiny-');
    expect(sms?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    });
    const weather = tools.find((tool) => tool.name === 'weather');
    expect(weather?.title).toBe('Weather');
    expect(weather?.annotations).toEqual({
      title: 'Weather',
      readOnlyHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(weather?.outputSchema?.required).toEqual(['city', 'forecast']);
    expect(tools.find((tool) => tool.name === 'delete_note')?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(tools.find((tool) => tool.name === 'echo')?.annotations).toBeUndefined();
    // Another process (this one) builds the same definitions: nothing changes across a restart (the
    // SDK client re-orders `type` first when it parses; byte identity is checked in http.test.ts).
    expect(tools).toEqual(JSON.parse(JSON.stringify(new McpToolServer(fixtureTools()).definitions())));
  });

  it('calls a tool through admission and returns structured content checked against its output schema', async () => {
    const { client, events } = await connect();
    open.push(client);
    const result = await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ city: 'Oslo', forecast: 'light snow, -3 °C' });
    await client.close();
    const types = events().map((line) => line.event.type);
    expect(types).toContain('tool_started');
    expect(types).toContain('tool_completed');
    expect(types.some((type) => type.startsWith('model_') || type.startsWith('run_'))).toBe(false);
  });

  it('answers a schema-invalid call with an isError result naming the problem, and runs nothing', async () => {
    const { client, events, ran } = await connect();
    open.push(client);
    const result = await client.callTool({ name: 'weather', arguments: { city: 'Oslo', days: 40 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/invalid arguments for tool `weather`.*days/s);
    const extra = await client.callTool({ name: 'delete_note', arguments: { id: 'seven' } });
    expect(extra.isError).toBe(true);
    expect(textOf(extra)).toContain('/id');
    await client.close();
    const types = events().map((line) => line.event.type);
    expect(types.filter((type) => type === 'invalid_tool_args')).toHaveLength(2);
    expect(ran()).toEqual([]);
  });

  it('refuses an unknown tool and a hidden (host-only) tool', async () => {
    const { client, ran } = await connect();
    open.push(client);
    for (const name of ['nope', 'host_only']) {
      const result = await client.callTool({ name, arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(`unknown tool \`${name}\``);
    }
    await client.close();
    expect(ran()).toEqual([]);
  });

  it('runs an approval-requiring tool on an explicit accept, with the host secret scrubbed everywhere', async () => {
    const { client, asked, events, ran } = await connect(() => ({ action: 'accept', content: { approve: true } }));
    open.push(client);
    const result = await client.callTool({ name: 'send_sms', arguments: { to: '+4712345678', text: 'hi' } });
    expect(result.isError).toBeFalsy();
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('send_sms');
    expect(textOf(result)).toContain('Sent to +4712345678');
    expect(JSON.stringify(result)).not.toContain(SECRET);
    await client.close();
    const lines = events();
    expect(lines.map((line) => line.event.type)).toContain('tool_approved');
    expect(ran()).toEqual([{ name: 'send_sms', to: '+4712345678', text: 'hi' }]);
    expect(JSON.stringify(lines)).not.toContain(SECRET);
  });

  it('does not run an approval-requiring tool on a decline, a cancel or an accept without approve: true', async () => {
    for (const answer of [
      { action: 'decline' },
      { action: 'cancel' },
      { action: 'accept', content: { approve: false } },
    ] as Answer[]) {
      const { client, asked, events, ran } = await connect(() => answer);
      open.push(client);
      const result = await client.callTool({ name: 'send_sms', arguments: { to: '+4712345678', text: 'hi' } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('not approved');
      expect(asked).toHaveLength(1);
      await client.close();
      const types = events().map((line) => line.event.type);
      expect(types).toContain('tool_denied');
      expect(ran()).toEqual([]);
    }
  });

  it('refuses an approval-requiring tool when the client has no elicitation', async () => {
    const { client, events, ran } = await connect();
    open.push(client);
    const result = await client.callTool({ name: 'send_sms', arguments: { to: '+4712345678', text: 'hi' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('does not support elicitation');
    await client.close();
    const types = events().map((line) => line.event.type);
    expect(types).toContain('tool_denied');
    expect(ran()).toEqual([]);
  });

  it('never takes a model-supplied value for an injected parameter', async () => {
    const { client } = await connect(() => ({ action: 'accept', content: { approve: true } }));
    open.push(client);
    const result = await client.callTool({
      name: 'send_sms',
      arguments: { to: '+4712345678', text: 'hi', apiKey: 'attacker-key' },
    });
    expect(JSON.stringify(result)).not.toContain('attacker-key');
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });
});
