import { AgentHarness, InMemoryToolEffectLedger } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { defineTool } from '@tiny/tools';
import fc from 'fast-check';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from './property-runs.js';

const RUNS = Number(process.env.KEY_RUNS ?? propertyRuns(200));

describe(`idempotency keys carry nothing the host injects (${RUNS} runs)`, () => {
  it('the stored and handed-out key is the same whatever the injected secret', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 9999 })),
        fc.record({ cents: fc.integer(), memo: fc.string({ maxLength: 10 }) }),
        fc.boolean(),
        async ([first, second], args, withRule) => {
          const keys: string[] = [];
          for (const pin of [first, second]) {
            const ledger = new InMemoryToolEffectLedger();
            const pay = defineTool({
              name: 'pay',
              description: '',
              parameters: Type.Object({ cents: Type.Integer(), memo: Type.String(), pin: Type.String() }),
              injected: [{ name: 'pin', source: 'host' }],
              execute: (_args, context) => context.idempotencyKey ?? '',
            });
            const model = new ScriptedModel({
              steps: [{ toolCalls: [scriptedToolCall('pay', args, 'p1')] }, { content: 'ok' }],
            });
            const rule = withRule ? (call: { arguments: unknown }) => JSON.stringify(call.arguments) : undefined;
            const run = await new AgentHarness({ model, tools: [pay], ledger, idempotencyKey: rule }).invoke(
              { runId: 'r', hostValues: { pin: String(pin).padStart(4, '0') } },
              [{ role: 'user', content: 'pay' }],
            );
            const key = ledger.rows('r')[0]?.idempotencyKey ?? '';
            expect(run.messages.find((message) => message.role === 'tool')?.content).toBe(key);
            // The host rule sees the model-visible arguments only.
            if (withRule) expect(key).toBe(JSON.stringify(args));
            keys.push(key);
          }
          expect(keys[0]).toBe(keys[1]);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
