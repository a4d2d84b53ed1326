import { AgentHarness, InMemoryCheckpointStore, InMemoryToolEffectLedger, type RunState } from '@tiny/harness';
import { ScriptedModel, type ScriptedStep, scriptedToolCall } from '@tiny/harness/testkit';
import type { LanguageModelV1FinishReason, LanguageModelV1StreamPart } from '@tiny/llm';
import { defineTool, ToolPolicy } from '@tiny/tools';
import fc from 'fast-check';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from './property-runs.js';

const RUNS = Number(process.env.BROKEN_TURN_RUNS ?? propertyRuns(300));
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

const FINISH_RUNS = Number(process.env.BROKEN_FINISH_RUNS ?? propertyRuns(200));
const NORMAL = new Set<unknown>(['stop', 'tool_calls', 'other']);

/** Finish reasons a model may report: the spec's, near-misses, and non-strings from a custom model. */
const finishReason = fc.oneof(
  fc.constantFrom<unknown>('stop', 'tool_calls', 'other', 'length', 'content_filter', 'error'),
  fc.constantFrom<unknown>('max_tokens', 'unknown', 'LENGTH', 'Stop', 'end_turn', '', undefined, null, 0),
  fc.string({ maxLength: 8 }),
);

describe(`odd finish reasons and streams without a finish part never run their calls (${FINISH_RUNS} runs)`, () => {
  it('only stop, tool_calls and other run calls; a stream that ends without finish (complete or cut) is broken', async () => {
    let wrong = 0;
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(
        finishReason,
        fc.constantFrom('generate', 'stream_finish', 'stream_no_finish'),
        fc.boolean(),
        async (reason, mode, cut) => {
          cases += 1;
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
          // The streamed first turn is hand-made: the script holds only what follows it.
          const model = new ScriptedModel({
            steps: [
              ...(mode === 'generate' ? [{ toolCalls: [scriptedToolCall('send', { to: 'a' }, 'c1')] }] : []),
              { content: 'done' },
            ],
            repeatLast: true,
          });
          let first = true;
          const generate = model.doGenerate.bind(model);
          model.doGenerate = async (request) => {
            const response = await generate(request);
            if (!first) return response;
            first = false;
            return { ...response, finishReason: reason as LanguageModelV1FinishReason };
          };
          const stream = model.doStream.bind(model);
          model.doStream = async (request) => {
            if (!first) return stream(request);
            first = false;
            return {
              warnings: [],
              stream: (async function* () {
                yield { type: 'tool_call_start' as const, id: 'c1', name: 'send' };
                yield { type: 'tool_call_delta' as const, id: 'c1', argumentsDelta: cut ? '{"to":"a"' : '{"to":"a"}' };
                if (!cut) yield { type: 'tool_call_end' as const, id: 'c1' };
                if (mode === 'stream_finish')
                  yield { type: 'finish' as const, finishReason: reason as LanguageModelV1FinishReason, usage: {} };
              })(),
            };
          };
          const harness = new AgentHarness({
            model,
            tools: [send],
            policy: { invalidArgs: 'normalize_then_return_tool_error' },
          });
          if (mode === 'generate') await harness.invoke({}, [{ role: 'user', content: 'go' }]);
          else {
            const run = harness.stream({}, [{ role: 'user', content: 'go' }]);
            for await (const _event of run) {
              // drain
            }
            await run.result;
          }
          // A normal finish with cut arguments is the repair policy's to judge (repaired or answered).
          const mayRun = NORMAL.has(reason) && mode !== 'stream_no_finish';
          if (!mayRun && ran.length > 0) wrong += 1;
          if (!mayRun) expect(ran).toEqual([]);
          else if (mode === 'generate' || !cut) expect(ran).toEqual(['a']);
        },
      ),
      { numRuns: FINISH_RUNS },
    );
    console.log(`broken-turn finish reasons: calls run from a broken or unfinished turn ${wrong} of ${cases}`);
  }, 120_000);
});

const AFTER_RUNS = Number(process.env.BROKEN_AFTER_FINISH_RUNS ?? propertyRuns(200));
const SPEC_REASONS = ['stop', 'tool_calls', 'other', 'length', 'content_filter', 'error'] as const;

/** What may follow a stream's first finish: metadata, another finish, content or a call. */
const tailPart = fc.oneof(
  fc.constant<'metadata'>('metadata'),
  fc.constantFrom(...SPEC_REASONS).map((reason) => ({ finish: reason })),
  fc.constantFrom<'text' | 'reasoning' | 'refusal' | 'call' | 'call_end'>(
    'text',
    'reasoning',
    'refusal',
    'call',
    'call_end',
  ),
);

describe(`the first finish of a stream is final (${AFTER_RUNS} runs)`, () => {
  it('a non-normal finish is never upgraded, and content or a call after a finish breaks the turn', async () => {
    let wrong = 0;
    let cases = 0;
    let broken = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...SPEC_REASONS),
        fc.array(tailPart, { maxLength: 4 }),
        fc.boolean(),
        async (firstReason, tail, callBefore) => {
          cases += 1;
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
          const call = (id: string, to: string): LanguageModelV1StreamPart[] => [
            { type: 'tool_call_start', id, name: 'send' },
            { type: 'tool_call_delta', id, argumentsDelta: JSON.stringify({ to }) },
            { type: 'tool_call_end', id },
          ];
          const parts: LanguageModelV1StreamPart[] = [
            ...(callBefore ? call('c1', 'before') : []),
            { type: 'finish', finishReason: firstReason, usage: {} },
          ];
          let late = 0;
          for (const piece of tail) {
            if (piece === 'metadata') parts.push({ type: 'response_metadata', id: 'r' });
            else if (piece === 'text') parts.push({ type: 'text_delta', delta: 'x' });
            else if (piece === 'reasoning') parts.push({ type: 'reasoning_delta', delta: 'x' });
            else if (piece === 'refusal') parts.push({ type: 'refusal_delta', delta: 'x' });
            else if (piece === 'call') parts.push(...call(`late${late++}`, 'after'));
            else if (piece === 'call_end') parts.push({ type: 'tool_call_end', id: 'c1' });
            else parts.push({ type: 'finish', finishReason: piece.finish, usage: {} });
          }
          const violated = tail.some(
            (piece) => piece !== 'metadata' && !(typeof piece === 'object' && piece.finish === firstReason),
          );
          const model = new ScriptedModel({ steps: [{ content: 'done' }], repeatLast: true });
          const stream = model.doStream.bind(model);
          let first = true;
          model.doStream = async (request) => {
            if (!first) return stream(request);
            first = false;
            return {
              warnings: [],
              stream: (async function* () {
                yield* parts;
              })(),
            };
          };
          const run = new AgentHarness({ model, tools: [send] }).stream({}, [{ role: 'user', content: 'go' }]);
          for await (const _event of run) {
            // drain
          }
          const done = await run.result;
          const completed = done.events.find((event) => event.type === 'model_completed');
          if (violated) broken += 1;
          const expected = callBefore && NORMAL.has(firstReason) && !violated ? ['before'] : [];
          if (JSON.stringify(ran) !== JSON.stringify(expected)) wrong += 1;
          expect(ran).toEqual(expected);
          expect(completed).toMatchObject({ finishReason: violated ? 'error' : firstReason });
        },
      ),
      { numRuns: AFTER_RUNS },
    );
    console.log(
      `stream parts after the first finish: wrong runs ${wrong} of ${cases} (turns broken by a late part: ${broken})`,
    );
  }, 120_000);
});
