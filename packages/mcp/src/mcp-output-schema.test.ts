import { fileURLToPath } from 'node:url';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { AgentHarness, ToolExecutionError } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { type AnyTool, completeTool, executeTool, ToolOutputError } from '@tiny/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpToolSet } from './create-mcp-tool-set.js';
import type { McpToolSet } from './mcp-tool-set.js';

const fixture = fileURLToPath(new URL('./__fixtures__/structured-server.mjs', import.meta.url));
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
const byName = (tools: readonly AnyTool[], name: string) => {
  const tool = tools.find((item) => item.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool;
};

describe('MCP output schemas (a real stdio server declaring outputSchema)', () => {
  let toolSet: McpToolSet;
  beforeAll(async () => {
    toolSet = await createMcpToolSet({ command: process.execPath, args: [fixture], env });
  });
  afterAll(async () => {
    await toolSet?.close();
  });

  it("takes the server's outputSchema as the tool's output schema", async () => {
    const tools = await toolSet.tools(context);
    expect(completeTool(byName(tools, 'forecast')).outputSchema).toMatchObject({
      type: 'object',
      required: ['city', 'celsius', 'conditions'],
    });
    expect(completeTool(byName(tools, 'plain')).outputSchema).toBeUndefined();
  });

  it('makes structuredContent the structured result, validated, without the repeated JSON text', async () => {
    const forecast = byName(await toolSet.tools(context), 'forecast');
    const result = await executeTool(forecast, { city: 'Oslo' });
    expect(result.content).toEqual([{ type: 'json', data: { city: 'Oslo', celsius: 21.5, conditions: 'sunny' } }]);
    const direct = await toolSet.call('forecast', { city: 'Oslo' }, context);
    expect(direct.content).toEqual(result.content);
  });

  it('throws ToolOutputError when structuredContent breaks the schema or is missing', async () => {
    const tools = await toolSet.tools(context);
    const bad = executeTool(byName(tools, 'bad_forecast'), { city: 'Oslo' });
    await expect(bad).rejects.toSatisfy(ToolOutputError.isInstance);
    await expect(bad).rejects.toMatchObject({ toolName: 'bad_forecast', issues: [{ path: '/celsius' }] });
    await expect(executeTool(byName(tools, 'no_forecast'), { city: 'Oslo' })).rejects.toSatisfy(
      ToolOutputError.isInstance,
    );
    await expect(toolSet.call('bad_forecast', { city: 'Oslo' }, context)).rejects.toSatisfy(ToolOutputError.isInstance);
  });

  it('passes isError results through unchecked', async () => {
    const failing = await executeTool(byName(await toolSet.tools(context), 'failing_forecast'), { city: 'Oslo' });
    expect(failing.isError).toBe(true);
    expect(failing.output()).toBe('no station near Oslo');
  });

  it('applies the run policy to a mismatch: fatal by default, answered to the model with return_error', async () => {
    const steps = () => [{ toolCalls: [scriptedToolCall('bad_forecast', { city: 'Oslo' }, 'b1')] }, { content: 'ok' }];
    const fatal = new AgentHarness({ model: new ScriptedModel({ steps: steps() }), toolSets: [toolSet] });
    const failure = await fatal.invoke({}, [{ role: 'user', content: 'weather?' }]).catch((error: unknown) => error);
    expect(ToolExecutionError.isInstance(failure)).toBe(true);
    expect(ToolOutputError.isInstance((failure as Error).cause)).toBe(true);

    const model = new ScriptedModel({ steps: steps() });
    const answered = new AgentHarness({ model, toolSets: [toolSet], policy: { toolErrors: { kind: 'return_error' } } });
    const run = await answered.invoke({}, [{ role: 'user', content: 'weather?' }]);
    expect(run.text).toBe('ok');
    const row = run.messages.find((message) => message.role === 'tool');
    expect(row).toMatchObject({ isError: true });
    expect(JSON.stringify(row?.content)).toMatch(/celsius/);
  });
});
