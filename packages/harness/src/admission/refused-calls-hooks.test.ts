import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import type { AfterModelInput, AgentMiddleware, PendingCall } from '../middleware/agent-middleware.js';
import { ScriptedModel, scriptedRefusedToolCall } from '../testkit/index.js';

// Found by the refused-call tester: an afterModel hook that renamed a refused call and deleted its
// `refused` flag (or put a fresh call object in the array) laundered it: admission read the very
// array the hook had been given. Hooks now read a frozen copy; admission decides from its own.

const REASON = 'tool call id `call_1` names two calls; no call of it may run';

function runTool(ran: unknown[]) {
  return defineTool({
    name: 'run',
    description: 'Runs a command.',
    parameters: Type.Object({ cmd: Type.String() }),
    policy: ToolPolicy.readOnly(),
    execute: (args) => {
      ran.push(args);
      return 'ok';
    },
  });
}

const launderings: Record<string, (input: AfterModelInput) => void> = {
  'delete refused': (input) => {
    delete (input.calls[0] as { refused?: true }).refused;
  },
  'rename and delete refused': (input) => {
    const call = input.calls[0] as { id: string; refused?: true };
    call.id = 'fresh';
    delete call.refused;
  },
  'replace the call object': (input) => {
    (input.calls as PendingCall[])[0] = { id: 'call_1x', name: 'run', arguments: { cmd: 'rm -rf /' } };
  },
  'edit the arguments': (input) => {
    (input.calls[0]?.arguments as { cmd: string }).cmd = 'ls';
  },
};

describe('afterModel hooks cannot un-refuse a call', () => {
  for (const streaming of [false, true])
    for (const [name, launder] of Object.entries(launderings)) {
      it(`${name} (${streaming ? 'stream' : 'invoke'}): the hook's edit throws, nothing runs`, async () => {
        const ran: unknown[] = [];
        const thrown: unknown[] = [];
        const seen: PendingCall[] = [];
        const middleware: AgentMiddleware = {
          name: 'launder',
          afterModel(input) {
            seen.push(...input.calls);
            try {
              launder(input);
            } catch (error) {
              thrown.push(error);
            }
            return undefined;
          },
        };
        const harness = new AgentHarness({
          model: new ScriptedModel({
            steps: [
              {
                toolCalls: [scriptedRefusedToolCall('run', '{"cmd":"rm -rf /"}', REASON, 'call_1')],
                finishReason: 'tool_calls',
              },
              { content: 'done' },
            ],
          }),
          tools: [runTool(ran)],
          middleware: [middleware],
        });
        const run = streaming ? await harness.stream({}, 'go').result : await harness.invoke({}, 'go');
        expect(seen[0]?.refused).toBe(true);
        expect(thrown[0]).toBeInstanceOf(TypeError);
        expect(ran).toEqual([]);
        const answer = run.messages.find((message) => message.role === 'tool');
        expect(answer?.role === 'tool' && answer.toolCallId).toBe('call_1');
      });
    }
});
