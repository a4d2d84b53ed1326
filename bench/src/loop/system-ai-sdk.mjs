// Vercel AI SDK 6: `generateText` with `tools` and `stopWhen: stepCountIs(n)` on the SDK's own
// `MockLanguageModelV3` (from `ai/test`), the tool declared with `tool()` and a zod input schema.
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { createOwnClock, reportTurn } from './own-clock.mjs';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** Builds one run of `turns` turns with `callsPerTurn` calls of `add` each, then a final answer. */
export function createAiSdkRun(turns, callsPerTurn) {
  const clock = createOwnClock();
  const add = tool({
    description: 'Add two integers.',
    inputSchema: z.object({ a: z.number().int(), b: z.number().int() }).strict(),
    execute: async ({ a, b }) => clock.time(() => String(a + b)),
  });
  let call = 0;
  const model = new MockLanguageModelV3({
    doGenerate: async () =>
      clock.time(() => {
        // The mock records every call's options (the whole prompt); a 2,000-turn run would keep
        // every prompt alive, which is the mock's bookkeeping, not the SDK's: drop it.
        model.doGenerateCalls.length = 0;
        const turn = call++;
        reportTurn(turn);
        if (turn >= turns) {
          return {
            content: [{ type: 'text', text: 'done' }],
            finishReason: { unified: 'stop', raw: 'stop' },
            usage,
            warnings: [],
          };
        }
        const content = [];
        for (let k = 0; k < callsPerTurn; k++) {
          content.push({
            type: 'tool-call',
            toolCallId: `t${turn}c${k}`,
            toolName: 'add',
            input: `{"a":${turn},"b":${k}}`,
          });
        }
        return { content, finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] };
      }),
  });
  return async () => {
    const result = await generateText({
      model,
      tools: { add },
      prompt: 'add things',
      stopWhen: stepCountIs(turns + 1),
    });
    let toolCalls = 0;
    for (const step of result.steps) toolCalls += step.toolResults.length;
    return { result, toolCalls, ownUs: clock.us };
  };
}
