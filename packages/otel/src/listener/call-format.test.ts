import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { AgentHarness, ToolRegistry } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { defineTool } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { ATTRIBUTES } from '../semconv/attributes.js';
import { createOtelListener } from './create-otel-listener.js';

// Issue #31: a tool span names the format the model wrote the call in and the grammar it was read with.
describe('tool call formats on spans', () => {
  it('marks native, xml and ptype calls', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const tool = (name: string) =>
      defineTool({
        name,
        description: `${name} tool`,
        parameters: Type.Object({ q: Type.String() }),
        execute: ({ q }) => q,
      });
    const registry = new ToolRegistry()
      .register(tool('lookup'))
      .register(tool('weather'), { format: { type: 'xml' } })
      .register(tool('search'), { format: { type: 'ptype', parameters: ['q'] } });
    const model = new ScriptedModel({
      steps: [
        {
          content: '<weather><q>Paris</q></weather>\nsearch("rust")',
          toolCalls: [scriptedToolCall('lookup', { q: 'a' })],
        },
        { content: 'done' },
      ],
    });
    const onEvent = createOtelListener({ tracer: provider.getTracer('formats') });
    await new AgentHarness({ model, tools: registry }).invoke({}, [{ role: 'user', content: 'go' }], { onEvent });
    const tools = exporter
      .getFinishedSpans()
      .filter((span) => span.attributes[ATTRIBUTES.toolCallFormat] !== undefined)
      .map((span) => [
        span.name,
        span.attributes[ATTRIBUTES.toolCallFormat],
        span.attributes[ATTRIBUTES.toolCallGrammar],
      ]);
    expect(tools).toEqual([
      ['execute_tool lookup', 'json', 'native'],
      ['execute_tool weather', 'xml', 'xml_element'],
      ['execute_tool search', 'ptype', 'ptype'],
    ]);
  });
});
