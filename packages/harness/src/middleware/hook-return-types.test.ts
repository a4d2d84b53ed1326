import { defineTool, ToolResult } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { MiddlewareError } from '../errors/middleware-error.js';
import { ScriptedModel, scriptedToolCall } from '../testkit/index.js';
import type { AgentMiddleware } from './agent-middleware.js';

// A hook that returns a value its type does not allow fails the run with MiddlewareError naming
// the hook: it is never blamed on the tool, never recorded, never a raw TypeError.

const open = { type: 'object', properties: {}, additionalProperties: true } as const;
const echo = defineTool({ name: 'echo', description: 'echo', parameters: open, execute: () => 'ok' });
const live = () => Object.assign(() => 'x', { toJSON: () => 'live' });

function oneCall(): ScriptedModel {
  return new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall('echo', {}, 'a')] }, { content: 'done' }] });
}

type Hooks = Omit<AgentMiddleware, 'name'>;

const cases: [string, string, Hooks][] = [
  ['afterTool returning a number', 'afterTool', { afterTool: () => 42 as never }],
  [
    'afterTool returning a plain object',
    'afterTool',
    { afterTool: () => ({ content: live(), isError: false }) as never },
  ],
  ['beforeTool returning a number', 'beforeTool', { beforeTool: () => 42 as never }],
  ['beforeTool responding a number', 'beforeTool', { beforeTool: () => ({ respond: 42 as never }) }],
  ['beforeTool responding a plain object', 'beforeTool', { beforeTool: () => ({ respond: { content: [] } as never }) }],
  ['beforeTool renaming to a function', 'beforeTool', { beforeTool: (call) => ({ ...call, name: live() as never }) }],
  ['wrapTool returning a number', 'wrapTool', { wrapTool: async () => 42 as never }],
  ['wrapTool returning a plain object', 'wrapTool', { wrapTool: async () => ({ content: live() }) as never }],
  ['filterTools returning a number', 'filterTools', { filterTools: () => 42 as never }],
  ['filterTools returning [null]', 'filterTools', { filterTools: () => [null] as never }],
  ['filterTools returning a tool it was not given', 'filterTools', { filterTools: () => [{ name: 'echo' }] as never }],
];

describe('a tool hook that returns a value of the wrong type', () => {
  for (const [name, hook, hooks] of cases) {
    it(`${name}: the run fails with MiddlewareError naming ${hook}`, async () => {
      const events: string[] = [];
      const error = await new AgentHarness({ model: oneCall(), tools: [echo], middleware: [{ name: 'm', ...hooks }] })
        .invoke('go', { onEvent: (event) => events.push(event.type) })
        .catch((thrown: unknown) => thrown);
      expect(MiddlewareError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ middleware: 'm', hook });
      expect(events).not.toContain('tool_completed');
    });
  }

  it('hooks returning values of the right types run as before', async () => {
    const middleware: AgentMiddleware = {
      name: 'm',
      filterTools: (tools) => tools.filter(() => true),
      beforeTool: (call) => ({ ...call, name: 'echo' }),
      wrapTool: (call, next) => next(call),
      afterTool: () => ToolResult.success('changed'),
    };
    const run = await new AgentHarness({ model: oneCall(), tools: [echo], middleware: [middleware] }).invoke('go');
    expect(run.outcome).toBe('final');
    expect(JSON.stringify(run.messages.find((message) => message.role === 'tool'))).toContain('changed');
  });
});
