// Child process for the cold-start figure: `node cold-start.mjs <tiny|tiny-zod|ai-sdk>`. Imports the
// system's packages, defines a one-tool agent and runs it; the first tool call is complete when
// the model is asked again with its result. Prints the milliseconds from this process's start to
// then (`performance.now()` counts from the process's start).
import { performance } from 'node:perf_hooks';

const system = process.argv[2];
let firstCallMs;
const mark = () => {
  firstCallMs ??= performance.now();
};

if (system === 'tiny' || system === 'tiny-zod') {
  const { AgentHarness } = await import('@tiny/harness');
  const { createModelProfile } = await import('@tiny/llm');
  const { defineTool } = await import('@tiny/tools');
  let parameters;
  if (system === 'tiny') {
    const { Type } = await import('typebox');
    parameters = Type.Object({ a: Type.Integer(), b: Type.Integer() }, { additionalProperties: false });
  } else {
    const { z } = await import('zod');
    parameters = z.object({ a: z.number().int(), b: z.number().int() }).strict();
  }
  const add = defineTool({
    name: 'add',
    description: 'Add two integers.',
    parameters,
    execute: ({ a, b }) => String(a + b),
  });
  let call = 0;
  const usage = { inputTokens: 1, outputTokens: 1 };
  const model = {
    specificationVersion: 'v1',
    provider: 'bench',
    modelId: 'scripted',
    profile: createModelProfile(),
    async doGenerate() {
      if (call++ > 0) mark();
      if (call > 1) return { content: 'done', toolCalls: [], finishReason: 'stop', usage, warnings: [] };
      const toolCalls = [{ id: 'c1', name: 'add', arguments: { a: 1, b: 2 }, rawArguments: '{"a":1,"b":2}' }];
      return { content: '', toolCalls, finishReason: 'tool_calls', usage, warnings: [] };
    },
    doStream() {
      throw new Error('not used');
    },
  };
  const harness = new AgentHarness({ model, tools: [add] });
  await harness.invoke({}, [{ role: 'user', content: 'add' }]);
} else if (system === 'ai-sdk') {
  const { generateText, stepCountIs, tool } = await import('ai');
  const { z } = await import('zod');
  const add = tool({
    description: 'Add two integers.',
    inputSchema: z.object({ a: z.number().int(), b: z.number().int() }).strict(),
    execute: async ({ a, b }) => String(a + b),
  });
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 1, text: 1, reasoning: undefined },
  };
  let call = 0;
  const model = {
    specificationVersion: 'v3',
    provider: 'bench',
    modelId: 'scripted',
    supportedUrls: {},
    doStream() {
      throw new Error('not used');
    },
    async doGenerate() {
      if (call++ > 0) mark();
      if (call > 1)
        return {
          content: [{ type: 'text', text: 'done' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        };
      return {
        content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'add', input: '{"a":1,"b":2}' }],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      };
    },
  };
  await generateText({
    model,
    tools: { add },
    prompt: 'add',
    stopWhen: stepCountIs(2),
  });
} else {
  throw new Error(`unknown system ${system}`);
}
if (firstCallMs === undefined) throw new Error(`${system}: no tool call completed`);
console.log(JSON.stringify({ system, firstCallMs }));
