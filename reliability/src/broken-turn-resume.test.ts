import { AgentHarness, InMemoryCheckpointStore, InMemoryToolEffectLedger, type RunState } from '@tiny/harness';
import { ScriptedModel, type ScriptedStep, scriptedToolCall } from '@tiny/harness/testkit';
import type { LanguageModelV1FinishReason } from '@tiny/llm';
import { defineTool, ToolPolicy } from '@tiny/tools';
import fc from 'fast-check';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';

const RUNS = Number(process.env.BROKEN_TURN_RUNS ?? 300);
const BROKEN = new Set(['length', 'content_filter', 'error']);

const turn = fc.record({
  finishReason: fc.constantFrom('length', 'content_filter', 'error', 'other', 'stop', 'tool_calls'),
  calls: fc.integer({ min: 1, max: 2 }),
});

describe(`a broken turn's refusal survives a crash at any checkpoint (${RUNS} runs)`, () => {
  it('crash after each checkpoint write (in the listener or in the next model call), then resume: refused calls never run', async () => {
    let ranRefused = 0;
    let doubleRuns = 0;
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(turn, { minLength: 1, maxLength: 3 }),
        fc.nat(),
        fc.constantFrom('listener', 'next_model'),
        fc.constantFrom('refuse', 'execute'),
        async (turns, at, crash, resumePolicy) => {
          cases += 1;
          const crashAt = (at % turns.length) + 1;
          const ran: string[] = [];
          const send = defineTool({
            name: 'send',
            description: 'Send a message.',
            parameters: Type.Object({ to: Type.String() }),
            policy: ToolPolicy.classified().withSideEffects({ network: true }),
            execute: ({ to }) => {
              ran.push(to);
              return 'sent';
            },
          });
          const steps: ScriptedStep[] = turns.map((spec, index) => ({
            toolCalls: Array.from({ length: spec.calls }, (_, n) =>
              scriptedToolCall('send', { to: `t${index}c${n}` }, `t${index}c${n}`),
            ),
            finishReason: spec.finishReason as LanguageModelV1FinishReason,
          }));
          const refusedIds = new Set(
            turns.flatMap((spec, index) =>
              BROKEN.has(spec.finishReason) ? Array.from({ length: spec.calls }, (_, n) => `t${index}c${n}`) : [],
            ),
          );
          const store = new InMemoryCheckpointStore();
          const ledger = new InMemoryToolEffectLedger();
          let saved = 0;
          const first = new AgentHarness({
            model: new ScriptedModel({
              steps: crash === 'next_model' ? steps.slice(0, crashAt) : [...steps, { content: 'done' }],
            }),
            tools: [send],
            ledger,
          });
          await expect(
            first.invoke({ runId: 'r' }, [{ role: 'user', content: 'go' }], {
              onCheckpoint: async (state) => {
                await store.save(state);
                saved += 1;
                if (crash === 'listener' && saved === crashAt) throw new Error('crash');
              },
            }),
          ).rejects.toThrow();
          const state = (await store.load('r')) as RunState;
          const second = new AgentHarness({
            model: new ScriptedModel({ steps: [...steps.slice(crashAt), { content: 'done' }] }),
            tools: [send],
            ledger,
            policy: { brokenTurnCalls: resumePolicy },
          });
          await second.resume({}, state, { onCheckpoint: (next) => store.save(next) });
          const refusedRan = ran.filter(
            (id) => refusedIds.has(id) && (resumePolicy === 'refuse' || id < `t${crashAt}`),
          );
          if (refusedRan.length > 0) ranRefused += 1;
          if (new Set(ran).size !== ran.length) doubleRuns += 1;
          expect(refusedRan).toEqual([]);
          expect(new Set(ran).size).toBe(ran.length);
        },
      ),
      { numRuns: RUNS },
    );
    console.log(
      `broken-turn resume: refused calls run ${ranRefused} of ${cases}, double runs ${doubleRuns} of ${cases}`,
    );
  }, 120_000);
});
