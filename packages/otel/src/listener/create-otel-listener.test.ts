import { type Attributes, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import {
  AgentHarness,
  type AgentRun,
  DeferredToolResults,
  type InvokeOptions,
  ModelCallError,
  ToolExecutionError,
} from '@tiny/harness';
import { ScriptedModel, scriptedInvalidToolCall, scriptedToolCall } from '@tiny/harness/testkit';
import { defineTool, ToolFailedError, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { afterEach, describe, expect, it } from 'vitest';
import { ERROR_TYPES } from '../semconv/attributes.js';
import { createOtelListener } from './create-otel-listener.js';
import type { OtelListenerOptions } from './otel-listener-options.js';

const secret = 'sk-never-0123456789';
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('tiny-otel-test');
afterEach(() => exporter.reset());

function createTools() {
  const weather = defineTool({
    name: 'weather',
    description: 'Weather for a city.',
    parameters: Type.Object({ city: Type.String() }, { additionalProperties: false }),
    policy: ToolPolicy.readOnly(),
    isConcurrencySafe: () => true,
    execute: ({ city }) => `${city}: sunny`,
  });
  const flaky = defineTool({
    name: 'flaky',
    description: 'Always fails.',
    parameters: Type.Object({}),
    execute: () => {
      throw new ToolFailedError({ reason: 'disk full' });
    },
  });
  const pay = defineTool({
    name: 'pay',
    description: 'Pay someone.',
    parameters: Type.Object({ to: Type.String(), apiKey: Type.String() }, { additionalProperties: false }),
    injected: [{ name: 'apiKey', source: 'host' }],
    policy: ToolPolicy.classified().withSideEffects({ payment: true }).requiringApproval(),
    execute: ({ to }) => `paid ${to}`,
  });
  const crash = defineTool({
    name: 'crash',
    description: 'Throws.',
    parameters: Type.Object({}),
    execute: () => {
      throw new Error('boom');
    },
  });
  const inner = defineTool({
    name: 'inner',
    description: 'Doubles.',
    parameters: Type.Object({ x: Type.Integer() }),
    execute: ({ x }) => String(x * 2),
  });
  const outer = defineTool({
    name: 'outer',
    description: 'Calls inner twice.',
    parameters: Type.Object({}),
    execute: async (_args, context) => {
      const a = await context.callTool?.('inner', { x: 1 });
      const b = await context.callTool?.('inner', { x: 2 });
      return `${a?.output()}+${b?.output()}`;
    },
  });
  return [weather, flaky, pay, crash, inner, outer];
}

/** Turn 1: an unknown tool (recovered), bad arguments (recovered), two weather calls, a failing tool, a payment (deferred). */
function pausingScript() {
  return [
    {
      toolCalls: [
        scriptedToolCall('wether', { city: 'Oslo' }, 'u1'),
        scriptedInvalidToolCall('weather', '{"city": ', 'unexpected end of JSON', 'i1'),
        scriptedToolCall('weather', { city: 'Oslo' }, 'w1'),
        scriptedToolCall('weather', { city: 'Bergen' }, 'w2'),
      ],
    },
    { toolCalls: [scriptedToolCall('flaky', {}, 'f1'), scriptedToolCall('pay', { to: 'ada' }, 'p1')] },
    { content: 'Paid ada.' },
  ];
}

async function traced(
  model: ScriptedModel,
  options: Partial<OtelListenerOptions> = {},
  invoke: InvokeOptions = {},
): Promise<{ run: AgentRun; harness: AgentHarness }> {
  const harness = new AgentHarness({ model, tools: createTools() });
  const onEvent = createOtelListener({ tracer, modelName: model.modelId, provider: 'scripted', ...options });
  const run = await harness.invoke({ hostValues: { apiKey: secret } }, [{ role: 'user', content: 'go' }], {
    ...invoke,
    onEvent,
  });
  return { run, harness };
}

const spans = () => exporter.getFinishedSpans();
const named = (name: string) => spans().filter((span) => span.name === name);
const one = (name: string): ReadableSpan => {
  const found = named(name);
  expect(found, name).toHaveLength(1);
  return found[0] as ReadableSpan;
};
const toolSpan = (callId: string): ReadableSpan => {
  const found = spans().filter((span) => span.attributes['gen_ai.tool.call.id'] === callId);
  expect(found, callId).toHaveLength(1);
  return found[0] as ReadableSpan;
};
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const allAttributes = (): Attributes[] =>
  spans().flatMap((span) => [span.attributes, ...span.events.map((event) => event.attributes ?? {})]);

describe('createOtelListener', () => {
  it('traces a run with recoveries, concurrent calls, a failed tool and a deferral', async () => {
    const { run } = await traced(new ScriptedModel({ steps: pausingScript() }));
    expect(run.outcome).toBe('deferred');

    const root = one('invoke_agent');
    expect(root.kind).toBe(SpanKind.INTERNAL);
    expect(parentOf(root)).toBeUndefined();
    expect(root.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.provider.name': 'scripted',
      'gen_ai.request.model': 'scripted-model',
      'gen_ai.usage.input_tokens': 20,
      'gen_ai.usage.output_tokens': 10,
      'tiny.run.id': run.runId,
      'tiny.run.outcome': 'deferred',
      'tiny.run.turns': 2,
    });
    expect(root.status.code).toBe(SpanStatusCode.UNSET);

    const chats = named('chat scripted-model');
    expect(chats).toHaveLength(2);
    for (const chat of chats) {
      expect(chat.kind).toBe(SpanKind.CLIENT);
      expect(parentOf(chat)).toBe(root.spanContext().spanId);
      expect(chat.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'scripted-model',
        'gen_ai.response.finish_reasons': ['tool_calls'],
        'gen_ai.usage.input_tokens': 10,
        'gen_ai.usage.output_tokens': 5,
      });
    }
    expect(chats.map((chat) => chat.attributes['tiny.turn'])).toEqual([1, 2]);

    // Every executed or answered call is an execute_tool child of the run span.
    for (const callId of ['u1', 'i1', 'w1', 'w2', 'f1']) {
      const span = toolSpan(callId);
      expect(span.kind).toBe(SpanKind.INTERNAL);
      expect(parentOf(span)).toBe(root.spanContext().spanId);
      expect(span.attributes['gen_ai.operation.name']).toBe('execute_tool');
      expect(span.attributes['gen_ai.tool.type']).toBe('function');
    }
    const ok = toolSpan('w1');
    expect(ok.name).toBe('execute_tool weather');
    expect(ok.attributes['gen_ai.tool.name']).toBe('weather');
    expect(ok.status.code).toBe(SpanStatusCode.UNSET);
    expect(ok.attributes['error.type']).toBeUndefined();

    // Recovery: the unknown-tool event sits on the call's span, which ends in error.
    const unknown = toolSpan('u1');
    expect(unknown.name).toBe('execute_tool wether');
    expect(unknown.status.code).toBe(SpanStatusCode.ERROR);
    expect(unknown.attributes['error.type']).toBe(ERROR_TYPES.unknownTool);
    expect(unknown.events.map((event) => [event.name, event.attributes?.['tiny.recovery']])).toEqual([
      ['tiny.unknown_tool_call', 'tool_error'],
    ]);
    const invalid = toolSpan('i1');
    expect(invalid.attributes['error.type']).toBe(ERROR_TYPES.invalidArguments);
    expect(invalid.events.map((event) => event.name)).toEqual(['tiny.invalid_tool_args']);

    // The failed tool: status ERROR; without content capture the error text the model read stays out.
    const failed = toolSpan('f1');
    expect(failed.status.code).toBe(SpanStatusCode.ERROR);
    expect(failed.status.message).toBeUndefined();
    expect(failed.attributes['error.type']).toBe(ERROR_TYPES.toolError);

    // The deferral: a span event on the run span, no tool span.
    expect(spans().some((span) => span.attributes['gen_ai.tool.call.id'] === 'p1')).toBe(false);
    const deferred = root.events.find((event) => event.name === 'tiny.tool_deferred');
    expect(deferred?.attributes).toEqual({
      'gen_ai.tool.call.id': 'p1',
      'gen_ai.tool.name': 'pay',
      'tiny.deferral.reason': 'approval_required',
    });
    expect(root.events.filter((event) => event.name === 'tiny.turn_started')).toHaveLength(2);

    // No content without capture.
    for (const attributes of allAttributes()) {
      expect(attributes['gen_ai.tool.call.arguments']).toBeUndefined();
      expect(attributes['gen_ai.tool.call.result']).toBeUndefined();
    }
  });

  it('puts timestamps in order: tool spans end at startedAtMs + durationMs, inside their run', async () => {
    await traced(new ScriptedModel({ steps: pausingScript() }));
    const root = one('invoke_agent');
    const toMs = ([seconds, nanos]: readonly [number, number]) => seconds * 1000 + nanos / 1e6;
    for (const span of spans()) {
      expect(toMs(span.endTime)).toBeGreaterThanOrEqual(toMs(span.startTime));
      expect(toMs(span.startTime)).toBeGreaterThanOrEqual(toMs(root.startTime));
      expect(toMs(span.endTime)).toBeLessThanOrEqual(toMs(root.endTime) + 1);
    }
  });

  it('traces the resumed run: the approval is an event on the approved call span', async () => {
    const model = new ScriptedModel({ steps: pausingScript() });
    const { run, harness } = await traced(model);
    exporter.reset();
    const onEvent = createOtelListener({ tracer, agentName: 'payments' });
    const resumed = await harness.resumeDeferred(
      { hostValues: { apiKey: secret } },
      run.state as NonNullable<AgentRun['state']>,
      new DeferredToolResults().approve('p1'),
      { onEvent },
    );
    expect(resumed.text).toBe('Paid ada.');
    const root = one('invoke_agent payments');
    expect(root.attributes['gen_ai.agent.name']).toBe('payments');
    expect(root.attributes['tiny.run.outcome']).toBe('final');
    const pay = toolSpan('p1');
    expect(parentOf(pay)).toBe(root.spanContext().spanId);
    expect(pay.events.map((event) => event.name)).toEqual(['tiny.tool_approved']);
    expect(one('chat').attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);
  });

  it('captures tool I/O only when asked, and never a host-injected secret', async () => {
    await traced(new ScriptedModel({ steps: pausingScript() }), {}, { policy: { captureToolIo: true } });
    expect(toolSpan('w1').attributes['gen_ai.tool.call.arguments']).toBeUndefined();
    exporter.reset();

    const model = new ScriptedModel({ steps: pausingScript() });
    const { run, harness } = await traced(model, { captureContent: true }, { policy: { captureToolIo: true } });
    const weather = toolSpan('w2');
    expect(weather.attributes['gen_ai.tool.call.arguments']).toBe('{"city":"Bergen"}');
    expect(weather.attributes['gen_ai.tool.call.result']).toBe('Bergen: sunny');
    expect(toolSpan('f1').status.message).toBe('disk full');
    expect(toolSpan('u1').events[0]?.attributes?.['gen_ai.tool.call.arguments']).toBe('{"city":"Oslo"}');

    await harness.resumeDeferred(
      { hostValues: { apiKey: secret } },
      run.state as NonNullable<AgentRun['state']>,
      new DeferredToolResults().approve('p1'),
      { onEvent: createOtelListener({ tracer, captureContent: true }), policy: { captureToolIo: true } },
    );
    expect(toolSpan('p1').attributes['gen_ai.tool.call.arguments']).toBe('{"to":"ada"}');
    expect(JSON.stringify(allAttributes())).not.toContain(secret);
  });

  it('records streamed model text as gen_ai.output.messages under capture', async () => {
    const model = new ScriptedModel({ steps: [{ content: 'Hello there.' }] });
    const harness = new AgentHarness({ model });
    const stream = harness.stream({}, [{ role: 'user', content: 'hi' }], {
      onEvent: createOtelListener({ tracer, captureContent: true }),
    });
    for await (const _event of stream);
    await stream.result;
    const chat = one('chat');
    expect(JSON.parse(chat.attributes['gen_ai.output.messages'] as string)).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: 'Hello there.' }], finish_reason: 'stop' },
    ]);
  });

  it('nests calls made from inside a tool under the calling tool span', async () => {
    await traced(
      new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall('outer', {}, 'o')] }, { content: 'ok' }] }),
    );
    const outer = toolSpan('o');
    for (const callId of ['o/1', 'o/2']) {
      const inner = toolSpan(callId);
      expect(inner.name).toBe('execute_tool inner');
      expect(parentOf(inner)).toBe(outer.spanContext().spanId);
      expect(inner.spanContext().traceId).toBe(outer.spanContext().traceId);
      expect(inner.attributes['tiny.tool.parent_call.id']).toBe('o');
    }
  });

  it('ends a failed run in error: the throwing tool and the run span carry error.type', async () => {
    const model = new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall('crash', {}, 'c1')] }] });
    await expect(traced(model)).rejects.toBeInstanceOf(ToolExecutionError);
    const crash = toolSpan('c1');
    expect(crash.status).toEqual({ code: SpanStatusCode.ERROR, message: expect.stringContaining('boom') });
    expect(crash.attributes['error.type']).toBe(ERROR_TYPES.toolFailed);
    const root = one('invoke_agent');
    expect(root.status.code).toBe(SpanStatusCode.ERROR);
    expect(root.attributes['error.type']).toBe(ERROR_TYPES.toolFailed);
    expect(root.attributes['tiny.run.outcome']).toBe('failed');
  });

  it('records tool definition changes reported by a toolset as run span events', () => {
    const onEvent = createOtelListener({ tracer, modelName: 'scripted', provider: 'scripted' });
    const digest = (char: string) => char.repeat(64);
    onEvent({ type: 'run_started', runId: 'r1' });
    onEvent({
      type: 'tool_definition_changed',
      toolSet: 'mcp:changing',
      toolName: 'greet',
      changed: ['description'],
      pinned: digest('a'),
      current: digest('b'),
      withheld: true,
    });
    onEvent({
      type: 'tool_definition_added',
      toolSet: 'mcp:changing',
      toolName: 'wave',
      current: digest('c'),
      withheld: true,
    });
    onEvent({ type: 'tool_definition_removed', toolSet: 'mcp:changing', toolName: 'old', previous: digest('d') });
    onEvent({ type: 'run_completed', runId: 'r1', outcome: 'final' });
    const root = one('invoke_agent');
    expect(root.events.map((event) => [event.name, event.attributes])).toEqual([
      [
        'tiny.tool_definition_changed',
        {
          'tiny.toolset': 'mcp:changing',
          'gen_ai.tool.name': 'greet',
          'tiny.tool_definition.current': digest('b'),
          'tiny.tool_definition.withheld': true,
          'tiny.tool_definition.changed': ['description'],
          'tiny.tool_definition.pinned': digest('a'),
        },
      ],
      [
        'tiny.tool_definition_added',
        {
          'tiny.toolset': 'mcp:changing',
          'gen_ai.tool.name': 'wave',
          'tiny.tool_definition.current': digest('c'),
          'tiny.tool_definition.withheld': true,
        },
      ],
      [
        'tiny.tool_definition_removed',
        { 'tiny.toolset': 'mcp:changing', 'gen_ai.tool.name': 'old', 'tiny.tool_definition.previous': digest('d') },
      ],
    ]);
  });

  it('records model retries and limits as span events', async () => {
    let calls = 0;
    const model = new ScriptedModel({
      steps: [
        () => {
          calls += 1;
          if (calls === 1) throw new ModelCallError({ message: 'rate limited', statusCode: 429, isRetryable: true });
          return { toolCalls: [scriptedToolCall('weather', { city: 'Oslo' })] };
        },
      ],
      repeatLast: true,
    });
    await expect(traced(model, {}, { limits: { maxModelCalls: 2 } })).rejects.toThrow();
    const [first] = named('chat scripted-model');
    expect(first?.events.map((event) => [event.name, event.attributes?.['tiny.retry.attempt']])).toEqual([
      ['tiny.model_retried', 1],
    ]);
    const root = one('invoke_agent');
    expect(root.events.find((event) => event.name === 'tiny.limit_reached')?.attributes).toEqual({
      'tiny.limit.kind': 'model_calls',
      'tiny.limit.value': 2,
    });
    expect(root.attributes['error.type']).toBe(ERROR_TYPES.limitExceeded);
  });

  it('records a call refused from a truncated turn on the run span, without its arguments', async () => {
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('weather', { city: 'Atlantis-9f2' }, 'cut1')], finishReason: 'length' },
        { content: 'ok' },
      ],
    });
    const { run } = await traced(model, { captureContent: true });
    expect(run.executedTools).toEqual([]);
    const root = one('invoke_agent');
    expect(root.events.find((event) => event.name === 'tiny.tool_call_refused')?.attributes).toEqual({
      'gen_ai.tool.name': 'weather',
      'gen_ai.tool.call.id': 'cut1',
      'tiny.refusal.reason': 'length',
    });
    // Content capture on the listener alone does not reveal arguments: the harness did not capture them.
    expect(JSON.stringify(allAttributes())).not.toContain('Atlantis-9f2');
  });

  it('parents the run span on the given context', async () => {
    const parent = tracer.startSpan('request');
    const { trace } = await import('@opentelemetry/api');
    const { context } = await import('@opentelemetry/api');
    await traced(new ScriptedModel({ steps: [{ content: 'hi' }] }), {
      parentContext: trace.setSpan(context.active(), parent),
    });
    parent.end();
    expect(parentOf(one('invoke_agent'))).toBe(parent.spanContext().spanId);
  });
});

