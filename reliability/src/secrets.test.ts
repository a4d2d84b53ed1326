import { AgentHarness, DeferredToolResults, serializeRunState } from '@tiny/harness';
import { ScriptedModel, scriptedInvalidToolCall, scriptedToolCall } from '@tiny/harness/testkit';
import { defineTool, ToolPolicy } from '@tiny/tools';
import fc from 'fast-check';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';

const RUNS = Number(process.env.LOOP_RUNS ?? 400);

describe(`secrets never leave the host (${RUNS} random runs)`, () => {
  it('keeps injected values out of requests, events (capture on or off), errors and run state', async () => {
    const secretArb = fc.string({ minLength: 6, maxLength: 24 }).map((body) => `sk-${body}-\u2063`);
    await fc.assert(
      fc.asyncProperty(
        secretArb,
        fc.boolean(),
        fc.constantFrom('native', 'xml', 'pformat', 'python') as fc.Arbitrary<'native' | 'xml' | 'pformat' | 'python'>,
        fc.array(
          fc.oneof(
            fc.record({ to: fc.string({ maxLength: 5 }), apiKey: fc.string({ maxLength: 5 }) }),
            fc.record({ to: fc.constant('x'), apiKey: fc.integer() }),
            fc.jsonValue({ maxDepth: 2 }),
          ),
          { minLength: 1, maxLength: 3 },
        ),
        fc.boolean(),
        async (secret, capture, dialect, argsList, pause) => {
          const failing = defineTool({
            name: 'leaky',
            description: 'Throws with its key in the message on purpose.',
            parameters: Type.Object({ apiKey: Type.String() }),
            injected: [{ name: 'apiKey', source: 'host' }],
            execute: ({ apiKey }) => {
              throw new Error(`upstream rejected ${apiKey.length}-char key`);
            },
          });
          const send = defineTool({
            name: 'send',
            description: 'Send.',
            parameters: Type.Object({ to: Type.String(), apiKey: Type.String() }, { additionalProperties: false }),
            injected: [{ name: 'apiKey', source: 'host' }],
            policy: ToolPolicy.classified().withSideEffects({ network: true }).requiringApproval(),
            execute: ({ to }) => `sent to ${to}`,
          });
          const steps = [
            { toolCalls: argsList.map((args, n) => scriptedToolCall('send', args, `s${n}`)) },
            {
              toolCalls: [
                scriptedToolCall('leaky', {}, 'l1'),
                scriptedInvalidToolCall('send', '{"apiKey": "guess"', 'bad', 'l2'),
              ],
            },
            { content: 'done' },
          ];
          const model = new ScriptedModel({ steps, profile: { toolCalling: dialect === 'native' } });
          const harness = new AgentHarness({
            model,
            tools: [send, failing],
            policy: { captureToolIo: capture, toolDialect: dialect, toolErrors: { kind: 'return_error' } },
          });
          const seen: string[] = [];
          const run = await harness
            .invoke({ hostValues: { apiKey: secret } }, [{ role: 'user', content: 'go' }], {
              onEvent: (event) => seen.push(JSON.stringify(event)),
              onCheckpoint: (state) => {
                seen.push(serializeRunState(state));
              },
              deferredToolHandler: pause
                ? undefined
                : (pending) => {
                    const results = new DeferredToolResults();
                    for (const call of pending.approvals) results.approve(call.callId);
                    return results;
                  },
            })
            .catch((error: unknown) => ({ error }));
          const everything = [JSON.stringify(model.requests), ...seen, JSON.stringify(run)];
          if ('state' in run && run.state) everything.push(serializeRunState(run.state));
          if ('error' in run) everything.push(String(run.error), JSON.stringify(run.error));
          for (const text of everything) expect(text.includes(secret)).toBe(false);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
