import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolNotFoundError } from '@tiny/tools';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpToolSet } from './create-mcp-tool-set.js';
import { McpPinFileError } from './errors/mcp-pin-file-error.js';
import { type McpToolDefinitionChangedEvent, readMcpPinFile, writeMcpPinFile } from './mcp-tool-pins.js';
import type { McpToolSet } from './mcp-tool-set.js';

const fixture = fileURLToPath(new URL('./__fixtures__/changing-server.mjs', import.meta.url));
// Pass the loopback guard of scripts/offline.sh on to the server process.
const baseEnv = {
  ...getDefaultEnvironment(),
  ...Object.fromEntries(
    ['NODE_OPTIONS', 'TINY_LOOPBACK_GUARD_LOG'].flatMap((key) => {
      const value = process.env[key];
      return value === undefined ? [] : [[key, value]];
    }),
  ),
};
const connection = (mutated = false) => ({
  command: process.execPath,
  args: [fixture],
  env: { ...baseEnv, ...(mutated ? { MUTATED: '1' } : {}) },
});
const context = { runId: 'r', turn: 1 };
const names = async (toolSet: McpToolSet) => (await toolSet.tools(context)).map((tool) => tool.name).sort();
const open: McpToolSet[] = [];
const dir = mkdtempSync(join(tmpdir(), 'tiny-mcp-pins-'));
afterAll(async () => {
  await Promise.all(open.map((toolSet) => toolSet.close().catch(() => undefined)));
  rmSync(dir, { recursive: true, force: true });
});

async function connect(options: Parameters<typeof createMcpToolSet>[0]) {
  const toolSet = await createMcpToolSet(options);
  open.push(toolSet);
  return toolSet;
}

describe('pinned MCP tool definitions (a real stdio server that changes a tool mid-session)', {
  timeout: 30_000,
}, () => {
  it('withholds a tool whose description and schema change after first listing, until re-approved', async () => {
    const events: McpToolDefinitionChangedEvent[] = [];
    let changed: () => void = () => undefined;
    const refreshed = new Promise<void>((resolve) => {
      changed = resolve;
    });
    const toolSet = await connect({
      ...connection(),
      onEvent: (event) => events.push(event),
      onToolsChanged: () => changed(),
    });
    expect(await names(toolSet)).toEqual(['greet', 'mutate']);
    expect((await toolSet.call('greet', { name: 'ada' })).output()).toBe('hello ada');
    const before = toolSet.pins().tools.greet?.sha256;

    await toolSet.call('mutate', {});
    await refreshed;
    expect(await names(toolSet)).toEqual(['mutate']);
    await expect(toolSet.call('greet', { name: 'ada' })).rejects.toSatisfy(ToolNotFoundError.isInstance);
    expect(events).toEqual([
      {
        type: 'tool_definition_changed',
        server: 'changing',
        toolName: 'greet',
        changed: ['description', 'inputSchema'],
        pinned: before,
        current: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    ]);
    expect(toolSet.withheld.map((tool) => tool.toolName)).toEqual(['greet']);
    // A refresh with the same changed definition does not report it again.
    await toolSet.refresh();
    expect(events).toHaveLength(1);

    expect(() => toolSet.approveDefinition('mutate')).toThrow(ToolNotFoundError);
    const pin = toolSet.approveDefinition('greet');
    expect(pin.sha256).toBe(events[0]?.current);
    expect(await names(toolSet)).toEqual(['greet', 'mutate']);
    const greet = (await toolSet.tools(context)).find((tool) => tool.name === 'greet');
    const parameters = greet?.parameters as { properties?: object } | undefined;
    expect(Object.keys(parameters?.properties ?? {})).toEqual(['name', 'note']);
    expect(toolSet.withheld).toEqual([]);
  });

  it('checks a pin file at the first listing: matching tools are offered, a changed or unknown one is not', async () => {
    const first = await connect(connection());
    const path = join(dir, 'pins.json');
    await writeMcpPinFile(path, first);
    const pins = await readMcpPinFile(path);
    expect(Object.keys(pins.tools)).toEqual(['greet', 'mutate']);

    const same = await connect({ ...connection(), pins });
    expect(await names(same)).toEqual(['greet', 'mutate']);

    const events: McpToolDefinitionChangedEvent[] = [];
    const rugPulled = await connect({ ...connection(true), pins, onEvent: (event) => events.push(event) });
    expect(await names(rugPulled)).toEqual(['mutate']);
    expect(events.map((event) => [event.toolName, event.changed])).toEqual([['greet', ['description', 'inputSchema']]]);

    const partial = { ...pins, tools: { mutate: pins.tools.mutate as NonNullable<(typeof pins.tools)['mutate']> } };
    const unknown: McpToolDefinitionChangedEvent[] = [];
    const strict = await connect({ ...connection(), pins: partial, onEvent: (event) => unknown.push(event) });
    expect(await names(strict)).toEqual(['mutate']);
    expect(unknown.map((event) => event.changed)).toEqual([['new']]);
  });

  it('refuses a malformed pin file with McpPinFileError', async () => {
    const path = join(dir, 'bad.json');
    writeFileSync(path, JSON.stringify({ version: 1, tools: { greet: { sha256: 'nope' } } }));
    await expect(readMcpPinFile(path)).rejects.toSatisfy(McpPinFileError.isInstance);
    writeFileSync(path, '{');
    await expect(readMcpPinFile(path)).rejects.toThrow(/not valid JSON/);
    writeFileSync(path, JSON.stringify({ version: 2, tools: {} }));
    await expect(readMcpPinFile(path)).rejects.toThrow(/version 2/);
  });
});
