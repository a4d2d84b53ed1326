// A worker process: serves the durable agent service on 127.0.0.1:PORT. The tests SIGKILL it mid-run and start
// another one on the same port. STATE_DIR holds what must survive the worker: the side effects
// (effects.jsonl, one line per applied charge), the model's calls (model-calls.log) and events.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentHarness } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { createRestateAgentService, restateIdempotencyKey, serveRestateEndpoint } from '@tiny/restate';
import { defineTool, ToolPolicy } from '@tiny/tools';

const { PORT, STATE_DIR, WORKER_ID, HANG_AFTER_EFFECT } = process.env;
const file = (name) => join(STATE_DIR, name);
const lines = (name) => (existsSync(file(name)) ? readFileSync(file(name), 'utf8').split('\n').filter(Boolean) : []);

const amount = { type: 'object', required: ['cents'], properties: { cents: { type: 'integer', minimum: 1 } }, additionalProperties: false };

// Applies the charge once per idempotency key, like a payment API with an idempotency header.
function applyCharge(cents, context) {
  const key = restateIdempotencyKey(context);
  const applied = lines('effects.jsonl').map((line) => JSON.parse(line));
  if (!applied.some((effect) => effect.key === key)) {
    appendFileSync(file('effects.jsonl'), `${JSON.stringify({ key, cents, worker: WORKER_ID, runId: context.runId })}\n`);
  }
  return key;
}

const charge = defineTool({
  name: 'charge',
  description: 'Charge the customer card.',
  parameters: amount,
  policy: ToolPolicy.classified().withSideEffects({ payment: true }),
  execute: async ({ cents }, context) => {
    applyCharge(cents, context);
    if (HANG_AFTER_EFFECT === '1') {
      writeFileSync(file('effect-recorded'), WORKER_ID);
      await new Promise(() => setInterval(() => {}, 60_000)); // wait for the parent's SIGKILL
    }
    return `charged ${cents}`;
  },
});

const refund = defineTool({
  name: 'refund',
  description: 'Refund the customer (needs a human approval).',
  parameters: amount,
  policy: ToolPolicy.classified().withSideEffects({ payment: true }).requiringApproval(),
  execute: ({ cents }, context) => {
    applyCharge(-cents, context);
    return `refunded ${cents}`;
  },
});

const lookup = defineTool({
  name: 'lookup',
  description: 'Look up an order.',
  parameters: { type: 'object', required: ['order'], properties: { order: { type: 'string' } } },
  policy: ToolPolicy.readOnly(),
  execute: ({ order }) => `order ${order}: 5 EUR`,
});

// Deterministic on any worker: the answer depends only on the request, never on a call counter.
const model = new ScriptedModel({
  repeatLast: true,
  steps: [
    (request) => {
      const user = request.messages.find((message) => message.role === 'user')?.content ?? '';
      const tools = request.messages.filter((message) => message.role === 'tool');
      const turn = request.messages.filter((message) => message.role === 'assistant').length + 1;
      appendFileSync(file('model-calls.log'), `${WORKER_ID} turn=${turn}\n`);
      const [tool, cents] = user.startsWith('refund') ? ['refund', 300] : ['charge', 500];
      if (tools.length === 0) {
        return { toolCalls: [scriptedToolCall('lookup', { order: 'A1' }, 'lookup-1'), scriptedToolCall(tool, { cents }, `${tool}-1`)] };
      }
      return { content: `Done: ${tools.map((message) => message.content).join('; ')}` };
    },
  ],
});

const service = createRestateAgentService({
  name: 'agent',
  harness: () => new AgentHarness({ model, tools: [lookup, charge, refund] }),
  onEvents: (events, run) => {
    for (const event of events) appendFileSync(file('events.log'), `${run.runId} ${event.type}\n`);
  },
});

// Loopback only: restate.serve() would listen on every interface.
await serveRestateEndpoint({ services: [service], port: Number(PORT), host: '127.0.0.1' });
process.send?.({ type: 'listening' });
