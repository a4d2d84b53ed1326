// OpenAI Agents JS (agents-core 0.14): an `Agent` with a `tool()` (zod parameters) run by a
// `Runner`, on a fake `Model` whose `getResponse` replays function calls. Tracing is disabled:
// with agents-core alone no exporter is configured, and spans would be built for nothing.
import { Agent, Runner, tool, Usage } from '@openai/agents-core';
import { z } from 'zod';
import { createOwnClock, reportTurn } from './own-clock.mjs';

/** Builds one run of `turns` turns with `callsPerTurn` calls of `add` each, then a final answer. */
export function createOpenAiAgentsRun(turns, callsPerTurn) {
  const clock = createOwnClock();
  const add = tool({
    name: 'add',
    description: 'Add two integers.',
    parameters: z.object({ a: z.number().int(), b: z.number().int() }),
    execute: async ({ a, b }) => clock.time(() => String(a + b)),
  });
  let call = 0;
  const model = {
    async getResponse() {
      return clock.time(() => {
        const turn = call++;
        reportTurn(turn);
        const usage = new Usage({ requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 });
        if (turn >= turns) {
          const message = {
            type: 'message',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: 'done' }],
          };
          return { usage, output: [message], responseId: `r${turn}` };
        }
        const output = [];
        for (let k = 0; k < callsPerTurn; k++) {
          output.push({
            type: 'function_call',
            callId: `t${turn}c${k}`,
            name: 'add',
            arguments: `{"a":${turn},"b":${k}}`,
            status: 'completed',
          });
        }
        return { usage, output, responseId: `r${turn}` };
      });
    },
    // biome-ignore lint/correctness/useYield: streaming is not part of this workload
    async *getStreamedResponse() {
      throw new Error('not used');
    },
  };
  const agent = new Agent({ name: 'adder', instructions: 'Add numbers.', model, tools: [add] });
  const runner = new Runner({ tracingDisabled: true });
  return async () => {
    const result = await runner.run(agent, 'add things', { maxTurns: turns + 2 });
    let toolCalls = 0;
    for (const item of result.newItems) if (item.type === 'tool_call_output_item') toolCalls++;
    return { result, toolCalls, ownUs: clock.us };
  };
}
