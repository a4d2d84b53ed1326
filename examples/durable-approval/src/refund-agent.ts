import { AgentHarness } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { createRestateAgentService, restateIdempotencyKey } from '@tiny/restate';
import { defineTool, ToolPolicy } from '@tiny/tools';

/** Refunds applied, keyed by idempotency key (a stand-in for a payment API that dedupes by key). */
export const refunds = new Map<string, number>();

const refund = defineTool({
  name: 'refund',
  description: 'Refund the customer. A human must approve every refund.',
  parameters: {
    type: 'object',
    required: ['order', 'cents'],
    properties: { order: { type: 'string' }, cents: { type: 'integer', minimum: 1 } },
    additionalProperties: false,
  },
  policy: ToolPolicy.classified().withSideEffects({ payment: true }).requiringApproval(),
  execute: ({ order, cents }, context) => {
    refunds.set(restateIdempotencyKey(context), cents);
    return `refunded ${cents} cents on order ${order}`;
  },
});

// The scripted model answers from the request alone, so any worker gives the same answer.
const model = new ScriptedModel({
  repeatLast: true,
  steps: [
    (request) => {
      const result = request.messages.findLast((message) => message.role === 'tool');
      if (result === undefined)
        return { toolCalls: [scriptedToolCall('refund', { order: 'A-17', cents: 1250 }, 'refund-1')] };
      return { content: `Refund handled: ${result.content}` };
    },
  ],
});

/** The durable agent: `refund-agent/<runId>/run` on the Restate ingress. */
export const refundAgent = createRestateAgentService({
  name: 'refund-agent',
  harness: () => new AgentHarness({ model, tools: [refund] }),
  onEvents: (events) => {
    for (const event of events) if (event.type.startsWith('tool_')) console.log(`  event: ${event.type}`);
  },
});
