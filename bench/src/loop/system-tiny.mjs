// tiny (@tiny/harness): AgentHarness with a LanguageModelV1 that replays tool calls, and one
// trivial `add` tool defined with a TypeBox schema, as the harness README shows.
import { AgentHarness } from '@tiny/harness';
import { createModelProfile } from '@tiny/llm';
import { defineTool } from '@tiny/tools';
import { Type } from 'typebox';
import { createOwnClock, reportTurn } from './own-clock.mjs';

/**
 * Builds one run of `turns` turns with `callsPerTurn` calls of `add` each, then a final answer.
 * `recordEvents: false` is the harness's documented fast path (no listener, no event log).
 */
export function createTinyRun(turns, callsPerTurn, { recordEvents = true } = {}) {
  const clock = createOwnClock();
  const add = defineTool({
    name: 'add',
    description: 'Add two integers.',
    parameters: Type.Object({ a: Type.Integer(), b: Type.Integer() }, { additionalProperties: false }),
    isConcurrencySafe: () => true,
    execute: ({ a, b }) => clock.time(() => String(a + b)),
  });
  let call = 0;
  const usage = { inputTokens: 1, outputTokens: 1 };
  const model = {
    specificationVersion: 'v1',
    provider: 'bench',
    modelId: 'scripted',
    profile: createModelProfile(),
    async doGenerate() {
      return clock.time(() => {
        const turn = call++;
        reportTurn(turn);
        if (turn >= turns) return { content: 'done', toolCalls: [], finishReason: 'stop', usage, warnings: [] };
        const toolCalls = [];
        for (let k = 0; k < callsPerTurn; k++) {
          toolCalls.push({ id: `t${turn}c${k}`, name: 'add', arguments: { a: turn, b: k }, rawArguments: '{}' });
        }
        return { content: '', toolCalls, finishReason: 'tool_calls', usage, warnings: [] };
      });
    },
    doStream() {
      throw new Error('not used');
    },
  };
  const harness = new AgentHarness({
    model,
    tools: [add],
    limits: { maxModelCalls: turns + 2, maxToolCalls: turns * callsPerTurn + 1 },
  });
  return async () => {
    const run = await harness.invoke(
      {},
      [{ role: 'user', content: 'add things' }],
      recordEvents ? {} : { recordEvents: false },
    );
    return { result: run, toolCalls: run.toolCalls, ownUs: clock.us };
  };
}
