/**
 * The bridge over real AI SDK providers against the native adapters, on the same recorded traffic:
 * `@ai-sdk/openai-compatible` beside `@tiny/provider-openai`, `@ai-sdk/anthropic` beside
 * `@tiny/provider-anthropic`. Each pair must yield the same tiny-level responses and agent runs.
 *
 * Known differences (asserted below where they show):
 * - `rawArguments`: the native adapters keep the provider's argument text; the AI SDK re-serialises
 *   a tool_use input object (Anthropic) to a JSON string, so the bridge's `rawArguments` is that
 *   string (the decoded `arguments` are equal).
 * - `response_metadata`: the AI SDK sends `modelId` from the response the same way; neither id nor
 *   model differs on these recordings.
 * - Usage: `@ai-sdk/anthropic` counts `inputTokens.total` as input + cache creation + cache read,
 *   as the native adapter does, so the figures agree.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { AgentHarness } from '@tiny/harness';
import {
  collectStream,
  type LanguageModelV1,
  type LanguageModelV1Request,
  type LanguageModelV1Response,
} from '@tiny/llm';
import { anthropic } from '@tiny/provider-anthropic';
import { openai } from '@tiny/provider-openai';
import { conformanceRequests, loadReplayFixture, type ReplayServer, startReplayServer } from '@tiny/provider-tests';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fromAiSdk } from './from-ai-sdk.js';
import { loadNativeFixture } from './replay.test-helper.js';

let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  server.assertDone();
});

/** What a tiny caller sees of a response, without the raw bodies. */
function seen(response: LanguageModelV1Response) {
  return {
    content: response.content,
    reasoning: response.reasoning,
    toolCalls: response.toolCalls.map((call) => ({
      id: call.id,
      name: call.name,
      arguments: call.arguments,
      invalid: call.invalid,
    })),
    finishReason: response.finishReason,
    usage: response.usage,
  };
}

async function both(model: LanguageModelV1, request: LanguageModelV1Request) {
  const generated = await model.doGenerate(request);
  const streamed = await collectStream(await model.doStream(request));
  return [seen(generated), seen(streamed)];
}

/** Drains a harness stream and returns its run. */
async function streamedRun<T>(stream: AsyncIterable<unknown> & { readonly result: Promise<T> }): Promise<T> {
  for await (const _event of stream) {
    // events are not compared
  }
  return stream.result;
}

const weather = defineTool({
  name: 'weather',
  description: 'Look up the weather forecast for a city.',
  parameters: Type.Object({ city: Type.String() }),
  policy: ToolPolicy.readOnly(),
  execute: ({ city }) => `${city}: light snow, -3 °C`,
});

describe('the bridge beside the native adapters, on the same recordings', () => {
  const key = 'sk-conformance-0123456789';
  const antKey = 'sk-ant-conformance-0123456789';

  for (const name of ['tool_call', 'parallel_tool_calls', 'zero_argument_tool', 'repaired_arguments'] as const) {
    it(`@ai-sdk/openai-compatible ≡ @tiny/provider-openai: ${name}`, async () => {
      const request =
        name === 'zero_argument_tool'
          ? conformanceRequests.zero_argument_tool
          : name === 'parallel_tool_calls'
            ? conformanceRequests.parallel_tool_calls
            : conformanceRequests.tool_call;
      server.load(
        loadReplayFixture(new URL(`../../provider-openai/src/__fixtures__/conformance/${name}.json`, import.meta.url)),
      );
      const native = await both(openai({ baseURL: `${server.url}/v1`, apiKey: key })('gpt-4o-mini'), request);
      server.load(loadNativeFixture('provider-openai', `conformance/${name}.json`));
      const sdk = createOpenAICompatible({
        name: 'openai',
        baseURL: `${server.url}/v1`,
        apiKey: key,
        includeUsage: true,
      });
      const bridged = await both(fromAiSdk(sdk('gpt-4o-mini')), request);
      expect(bridged).toEqual(native);
    });
  }

  for (const name of ['text', 'tool_call', 'parallel_tool_calls', 'zero_argument_tool'] as const) {
    it(`@ai-sdk/anthropic ≡ @tiny/provider-anthropic: ${name}`, async () => {
      const request = name === 'text' ? conformanceRequests.text : conformanceRequests[name];
      const fixture = `conformance/${name}.json`;
      if (name === 'text') {
        server.load(
          loadReplayFixture(new URL(`../../provider-anthropic/src/__fixtures__/${fixture}`, import.meta.url)),
        );
        const native = seen(
          await anthropic({ baseURL: `${server.url}/v1`, apiKey: antKey })('claude-sonnet-4-5').doGenerate(request),
        );
        server.load(loadNativeFixture('provider-anthropic', fixture));
        const bridged = seen(
          await fromAiSdk(
            createAnthropic({ baseURL: `${server.url}/v1`, apiKey: antKey })('claude-sonnet-4-5'),
          ).doGenerate(request),
        );
        expect(bridged).toEqual(native);
        return;
      }
      server.load(loadReplayFixture(new URL(`../../provider-anthropic/src/__fixtures__/${fixture}`, import.meta.url)));
      const native = await both(
        anthropic({ baseURL: `${server.url}/v1`, apiKey: antKey })('claude-sonnet-4-5'),
        request,
      );
      server.load(loadNativeFixture('provider-anthropic', fixture));
      const bridged = await both(
        fromAiSdk(createAnthropic({ baseURL: `${server.url}/v1`, apiKey: antKey })('claude-sonnet-4-5')),
        request,
      );
      expect(bridged).toEqual(native);
    });
  }

  it('an agent run with extended thinking goes the same through @ai-sdk/anthropic, the signature replayed', async () => {
    const messages = [
      { role: 'system', content: 'Answer briefly.' },
      { role: 'user', content: 'Weather in Oslo?' },
    ] as const;
    server.load(
      loadReplayFixture(
        new URL('../../provider-anthropic/src/__fixtures__/anthropic/thinking-agent-run.json', import.meta.url),
      ),
    );
    const native = anthropic({ baseURL: `${server.url}/v1`, apiKey: antKey })('claude-sonnet-4-5', {
      maxTokens: 8000,
      providerOptions: { thinking: { type: 'enabled', budgetTokens: 2048 }, cacheControl: true },
    });
    const nativeRun = await streamedRun(
      new AgentHarness({ model: native, tools: [weather] }).stream({}, [...messages]),
    );
    const nativeSecond = server.requests[1]?.body as { messages: unknown[] };

    server.load(
      loadNativeFixture('provider-anthropic', 'anthropic/thinking-agent-run.json', ['model', 'stream', 'thinking']),
    );
    const bridged = fromAiSdk(createAnthropic({ baseURL: `${server.url}/v1`, apiKey: antKey })('claude-sonnet-4-5'));
    const bridgedRun = await streamedRun(
      new AgentHarness({ model: bridged, tools: [weather] }).stream({}, [...messages], {
        modelSettings: {
          maxTokens: 8000,
          providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 2048 } } },
        },
      }),
    );
    const bridgedSecond = server.requests[1]?.body as { messages: unknown[] };

    expect([bridgedRun.outcome, bridgedRun.text, bridgedRun.executedTools]).toEqual([
      nativeRun.outcome,
      nativeRun.text,
      nativeRun.executedTools,
    ]);
    // The same thinking block, signature byte for byte, and the same tool_use go back in both.
    const strip = (value: unknown) =>
      JSON.parse(JSON.stringify(value, (k, v) => (k === 'cache_control' ? undefined : v)));
    expect(strip(bridgedSecond.messages[1])).toEqual(strip(nativeSecond.messages[1]));
  });
});
