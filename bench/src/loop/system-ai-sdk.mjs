// Vercel AI SDK 6: `generateText` with `tools` and `stopWhen: stepCountIs(n)` on a plain object
// implementing `LanguageModelV3` (as users' provider adapters are; the SDK's `MockLanguageModelV3`
// records every call's prompt, which would bill the SDK for the mock's bookkeeping), the tool
// declared with `tool()` and a zod input schema.
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { z } from 'zod';
import { createOwnClock, reportTurn } from './own-clock.mjs';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

const addJsonSchema = {
  type: 'object',
  properties: { a: { type: 'integer' }, b: { type: 'integer' } },
  required: ['a', 'b'],
  additionalProperties: false,
};

/**
 * Builds one run of `turns` turns with `callsPerTurn` calls of `add` each, then a final answer.
 * `schema: 'json'` declares the tool with `jsonSchema()` instead of zod.
 */
export function createAiSdkRun(turns, callsPerTurn, { schema = 'zod' } = {}) {
  const clock = createOwnClock();
  const add = tool({
    description: 'Add two integers.',
    inputSchema:
      schema === 'json' ? jsonSchema(addJsonSchema) : z.object({ a: z.number().int(), b: z.number().int() }).strict(),
    execute: async ({ a, b }) => clock.time(() => String(a + b)),
  });
  let call = 0;
  const model = {
    specificationVersion: 'v3',
    provider: 'bench',
    modelId: 'scripted',
    supportedUrls: {},
    doStream() {
      throw new Error('not used');
    },
    doGenerate: async () =>
      clock.time(() => {
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
  };
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
