// A paused-run scenario shared by the in-process test and the child process that resumes it.
// Imports the built package by name, so both sides run the same code.
import { AgentHarness } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { ToolPolicy, defineTool } from '@tiny/tools';

/** `resumed`: the model starts at the step after the pause, as a fresh process would. */
export function createScenario({ resumed = false } = {}) {
  const ledger = [];
  const transfer = defineTool({
    name: 'transfer',
    description: 'Move money.',
    parameters: {
      type: 'object',
      required: ['to', 'cents'],
      additionalProperties: false,
      properties: { to: { type: 'string' }, cents: { type: 'integer' } },
    },
    policy: ToolPolicy.classified().withSideEffects({ payment: true }).requiringApproval(),
    execute: ({ to, cents }) => {
      ledger.push(`${to}:${cents}`);
      return `sent ${cents} to ${to}`;
    },
  });
  const balance = defineTool({
    name: 'balance',
    description: 'Read the balance.',
    parameters: { type: 'object', properties: {} },
    policy: ToolPolicy.readOnly(),
    execute: () => '1000',
  });
  const steps = [
      {
        toolCalls: [
          scriptedToolCall('balance', {}, 'b1'),
          scriptedToolCall('transfer', { to: 'ada', cents: 500 }, 't1'),
          scriptedToolCall('transfer', { to: 'bob', cents: 100 }, 't2'),
        ],
      },
      (request) => ({
        content: `done after ${request.messages.filter((message) => message.role === 'tool').length} results`,
      }),
  ];
  const model = new ScriptedModel({ steps: resumed ? steps.slice(1) : steps });
  const harness = new AgentHarness({ model, tools: [transfer, balance] });
  return { harness, ledger, model };
}
