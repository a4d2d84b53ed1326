import { defineTool, type ToolExecutionContext, ToolPolicy, ToolResult } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import type { AgentMiddleware } from '../middleware/agent-middleware.js';
import type { RunContext } from '../run/run-context.js';
import { eventsOfType, ScriptedModel, scriptedToolCall } from '../testkit/index.js';

/** A parent tool that calls `name` once through `context.callTool` and reports what happened. */
function setup(options: { approval?: boolean; middleware?: AgentMiddleware[]; context?: RunContext } = {}) {
  const ran: string[] = [];
  const inner = defineTool({
    name: 'inner',
    description: 'Only reachable through the parent.',
    parameters: Type.Object({ n: Type.Integer() }),
    ...(options.approval ? { policy: ToolPolicy.unclassified().withAccess({ approvalRequired: true }) } : {}),
    execute: ({ n }) => {
      ran.push(`inner:${n}`);
      return n * 2;
    },
  });
  const parent = {
    name: 'parent',
    description: 'Calls inner.',
    parameters: { type: 'object', properties: { n: {} } },
    nestedTools: [inner],
    execute: async (args: { n?: unknown }, context: ToolExecutionContext) => {
      try {
        return `ok:${(await context.callTool?.('inner', { n: args.n }))?.output()}`;
      } catch (error) {
        return `refused:${(error as Error).name}:${(error as Error).message}`;
      }
    },
  };
  const model = new ScriptedModel({
    steps: [{ toolCalls: [scriptedToolCall('parent', { n: 3 }, 'c1')] }, { content: 'done' }],
  });
  const harness = new AgentHarness({ model, tools: [parent], middleware: options.middleware ?? [] });
  return {
    ran,
    model,
    go: async (n: unknown = 3) => {
      model.requests.length = 0;
      const run = await harness.invoke(options.context ?? {}, [{ role: 'user', content: String(n) }]);
      const row = run.messages.find((message) => message.role === 'tool');
      return { run, output: row?.role === 'tool' ? String(row.content) : '' };
    },
  };
}

describe('nested calls to a tool’s nestedTools', () => {
  it('runs a tool offered only to its parent, as `<parent>/<n>`', async () => {
    const { go, ran, model } = setup();
    const { run, output } = await go();
    expect(output).toBe('ok:6');
    expect(ran).toEqual(['inner:3']);
    expect(model.requests[0]?.tools?.map((tool) => tool.name)).toEqual(['parent']);
    const started = eventsOfType(run.events, 'tool_started').find((event) => event.toolName === 'inner');
    expect(started).toMatchObject({ callId: 'c1/1', parentCallId: 'c1' });
  });

  it('refuses an approval-requiring nested tool instead of pausing', async () => {
    const { go, ran } = setup({ approval: true });
    const { output } = await go();
    expect(output).toMatch(/^refused:ToolExecutionError:.*approval_required; a nested call cannot pause/);
    expect(ran).toEqual([]);
  });

  it('runs beforeTool hooks on nested calls; an answer stands for the result', async () => {
    const seen: string[] = [];
    const hook: AgentMiddleware = {
      name: 'deny_inner',
      beforeTool: (call, context) => {
        seen.push(`${call.id}:${call.name}:${context.lookupTool(call.name)?.name}`);
        return call.name === 'inner' ? { respond: ToolResult.error('denied by policy') } : undefined;
      },
    };
    const { go, ran } = setup({ middleware: [hook] });
    const { output } = await go();
    expect(output).toBe('ok:denied by policy');
    expect(seen).toEqual(['c1:parent:parent', 'c1/1:inner:inner']);
    expect(ran).toEqual([]);
  });

  it('applies the host allow-list to nested names', async () => {
    const { go, ran } = setup({ context: { host: { allowedTools: ['parent'] } } });
    const { output } = await go();
    expect(output).toMatch(/^refused:ToolNotFoundError:/);
    expect(ran).toEqual([]);
  });
});
