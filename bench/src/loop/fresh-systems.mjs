// The loop as users run it (issue 35): a tool declared with raw JSON Schema whose `execute` is
// `async` (it would do I/O), a scripted model answering from responses built before the run, and
// (for the fresh-harness series) a new harness per request. Each builder returns `{ run }`, where
// `run()` performs one request and resolves to `{ result, toolCalls }`; building happens outside
// the timed call. Tools are defined once per process, as a module defines them.
import { AgentHarness } from '@tiny/harness';
import { createModelProfile } from '@tiny/llm';
import { defineTool } from '@tiny/tools';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { reportTurn } from './own-clock.mjs';

const addSchema = {
  type: 'object',
  properties: { a: { type: 'integer' }, b: { type: 'integer' } },
  required: ['a', 'b'],
  additionalProperties: false,
};

const tinyAsyncAdd = defineTool({
  name: 'add',
  description: 'Add two integers.',
  parameters: addSchema,
  isConcurrencySafe: () => true,
  execute: async ({ a, b }) => String(a + b),
});

const tinySyncAdd = defineTool({
  name: 'add',
  description: 'Add two integers.',
  parameters: addSchema,
  isConcurrencySafe: () => true,
  execute: ({ a, b }) => String(a + b),
});

const aiSdkAdd = tool({
  description: 'Add two integers.',
  inputSchema: jsonSchema(addSchema),
  execute: async ({ a, b }) => String(a + b),
});

const tinyUsage = { inputTokens: 1, outputTokens: 1 };

/** tiny's scripted `LanguageModelV1`: `turns` responses of `callsPerTurn` calls, then a final answer; replays on reuse. */
function tinyScriptedModel(turns, callsPerTurn) {
  const responses = [];
  for (let turn = 0; turn < turns; turn++) {
    const toolCalls = [];
    for (let k = 0; k < callsPerTurn; k++) {
      toolCalls.push({
        id: `t${turn}c${k}`,
        name: 'add',
        arguments: { a: turn, b: k },
        rawArguments: `{"a":${turn},"b":${k}}`,
      });
    }
    responses.push({ content: '', toolCalls, finishReason: 'tool_calls', usage: tinyUsage, warnings: [] });
  }
  responses.push({ content: 'done', toolCalls: [], finishReason: 'stop', usage: tinyUsage, warnings: [] });
  let call = 0;
  return {
    specificationVersion: 'v1',
    provider: 'bench',
    modelId: 'scripted',
    profile: createModelProfile(),
    async doGenerate() {
      const turn = call;
      call = call + 1 === responses.length ? 0 : call + 1;
      reportTurn(turn);
      return responses[turn];
    },
    doStream() {
      throw new Error('not used');
    },
  };
}

/** One tiny request: a harness built for it (or `harness` reused), the async or sync JSON Schema tool. */
export function createTinyFresh(turns, callsPerTurn, { sync = false, recordEvents = true } = {}) {
  const harness = new AgentHarness({
    model: tinyScriptedModel(turns, callsPerTurn),
    tools: [sync ? tinySyncAdd : tinyAsyncAdd],
    limits: { maxModelCalls: turns + 2, maxToolCalls: turns * callsPerTurn + 1 },
  });
  const messages = [{ role: 'user', content: 'add things' }];
  const options = recordEvents ? {} : { recordEvents: false };
  return {
    harness,
    async run() {
      const result = await harness.invoke({}, messages, options);
      return { result, toolCalls: result.toolCalls };
    },
  };
}

const aiUsage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** One AI SDK request: `generateText` over a plain `LanguageModelV3` object, the `jsonSchema()` tool. */
export function createAiSdkFresh(turns, callsPerTurn) {
  const responses = [];
  for (let turn = 0; turn < turns; turn++) {
    const content = [];
    for (let k = 0; k < callsPerTurn; k++) {
      content.push({
        type: 'tool-call',
        toolCallId: `t${turn}c${k}`,
        toolName: 'add',
        input: `{"a":${turn},"b":${k}}`,
      });
    }
    responses.push({
      content,
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage: aiUsage,
      warnings: [],
    });
  }
  responses.push({
    content: [{ type: 'text', text: 'done' }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: aiUsage,
    warnings: [],
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
    async doGenerate() {
      const turn = call++;
      reportTurn(turn);
      return responses[turn];
    },
  };
  const tools = { add: aiSdkAdd };
  return {
    async run() {
      const result = await generateText({ model, tools, prompt: 'add things', stopWhen: stepCountIs(turns + 1) });
      let toolCalls = 0;
      for (const step of result.steps) toolCalls += step.toolResults.length;
      return { result, toolCalls };
    },
  };
}

/** The issue-35 systems, in the shape `loopSystems` has (for the 2,000-turn child processes). */
export const freshSystems = [
  {
    id: 'tiny-async-fresh',
    label: 'tiny harness, JSON Schema async tool (events recorded)',
    ours: true,
    create: (turns, calls) => createTinyFresh(turns, calls).run,
  },
  {
    id: 'ai-sdk-async-fresh',
    label: 'AI SDK 6 generateText, jsonSchema() async tool',
    create: (turns, calls) => createAiSdkFresh(turns, calls).run,
  },
];
