import { AgentHarness, InMemoryCheckpointStore, type RunState } from '@tiny/harness';
import {
  ScriptedModel,
  scriptedInvalidToolCall,
  scriptedRefusedToolCall,
  scriptedToolCall,
} from '@tiny/harness/testkit';
import type { LanguageModelV1ToolCall } from '@tiny/llm';
import { refuseRepeatedIds } from '@tiny/provider-utils';
import { defineTool, ToolPolicy } from '@tiny/tools';
import fc from 'fast-check';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from './property-runs.js';

const RUNS = Number(process.env.REFUSED_CALLS_RUNS ?? propertyRuns(150));

// A model turn mixing calls an adapter refused (any raw text: valid JSON, relaxed JSON a repair
// would read, text cut before its brace), calls whose text is merely unreadable (a trailing comma:
// repaired), and whole calls; sometimes two of them share an id, which the shared adapter helper
// `refuseRepeatedIds` turns into a whole refused turn. Run generated or streamed, straight through
// or crashed after the checkpoint and resumed in a fresh harness. A refused call never runs; every
// other call runs exactly once.

type Kind = 'refused' | 'repairable' | 'whole';
const callSpec = fc.record({
  kind: fc.constantFrom<Kind>('refused', 'repairable', 'whole'),
  raw: fc.constantFrom<(tag: string) => string>(
    (tag) => `{"cmd":"${tag}"}`,
    (tag) => `{"cmd":"${tag}",}`,
    (tag) => `{cmd: '${tag}'}`,
    (tag) => `{"cmd":"${tag}"`,
  ),
});

function callOf(spec: { kind: Kind; raw: (tag: string) => string }, id: string): LanguageModelV1ToolCall {
  if (spec.kind === 'whole') return scriptedToolCall('run', { cmd: id }, id);
  if (spec.kind === 'repairable') return scriptedInvalidToolCall('run', `{"cmd":"${id}",}`, 'Unexpected token }', id);
  return scriptedRefusedToolCall('run', spec.raw(id), 'the stream broke its protocol; no call of it may run', id);
}

describe(`refused calls never run, mixed with repairable ones (${RUNS} runs)`, () => {
  it('generated or streamed, with or without a crash after the checkpoint', async () => {
    let refusedSeen = 0;
    let ranSeen = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(callSpec, { minLength: 1, maxLength: 4 }),
        fc.option(fc.nat(), { nil: undefined }),
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom('tool_calls' as const, 'stop' as const),
        async (specs, duplicateAt, streaming, crash, finishReason) => {
          let calls = specs.map((spec, n) => callOf(spec, `c${n}`));
          // Two calls under one id (a relay that merged two responses): the adapter helper refuses all.
          const doubled = duplicateAt !== undefined && calls.length > 1;
          if (doubled) {
            const twin = calls[(duplicateAt % (calls.length - 1)) + 1] as LanguageModelV1ToolCall;
            calls = calls.map((call) => (call === twin ? { ...call, id: 'c0' } : call));
            calls = [...refuseRepeatedIds(calls)];
          }
          // The harness re-keys a repeated id, so the tag in the arguments names each call.
          const refusedTags = new Set(
            specs.flatMap((spec, n) => (doubled || spec.kind === 'refused' ? [`c${n}`] : [])),
          );
          const runnable = specs.flatMap((spec, n) => (doubled || spec.kind === 'refused' ? [] : [`c${n}`]));
          refusedSeen += refusedTags.size;

          const ran: string[] = [];
          const run = defineTool({
            name: 'run',
            description: 'Runs a command.',
            parameters: Type.Object({ cmd: Type.String() }),
            policy: ToolPolicy.readOnly(),
            execute: ({ cmd }) => {
              ran.push(cmd);
              return 'ok';
            },
          });
          const turn = { toolCalls: calls, finishReason };
          const invoke = async (harness: AgentHarness, options = {}) =>
            streaming
              ? await harness.stream({ runId: 'r' }, 'go', options).result
              : await harness.invoke({ runId: 'r' }, 'go', options);

          if (!crash) {
            const model = new ScriptedModel({ steps: [turn, { content: 'done' }] });
            const result = await invoke(new AgentHarness({ model, tools: [run] }));
            expect(result.text).toBe('done');
          } else {
            const store = new InMemoryCheckpointStore();
            const model = new ScriptedModel({ steps: [turn] });
            await expect(
              invoke(new AgentHarness({ model, tools: [run] }), {
                onCheckpoint: async (state: RunState) => {
                  await store.save(state);
                  throw new Error('crash');
                },
              }),
            ).rejects.toThrow(/crash/);
            expect(ran).toEqual([]);
            const saved = (await store.load('r')) as RunState;
            // Streamed, two calls under one id reach the harness as one (collectStream refuses it, finish
            // `error`); otherwise each refused call is listed, so the resume refuses it too.
            if (!doubled) expect(saved.refusedCalls?.length ?? 0).toBe(refusedTags.size);
            else expect(saved.refusedCalls?.length ?? 0).toBeGreaterThan(0);
            const resumed = new AgentHarness({
              model: new ScriptedModel({ steps: [{ content: 'done' }] }),
              tools: [run],
            });
            const result = await resumed.resume({}, JSON.parse(JSON.stringify(saved)));
            expect(result.text).toBe('done');
          }
          for (const cmd of ran) expect(refusedTags.has(cmd), `refused call ${cmd} ran`).toBe(false);
          expect([...ran].sort()).toEqual([...runnable].sort());
          ranSeen += ran.length;
        },
      ),
      { numRuns: RUNS },
    );
    // The property met both sides: refused calls were offered, other calls did run.
    expect(refusedSeen).toBeGreaterThan(0);
    expect(ranSeen).toBeGreaterThan(0);
  });
});