describe('discovery events', () => {
  it('puts tool_search results and deferred calls on the call spans, the query only with capture', async () => {
    const archive = defineTool({
      name: 'archive_ticket',
      description: 'Archive a support ticket.',
      parameters: Type.Object({ id: Type.String() }),
      exposure: 'deferred',
      policy: ToolPolicy.readOnly(),
      execute: ({ id }) => `archived ${id}`,
    });
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('tool_search', { query: 'archive a ticket' }, 'q1')] },
        { toolCalls: [scriptedToolCall('archive_ticket', { id: 't-1' }, 'a1')] },
        { content: 'done' },
      ],
    });
    const listener = createOtelListener({ tracer, modelName: 'scripted-model' });
    await new AgentHarness({ model, tools: [archive] }).invoke({}, [{ role: 'user', content: 'archive t-1' }], {
      onEvent: listener,
    });
    const spans = exporter.getFinishedSpans();
    const search = spans.find((span) => span.attributes['gen_ai.tool.call.id'] === 'q1');
    const searched = search?.events.find((event) => event.name === 'tiny.tool_searched');
    expect(searched?.attributes?.['tiny.search.matched']).toEqual(['archive_ticket']);
    expect(searched?.attributes?.['tiny.search.query']).toBeUndefined();
    const call = spans.find((span) => span.attributes['gen_ai.tool.call.id'] === 'a1');
    expect(
      call?.events.find((event) => event.name === 'tiny.deferred_tool_call')?.attributes?.['tiny.deferred.via'],
    ).toBe('name');
  });
});
