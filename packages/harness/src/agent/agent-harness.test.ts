import { type Message, messageText } from '@tiny/llm';
import { defineTool, ToolResult } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { LimitExceededError } from '../errors/limit-exceeded-error.js';
import {
  eventsOfType,
  eventTypes,
  ScriptedModel,
  scriptedInvalidToolCall,
  scriptedToolCall,
  toolEventViolations,
} from '../testkit/index.js';
import { AgentHarness } from './agent-harness.js';
import { createTestTools } from './test-tools.js';

const user = (text: string): Message[] => [{ role: 'user', content: text }];
const toolMessages = (messages: readonly Message[]) => messages.filter((message) => message.role === 'tool');

describe('AgentHarness.invoke', () => {
  it('runs a call, feeds the result back and ends on the final answer', async () => {
    const { all, log } = createTestTools();
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('weather', { city: 'Oslo' }, 'c1')] },
        { content: 'It is sunny in Oslo.' },
      ],
    });
    const run = await new AgentHarness({ model, tools: all }).invoke({}, user('Weather in Oslo?'));
    expect(run.outcome).toBe('final');
    expect(run.text).toBe('It is sunny in Oslo.');
    expect(log).toEqual(['weather:Oslo']);
    expect(run.executedTools).toEqual(['weather']);
    expect(toolMessages(run.messages)).toEqual([
      { role: 'tool', toolCallId: 'c1', toolName: 'weather', content: 'Oslo: sunny for 1 day(s)' },
    ]);
    expect(run.modelCalls).toBe(2);
    expect(run.usage.totalTokens).toBe(30);
    expect(eventTypes(run.events)).toEqual([
      'run_started',
      'tools_advertised',
      'turn_started',
      'model_started',
      'model_completed',
      'tool_started',
      'tool_completed',
      'turn_completed',
      'turn_started',
      'model_started',
      'model_completed',
      'run_completed',
    ]);
    // The second request carries the tool result right after the assistant call row.
    const second = model.requests[1]?.messages ?? [];
    expect(second.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(model.requests[0]?.tools?.map((tool) => tool.name)).toEqual(['send_email', 'weather']);
  });

  it('answers an unknown tool with a tool error naming it and listing only callable tools', async () => {
    const { all, log } = createTestTools();
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('missing', { q: 1 }, 'c9')] }, { content: 'sorry' }],
    });
    const run = await new AgentHarness({ model, tools: all, policy: { captureToolIo: true } }).invoke({}, user('go'));
    const [answer] = toolMessages(run.messages);
    expect(answer).toMatchObject({ toolCallId: 'c9', isError: true });
    expect(messageText(answer as Message)).toBe(
      'unknown tool `missing` (arguments: {"q":1}); valid tools: [send_email, weather]',
    );
    expect(messageText(answer as Message)).not.toContain('admin_reset');
    expect(eventsOfType(run.events, 'unknown_tool_call')).toEqual([
      {
        type: 'unknown_tool_call',
        callId: 'c9',
        requestedName: 'missing',
        arguments: { q: 1 },
        recovery: 'tool_error',
      },
    ]);
    expect(run.toolCalls).toBe(1);
    expect(run.executedTools).toEqual([]);
    expect(log).toEqual([]);
    expect(toolEventViolations(run.events)).toEqual([]);
  });

  it('never lets the model call a hidden tool', async () => {
    const { all, log } = createTestTools();
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('admin_reset', {})] }, { content: 'ok' }],
    });
    const run = await new AgentHarness({ model, tools: all }).invoke({}, user('reset'));
    expect(log).toEqual([]);
    expect(eventsOfType(run.events, 'unknown_tool_call')).toHaveLength(1);
    expect(model.requests.every((request) => !request.tools?.some((tool) => tool.name === 'admin_reset'))).toBe(true);
    expect(messageText(toolMessages(run.messages)[0] as Message)).toMatch(/valid tools: \[send_email, weather\]$/);
  });

  it('ends a model that keeps calling unknown tools with limit_reached, not a hang', async () => {
    const { all } = createTestTools();
    const model = new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall('nope', {})] }], repeatLast: true });
    const events: string[] = [];
    const error = await new AgentHarness({ model, tools: all, limits: { maxToolCalls: 3 } })
      .invoke({}, user('go'), { onEvent: (event) => events.push(event.type) })
      .catch((caught: unknown) => caught);
    expect(LimitExceededError.isInstance(error)).toBe(true);
    expect((error as LimitExceededError).limitKind).toBe('tool_calls');
    expect(events.filter((type) => type === 'unknown_tool_call')).toHaveLength(3);
    expect(events.at(-2)).toBe('limit_reached');
    expect(events.at(-1)).toBe('run_failed');
    expect((error as LimitExceededError).messages.length).toBeGreaterThan(1);
  });

  it('bounds model calls too', async () => {
    const { all } = createTestTools();
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('weather', { city: 'x' })] }],
      repeatLast: true,
    });
    const error = await new AgentHarness({ model, tools: all, limits: { maxModelCalls: 2 } })
      .invoke({}, user('go'))
      .catch((e: unknown) => e);
    expect((error as LimitExceededError).limitKind).toBe('model_calls');
    expect(model.calls).toBe(2);
  });

  it('rewrites an unknown call to a compatibility tool when the policy says so', async () => {
    const { all, log } = createTestTools();
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('get_weather', { city: 'Rome' }, 'c1')] }, { content: 'done' }],
    });
    const run = await new AgentHarness({
      model,
      tools: all,
      policy: { unknownTool: { kind: 'rewrite', toolName: 'weather' } },
    }).invoke({}, user('go'));
    expect(log).toEqual(['weather:Rome']);
    expect(eventsOfType(run.events, 'unknown_tool_call')[0]?.recovery).toBe('rewrite:weather');
  });

  it('repairs unparseable provider arguments before validation', async () => {
    const { all, log } = createTestTools();
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedInvalidToolCall('weather', '{city: "Oslo",}', 'unexpected token', 'c1')] },
        { content: 'ok' },
      ],
    });
    const run = await new AgentHarness({ model, tools: all, policy: { captureToolIo: true } }).invoke({}, user('go'));
    expect(log).toEqual(['weather:Oslo']);
    expect(eventsOfType(run.events, 'invalid_tool_args')).toEqual([
      {
        type: 'invalid_tool_args',
        callId: 'c1',
        toolName: 'weather',
        arguments: '{city: "Oslo",}',
        error: 'unexpected token',
        recovery: 'repaired',
      },
    ]);
  });

  it('never runs a side-effecting tool on unrepairable arguments and answers with the same call id', async () => {
    const { all, log } = createTestTools();
    const model = new ScriptedModel({
      steps: [
        {
          toolCalls: [
            scriptedInvalidToolCall('send_email', '{"to": "a@b.c", "body": "unterminated', 'unterminated string', 'c7'),
          ],
        },
        { content: 'gave up' },
      ],
    });
    const run = await new AgentHarness({ model, tools: all }).invoke({ hostValues: { apiKey: 'k' } }, user('go'));
    expect(log).toEqual([]);
    const [answer] = toolMessages(run.messages);
    expect(answer).toMatchObject({ toolCallId: 'c7', isError: true });
    expect(messageText(answer as Message)).toContain('unterminated string');
    expect(eventsOfType(run.events, 'invalid_tool_args')[0]?.recovery).toBe('tool_error');
    expect(run.toolCalls).toBe(1);
  });

  it('answers schema-invalid arguments with the detail and the model-facing schema', async () => {
    const { all, log } = createTestTools();
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('weather', { city: 'Oslo', days: '3' }, 'c1')] }, { content: 'ok' }],
    });
    const run = await new AgentHarness({ model, tools: all, policy: { captureToolIo: true } }).invoke({}, user('go'));
    expect(log).toEqual([]);
    const text = messageText(toolMessages(run.messages)[0] as Message);
    expect(text).toMatch(/^invalid arguments for tool `weather`: \/days must be integer; expected schema: \{/);
    expect(eventsOfType(run.events, 'invalid_tool_args')[0]).toMatchObject({
      arguments: { city: 'Oslo', days: '3' },
      recovery: 'tool_error',
    });
  });

  it('normalises common transport shapes when the policy allows it', async () => {
    const { all, log } = createTestTools();
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('weather', { arguments: { city: 'Oslo', days: '3' } }, 'c1')] },
        { toolCalls: [scriptedToolCall('weather', '```json\n{"city": "Rome"}\n```', 'c2')] },
        { content: 'ok' },
      ],
    });
    const run = await new AgentHarness({
      model,
      tools: all,
      policy: { invalidArgs: 'normalize_then_return_tool_error' },
    }).invoke({}, user('go'));
    expect(log).toEqual(['weather:Oslo', 'weather:Rome']);
    expect(eventsOfType(run.events, 'invalid_tool_args').map((event) => event.recovery)).toEqual([
      'normalized',
      'normalized',
    ]);
  });

  it('keeps host secrets out of every request, byte for byte', async () => {
    const { all, log } = createTestTools();
    const secret = 'sk-live-5f1e-SECRET-a8c2';
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('send_email', { to: 'ada@x.io', body: 'hi', apiKey: 'model-guess' }, 'c1')] },
        { content: 'sent' },
      ],
    });
    const run = await new AgentHarness({ model, tools: all, policy: { captureToolIo: true } }).invoke(
      { hostValues: { apiKey: secret } },
      user('mail ada'),
    );
    expect(log).toEqual([`send_email:ada@x.io:${secret}`]);
    expect(JSON.stringify(model.requests)).not.toContain(secret);
    expect(JSON.stringify(model.requests)).not.toContain('apiKey"');
    expect(JSON.stringify(run.events)).not.toContain(secret);
    expect(JSON.stringify(run.messages)).not.toContain(secret);
  });

  it('turns ModelRetry and ToolFailedError into results the model reads and keeps going', async () => {
    const { ModelRetry, ToolFailedError } = await import('@tiny/tools');
    let attempts = 0;
    const flaky = defineTool({
      name: 'flaky',
      description: 'Fails then works.',
      parameters: Type.Object({}),
      execute: () => {
        attempts += 1;
        if (attempts === 1) throw new ModelRetry('try again later');
        if (attempts === 2) throw new ToolFailedError({ reason: 'disk full' });
        return 'ok';
      },
    });
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('flaky', {})] },
        { toolCalls: [scriptedToolCall('flaky', {})] },
        { toolCalls: [scriptedToolCall('flaky', {})] },
        { content: 'done' },
      ],
    });
    const run = await new AgentHarness({ model, tools: [flaky] }).invoke({}, user('go'));
    expect(
      toolMessages(run.messages).map((message) => [
        messageText(message),
        message.role === 'tool' && message.isError === true,
      ]),
    ).toEqual([
      ['try again later', true],
      ['disk full', true],
      ['ok', false],
    ]);
    expect(toolEventViolations(run.events)).toEqual([]);
  });

  it('fails the run on other throws by default, and answers them under return_error', async () => {
    const { ToolExecutionError } = await import('../errors/tool-execution-error.js');
    const broken = defineTool({
      name: 'broken',
      description: '',
      parameters: Type.Object({}),
      execute: () => {
        throw new TypeError('cannot read x of undefined');
      },
    });
    const steps = [{ toolCalls: [scriptedToolCall('broken', {}, 'b1')] }, { content: 'after' }];
    const events: string[] = [];
    const error = await new AgentHarness({ model: new ScriptedModel({ steps }), tools: [broken] })
      .invoke({}, user('go'), { onEvent: (event) => events.push(event.type) })
      .catch((e: unknown) => e);
    expect(ToolExecutionError.isInstance(error)).toBe(true);
    expect((error as InstanceType<typeof ToolExecutionError>).callId).toBe('b1');
    expect((error as Error).message).toContain(
      "throw ModelRetry from the tool, or set policy.toolErrors: { kind: 'return_error' }",
    );
    expect(events).toContain('tool_failed');
    expect(events).not.toContain('tool_completed');
    const run = await new AgentHarness({
      model: new ScriptedModel({ steps }),
      tools: [broken],
      policy: { toolErrors: { kind: 'return_error' } },
    }).invoke({}, user('go'));
    expect(messageText(toolMessages(run.messages)[0] as Message)).toBe('cannot read x of undefined');
  });

  it('puts follow-ups after the last tool row and keeps metadata out of the transcript', async () => {
    const chart = defineTool({
      name: 'chart',
      description: '',
      parameters: Type.Object({ n: Type.Integer() }),
      execute: ({ n }) =>
        ToolResult.success(`chart ${n}`)
          .withFollowUp({ type: 'image', mediaType: 'image/png', data: { kind: 'base64', value: 'AAAA' } })
          .withMetadata({ internalTrace: `trace-${n}` }),
    });
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('chart', { n: 1 }, 'a'), scriptedToolCall('chart', { n: 2 }, 'b')] },
        { content: 'done' },
      ],
    });
    const run = await new AgentHarness({ model, tools: [chart] }).invoke({}, user('charts'));
    expect(run.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
      'user',
      'user',
      'assistant',
    ]);
    expect(run.messages[4]).toEqual({
      role: 'user',
      content: [{ type: 'image', mediaType: 'image/png', data: { kind: 'url', value: 'data:image/png;base64,AAAA' } }],
    });
    expect(JSON.stringify(run.messages)).not.toContain('trace-');
    expect(run.toolMetadata).toEqual([
      { callId: 'a', toolName: 'chart', metadata: { internalTrace: 'trace-1' } },
      { callId: 'b', toolName: 'chart', metadata: { internalTrace: 'trace-2' } },
    ]);
    expect(eventsOfType(run.events, 'tool_completed').map((event) => event.metadata)).toEqual([
      { internalTrace: 'trace-1' },
      { internalTrace: 'trace-2' },
    ]);
  });

  it('applies ToolControl: return-direct ends the run with the tool output; stateUpdate is queued', async () => {
    const answer = defineTool({
      name: 'answer',
      description: '',
      parameters: Type.Object({ text: Type.String() }),
      returnDirect: true,
      execute: ({ text }) => ToolResult.success(text).withStateUpdate({ answered: true }),
    });
    const quiet = defineTool({
      name: 'quiet',
      description: '',
      parameters: Type.Object({}),
      returnDirect: true,
      execute: () => ToolResult.success('not final').returnDirect(false),
    });
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('quiet', {})] },
        { toolCalls: [scriptedToolCall('answer', { text: '42' })] },
      ],
    });
    const run = await new AgentHarness({ model, tools: [answer, quiet] }).invoke({}, user('q'));
    expect(run.outcome).toBe('return_direct');
    expect(run.text).toBe('42');
    expect(run.stateUpdates).toEqual([{ answered: true }]);
    expect(model.calls).toBe(2);
  });

  it('re-mints call ids a provider repeats, so every call gets exactly one answer', async () => {
    const { all } = createTestTools();
    const model = new ScriptedModel({
      steps: [
        {
          toolCalls: [
            scriptedToolCall('weather', { city: 'A' }, 'dup'),
            scriptedToolCall('weather', { city: 'B' }, 'dup'),
          ],
        },
        { toolCalls: [scriptedToolCall('weather', { city: 'C' }, 'dup')] },
        { content: 'ok' },
      ],
    });
    const run = await new AgentHarness({ model, tools: all }).invoke({ runId: 'r1' }, user('go'));
    const ids = toolMessages(run.messages).map((message) => (message.role === 'tool' ? message.toolCallId : ''));
    expect(ids).toEqual(['dup', 'r1-m0-tool-1', 'r1-m1-tool-0']);
    expect(new Set(ids).size).toBe(3);
  });

  it('nudges a model whose tool call was dropped, at most the configured number of times', async () => {
    const { all } = createTestTools();
    const model = new ScriptedModel({ steps: [{ content: '', finishReason: 'tool_calls' }], repeatLast: true });
    const run = await new AgentHarness({ model, tools: all, policy: { droppedToolCallNudges: 2 } }).invoke(
      {},
      user('go'),
    );
    expect(eventsOfType(run.events, 'tool_call_dropped').map((event) => event.nudge)).toEqual([1, 2]);
    expect(run.modelCalls).toBe(3);
    expect(run.outcome).toBe('final');
  });

  it('retries a retryable provider error without counting a model call', async () => {
    const { ModelCallError } = await import('@tiny/llm');
    const { all } = createTestTools();
    let failures = 0;
    const model = new ScriptedModel({
      steps: [
        () => {
          failures += 1;
          if (failures < 3) throw new ModelCallError({ message: 'overloaded', statusCode: 529, isRetryable: true });
          return { content: 'finally' };
        },
      ],
    });
    // The step throws before it is consumed, so the scripted index stays at 0 until it succeeds.
    const run = await new AgentHarness({ model, tools: all, limits: { retryDelayMs: 1 } }).invoke({}, user('go'));
    expect(run.text).toBe('finally');
    expect(eventsOfType(run.events, 'model_retried').map((event) => event.attempt)).toEqual([1, 2]);
    expect(run.modelCalls).toBe(1);
  });

  it('says how many attempts were made when it gives up on a retryable error', async () => {
    const { ModelCallError } = await import('@tiny/llm');
    let sent = 0;
    const model = new ScriptedModel({
      steps: [
        () => {
          sent += 1;
          throw new ModelCallError({ message: 'rate limited', statusCode: 429 });
        },
      ],
    });
    const harness = new AgentHarness({ model, limits: { retryDelayMs: 1, maxRetriesPerCall: 2 } });
    const error = await harness.invoke({}, user('go')).catch((caught: unknown) => caught);
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(sent).toBe(3);
    expect(error).toMatchObject({ statusCode: 429, attempts: 3 });
    expect((error as Error).message).toBe('rate limited (gave up after 3 attempts; limits.maxRetriesPerCall is 2)');

    // A non-retryable error is thrown as it came, after one attempt.
    const once = new ScriptedModel({
      steps: [
        () => {
          throw new ModelCallError({ message: 'bad request', statusCode: 400 });
        },
      ],
    });
    const bad = await new AgentHarness({ model: once }).invoke({}, user('go')).catch((caught: unknown) => caught);
    expect((bad as Error).message).toBe('bad request');
    expect((bad as { attempts?: number }).attempts).toBeUndefined();
  });
});
