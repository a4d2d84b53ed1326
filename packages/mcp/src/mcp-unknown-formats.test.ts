import { fileURLToPath } from 'node:url';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type AnyTool, executeTool } from '@tiny/tools';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpToolSet } from './create-mcp-tool-set.js';
import type { McpToolSet } from './mcp-tool-set.js';

const fixture = fileURLToPath(new URL('./__fixtures__/unknown-format-server.mjs', import.meta.url));
// Pass the loopback guard of scripts/offline.sh on to the server process.
const env = {
  ...getDefaultEnvironment(),
  ...Object.fromEntries(
    ['NODE_OPTIONS', 'TINY_LOOPBACK_GUARD_LOG'].flatMap((key) => {
      const value = process.env[key];
      return value === undefined ? [] : [[key, value]];
    }),
  ),
};
const context = { runId: 'r', turn: 1 };

describe('MCP tools naming an unknown format (a server\'s format: "textarea")', () => {
  const sets: McpToolSet[] = [];
  const open = async (unknownFormats?: 'refuse' | 'annotate') => {
    const set = await createMcpToolSet({
      command: process.execPath,
      args: [fixture],
      env,
      ...(unknownFormats === undefined ? {} : { unknownFormats }),
    });
    sets.push(set);
    return set;
  };
  afterAll(async () => {
    await Promise.all(sets.map((set) => set.close()));
  });

  it('skips the tool by default, the reason naming the unknownFormats option', async () => {
    const toolSet = await open();
    expect(await toolSet.tools(context)).toEqual([]);
    expect(toolSet.skipped).toHaveLength(1);
    expect(toolSet.skipped[0]?.name).toBe('note');
    expect(toolSet.skipped[0]?.reason).toMatch(/unknown format "textarea".*unknownFormats: 'annotate'/);
  });

  it("offers it with unknownFormats: 'annotate': the unknown format unchecked, known ones still enforced", async () => {
    const toolSet = await open('annotate');
    const tools: readonly AnyTool[] = await toolSet.tools(context);
    expect(toolSet.skipped).toEqual([]);
    const note = tools.find((tool) => tool.name === 'note') as AnyTool;
    const ran = await executeTool(note, { text: 'any text at all', to: 'a@example.com' });
    expect(ran.output()).toBe('noted {"text":"any text at all","to":"a@example.com"}');
    await expect(executeTool(note, { text: 'x', to: 'not an address' })).rejects.toMatchObject({
      issues: [{ path: '/to', keyword: 'format' }],
    });
  });
});
