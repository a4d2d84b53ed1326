import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getDefaultEnvironment, type StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { AgentHarness } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { type AnyTool, completeTool, executeTool, ToolInputError, ToolNotFoundError } from '@tiny/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpToolSet } from './create-mcp-tool-set.js';
import { McpConnectionError } from './errors/mcp-connection-error.js';
import type { McpToolSet } from './mcp-tool-set.js';

const server = (name: string) =>
  fileURLToPath(new URL(`../node_modules/@modelcontextprotocol/${name}/dist/index.js`, import.meta.url));
// The SDK hands a server only a few variables (PATH, HOME, ...): pass the loopback guard of
// scripts/offline.sh on too, so a server that reaches beyond loopback fails the run loudly.
const env = {
  ...getDefaultEnvironment(),
  ...Object.fromEntries(
    ['NODE_OPTIONS', 'TINY_LOOPBACK_GUARD_LOG'].flatMap((key) => {
      const value = process.env[key];
      return value === undefined ? [] : [[key, value]];
    }),
  ),
};
const everything = { command: process.execPath, args: [server('server-everything'), 'stdio'], env };
const context = { runId: 'r', turn: 1 };
const byName = (tools: readonly AnyTool[], name: string) => {
  const tool = tools.find((item) => item.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool;
};

describe('against @modelcontextprotocol/server-everything', () => {
  let toolSet: McpToolSet;
  beforeAll(async () => {
    toolSet = await createMcpToolSet({ ...everything, prefix: 'ev_' });
  });
  afterAll(async () => {
    await toolSet?.close();
  });

  it('lists the server tools prefixed, with family, exposure and policies from annotations', async () => {
    const tools = await toolSet.tools(context);
    expect(tools.length).toBeGreaterThanOrEqual(10);
    expect(tools.every((tool) => tool.name.startsWith('ev_'))).toBe(true);
    const echo = completeTool(byName(tools, 'ev_echo'));
    expect(echo.family).toBe('mcp-servers/everything');
    expect(echo.exposure).toBe('direct');
    expect(echo.policy.sideEffects.readOnly).toBe(true);
    // readOnlyHint is the server's word: calls to one server still run one at a time.
    expect(echo.isConcurrencySafe({} as never)).toBe(false);
    expect(echo.parameters).toMatchObject({ type: 'object', required: ['message'] });
    const gzip = completeTool(byName(tools, 'ev_gzip-file-as-resource'));
    expect(gzip.policy.sideEffects).toMatchObject({ readOnly: false, destructive: false, network: true });
    expect(gzip.isConcurrencySafe({} as never)).toBe(false);
    expect(toolSet.instructions()).toMatch(/Everything/);
    expect(toolSet.label).toBe('mcp:mcp-servers/everything');
  });

  it('calls tools and maps text, image, resource and resource-link blocks', async () => {
    const echo = await toolSet.call('ev_echo', { message: 'hi' }, context);
    expect(echo.output()).toBe('Echo: hi');
    expect(echo.metadata).toEqual({ mcpServer: 'mcp-servers/everything', mcpTool: 'echo' });
    const image = await toolSet.call('ev_get-tiny-image', {}, context);
    expect(image.content.some((block) => block.type === 'image' && block.mediaType === 'image/png')).toBe(true);
    const resource = await toolSet.call('ev_get-resource-reference', {}, context);
    expect(resource.output()).toMatch(/Resource 1: This is a plaintext resource/);
    const links = await toolSet.call('ev_get-resource-links', { count: 2 }, context);
    expect(links.content.filter((block) => block.type === 'file' && block.data.kind === 'url')).toHaveLength(2);
    const structured = await toolSet.call('ev_get-structured-content', { location: 'Chicago' }, context);
    expect(JSON.parse(structured.output())).toHaveProperty('temperature');
    expect((structured.metadata as { structuredContent: object }).structuredContent).toHaveProperty('humidity');
  });

  it('runs a listed tool through executeTool: validated against the input schema, then the server', async () => {
    const sum = byName(await toolSet.tools(context), 'ev_get-sum');
    expect((await executeTool(sum, { a: 2, b: 40 })).output()).toMatch(/42/);
    await expect(executeTool(sum, { a: 'two', b: 40 })).rejects.toSatisfy(ToolInputError.isInstance);
  });

  it('maps server-side errors to error results and unknown names to ToolNotFoundError', async () => {
    const invalid = await toolSet.call('ev_get-sum', { a: 'two', b: 1 }, context);
    expect(invalid.isError).toBe(true);
    expect(invalid.output()).toMatch(/expected number/);
    await expect(toolSet.call('echo', { message: 'x' }, context)).rejects.toSatisfy(ToolNotFoundError.isInstance);
    await expect(toolSet.call('ev_nope', {}, context)).rejects.toSatisfy(ToolNotFoundError.isInstance);
  });

  it('defers exposure for catalogues larger than the threshold', async () => {
    const small = await createMcpToolSet({ ...everything, deferThreshold: 5 });
    try {
      const tools = await small.tools(context);
      expect(tools.every((tool) => tool.exposure === 'deferred')).toBe(true);
      expect(byName(tools, 'echo')).toBeDefined();
    } finally {
      await small.close();
    }
  });
});

describe('server-everything: list changes and connection loss', () => {
  it('refreshes the catalogue on tools/list_changed', async () => {
    let changed: (names: readonly string[]) => void = () => undefined;
    const notified = new Promise<readonly string[]>((resolve) => {
      changed = resolve;
    });
    // Declaring roots makes the server register its roots tool after the handshake.
    // The tool is added after the first listing: `newTools: 'offer'` offers it (the default withholds it until approved).
    const toolSet = await createMcpToolSet({
      ...everything,
      roots: [],
      newTools: 'offer',
      onToolsChanged: (names) => changed(names),
    });
    try {
      const names = await notified;
      expect(names).toContain('get-roots-list');
      expect((await toolSet.tools(context)).map((tool) => tool.name)).toContain('get-roots-list');
      expect((await toolSet.call('get-roots-list', {}, context)).isError).toBe(false);
    } finally {
      await toolSet.close();
    }
  });

  it('rejects a call in flight with McpConnectionError when the server dies, then fails fast', async () => {
    const toolSet = await createMcpToolSet(everything);
    const pid = (toolSet.client.transport as StdioClientTransport).pid;
    expect(pid).toBeTypeOf('number');
    const started = Date.now();
    const pending = toolSet.call('trigger-long-running-operation', { duration: 20, steps: 4 }, context);
    setTimeout(() => process.kill(pid as number, 'SIGKILL'), 300);
    const error = await pending.catch((caught: unknown) => caught);
    expect(McpConnectionError.isInstance(error)).toBe(true);
    expect((error as McpConnectionError).reason).toBe('lost');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(toolSet.closed).toBe(true);
    await expect(toolSet.call('echo', { message: 'x' }, context)).rejects.toSatisfy(McpConnectionError.isInstance);
    await expect(toolSet.tools(context)).rejects.toSatisfy(McpConnectionError.isInstance);
    await toolSet.close();
  });

  it('surfaces a server that never starts as McpConnectionError', async () => {
    const error = await createMcpToolSet({
      command: process.execPath,
      args: ['-e', 'process.stderr.write("no config\\n"); process.exit(3)'],
    }).catch((caught: unknown) => caught);
    expect(McpConnectionError.isInstance(error)).toBe(true);
    expect(['connect', 'lost']).toContain((error as McpConnectionError).reason);
  });

  it('refuses calls after close()', async () => {
    const toolSet = await createMcpToolSet(everything);
    await toolSet.close();
    const error = await toolSet.call('echo', { message: 'x' }, context).catch((caught: unknown) => caught);
    expect(McpConnectionError.isInstance(error)).toBe(true);
    expect((error as McpConnectionError).reason).toBe('closed');
  });
});

describe('against @modelcontextprotocol/server-filesystem on a temp directory', () => {
  let dir: string;
  let toolSet: McpToolSet;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tiny-mcp-fs-'));
    writeFileSync(join(dir, 'notes.txt'), 'remember the milk\n');
    writeFileSync(join(dir, 'todo.md'), '# Todo\n- ship it\n');
    toolSet = await createMcpToolSet({
      command: process.execPath,
      args: [server('server-filesystem'), dir],
      env,
      prefix: 'fs_',
    });
  });
  afterAll(async () => {
    await toolSet?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('maps read-only and destructive hints onto policies', async () => {
    const tools = await toolSet.tools(context);
    const read = completeTool(byName(tools, 'fs_read_text_file'));
    expect(read.policy.sideEffects.readOnly).toBe(true);
    expect(read.policy.hasSideEffects()).toBe(false);
    const write = completeTool(byName(tools, 'fs_write_file'));
    expect(write.policy.sideEffects).toMatchObject({ readOnly: false, destructive: true, network: false });
    expect(write.policy.runtime.idempotent).toBe(true);
    expect(write.family).toBe('secure-filesystem-server');
  });

  it('lists and reads files, and answers paths outside the root with an error result', async () => {
    const listing = await toolSet.call('fs_list_directory', { path: dir }, context);
    expect(listing.output()).toMatch(/\[FILE\] notes\.txt/);
    const read = await toolSet.call('fs_read_text_file', { path: join(dir, 'notes.txt') }, context);
    // read_text_file declares an output schema: its structuredContent is the result (the text block repeating it is dropped).
    expect(read.content).toEqual([{ type: 'json', data: { content: 'remember the milk\n' } }]);
    const denied = await toolSet.call('fs_read_text_file', { path: '/etc/hostname' }, context);
    expect(denied.isError).toBe(true);
    expect(denied.output()).toMatch(/outside allowed directories|Access denied/);
  });

  it('runs an agent over the server tools with the scripted model', async () => {
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('fs_list_directory', { path: dir })] },
        { toolCalls: [scriptedToolCall('fs_read_text_file', { path: join(dir, 'todo.md') })] },
        { content: 'Your todo list says: ship it.' },
      ],
    });
    const harness = new AgentHarness({ model, tools: [...(await toolSet.tools(context))] });
    const run = await harness.invoke({}, [{ role: 'user', content: 'What is on my todo list?' }]);
    expect(run.text).toBe('Your todo list says: ship it.');
    expect(run.executedTools).toEqual(['fs_list_directory', 'fs_read_text_file']);
    const results = run.messages.filter((message) => message.role === 'tool').map((message) => message.content);
    expect(String(results[0])).toMatch(/todo\.md/);
    expect(String(results[1])).toMatch(/ship it/);
  });
});
