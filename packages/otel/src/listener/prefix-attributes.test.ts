import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { AgentHarness } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { ATTRIBUTES } from '../semconv/attributes.js';
import { createOtelListener } from './create-otel-listener.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

const weather = defineTool({
  name: 'weather',
  description: 'Weather for a city.',
  parameters: Type.Object({ city: Type.String() }),
  policy: ToolPolicy.readOnly(),
  execute: ({ city }) => `${city}: sunny`,
});

describe('prompt prefix and cache attributes', () => {
  it('puts the prefix fingerprint and cache reads on chat spans, the break as a chat span event, the hit ratio on the run', async () => {
    const model = new ScriptedModel({
      steps: [
        {
          toolCalls: [scriptedToolCall('weather', { city: 'Oslo' }, 'w1')],
          usage: { inputTokens: 100, outputTokens: 5 },
        },
        { content: 'sunny', usage: { inputTokens: 120, outputTokens: 3, cachedInputTokens: 90 } },
      ],
    });
    let turn = 0;
    const run = await new AgentHarness({
      model,
      tools: [weather],
      middleware: [{ name: 'clock', beforeModel: () => ({ systemMessages: [`Turn ${++turn}.`] }) }],
    }).invoke({}, [{ role: 'user', content: 'weather?' }], {
      onEvent: createOtelListener({ tracer: provider.getTracer('prefix-test') }),
    });
    const spans = exporter.getFinishedSpans();
    const chats = spans.filter((span) => span.attributes['gen_ai.operation.name'] === 'chat');
    const started = run.events.flatMap((event) => (event.type === 'model_started' ? [event.prefixFingerprint] : []));
    expect(chats.map((span) => span.attributes[ATTRIBUTES.promptPrefixFingerprint])).toEqual(started);
    expect(chats[1]?.attributes[ATTRIBUTES.cacheReadInputTokens]).toBe(90);
    expect(chats[0]?.events.map((event) => event.name)).not.toContain('tiny.prompt_prefix_changed');
    const change = chats[1]?.events.find((event) => event.name === 'tiny.prompt_prefix_changed');
    expect(change?.attributes?.[ATTRIBUTES.promptPrefixChanges]).toEqual(['system:changed']);
    expect(change?.attributes?.[ATTRIBUTES.promptPrefixLostTokens]).toBeGreaterThan(0);
    const root = spans.find((span) => span.attributes['gen_ai.operation.name'] === 'invoke_agent');
    expect(root?.attributes[ATTRIBUTES.cacheHitRatio]).toBeCloseTo(90 / 220, 10);
    expect(run.cacheHitRatio).toBeCloseTo(90 / 220, 10);
  });

  it('names a tool choice change between requests as settings:changed', async () => {
    exporter.reset();
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('weather', { city: 'Oslo' }, 'w1')] }, { content: 'sunny' }],
    });
    let turn = 0;
    await new AgentHarness({
      model,
      tools: [weather],
      middleware: [{ name: 'force', beforeModel: () => (++turn === 2 ? { toolChoice: { type: 'none' } } : undefined) }],
    }).invoke({}, [{ role: 'user', content: 'weather?' }], {
      onEvent: createOtelListener({ tracer: provider.getTracer('prefix-test') }),
    });
    const chats = exporter.getFinishedSpans().filter((span) => span.attributes['gen_ai.operation.name'] === 'chat');
    const change = chats[1]?.events.find((event) => event.name === 'tiny.prompt_prefix_changed');
    expect(change?.attributes?.[ATTRIBUTES.promptPrefixChanges]).toEqual(['settings:changed']);
  });
});
