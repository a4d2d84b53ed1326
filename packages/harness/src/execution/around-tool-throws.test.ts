import { defineTool } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { InMemoryToolEffectLedger } from '../ledger/in-memory-tool-effect-ledger.js';
import type { AgentMiddleware } from '../middleware/agent-middleware.js';
import { ScriptedModel, scriptedToolCall, toolEventViolations } from '../testkit/index.js';

// A tool's `idempotencyKey` and `timeoutPolicy` are the tool's own code: a throw of either is a
// failure of the call like a throw of `execute` (the tool-error policy decides), and its text
// passes the tool boundary (no sensitive argument in what the model or the host reads).

const secret = 'hunter2-sensitive-value';
const parameters = Type.Object({ password: Type.String({ 'x-tiny-sensitive': true }) });
const passthrough: AgentMiddleware = { name: 'passthrough', wrapTool: (call, next) => next(call) };

const cases = {
  idempotencyKey: () =>
    defineTool({
      name: 'login',
      description: 'Logs in.',
      parameters,
      idempotencyKey: ({ password }) => {
        throw new Error(`no key for ${password}`);
      },
      execute: async () => 'in',
    }),
  timeoutPolicy: () =>
    defineTool({
      name: 'login',
      description: 'Logs in.',
      parameters,
      timeoutPolicy: ({ password }) => {
        throw new Error(`no key for ${password}`);
      },
      execute: async () => 'in',
    }),
};

function model(requests: string[]) {
  return new ScriptedModel({
    steps: [
      { toolCalls: [scriptedToolCall('login', { password: secret }, 'c1')] },
      (request) => {
        // What the model reads of the call's result (its own call, in the history, holds the value).
        requests.push(JSON.stringify(request.messages.filter((message) => message.role === 'tool')));
        return { content: 'done' };
      },
    ],
  });
}

describe('a throw of the function the harness runs around the tool', () => {
  for (const [name, tool] of Object.entries(cases)) {
    for (const wrapped of [false, true]) {
      const label = `${name}${wrapped ? ' (under wrapTool)' : ''}`;
      it(`${label}: goes through the tool-error policy, scrubbed`, async () => {
        const requests: string[] = [];
        const run = await new AgentHarness({
          model: model(requests),
          tools: [tool()],
          ledger: new InMemoryToolEffectLedger(),
          middleware: wrapped ? [passthrough] : [],
          policy: { toolErrors: { kind: 'return_error' } },
        }).invoke('go');
        expect(run.outcome).toBe('final');
        expect(requests[0]).toContain('no key for');
        expect(requests[0]).not.toContain(secret);
        expect(run.events.find((event) => event.type === 'tool_completed')).toMatchObject({ callId: 'c1' });
        expect(toolEventViolations(run.events)).toEqual([]);
      });

      it(`${label}: under the default policy fails the run with a scrubbed ToolExecutionError`, async () => {
        const error = await new AgentHarness({
          model: model([]),
          tools: [tool()],
          ledger: new InMemoryToolEffectLedger(),
          middleware: wrapped ? [passthrough] : [],
        })
          .invoke('go')
          .catch((thrown: unknown) => thrown);
        expect(error).toMatchObject({ name: 'ToolExecutionError', callId: 'c1' });
        expect((error as Error).message).toContain('no key for');
        expect(
          JSON.stringify({ message: (error as Error).message, cause: String((error as Error).cause) }),
        ).not.toContain(secret);
      });
    }
  }
});
