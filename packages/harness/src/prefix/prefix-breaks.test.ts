import type { LanguageModelV1Request, Message, ToolSchema } from '@tiny/llm';
import { type AnyTool, defineTool, ToolPolicy, ToolResult } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { DeferredToolResults } from '../deferral/deferred-tool-results.js';
import { parseRunState, serializeRunState } from '../deferral/run-state.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { AgentMiddleware as Middleware } from '../middleware/agent-middleware.js';
import { ToolRegistry } from '../registry/tool-registry.js';
import { eventsOfType, prefixViolations, ScriptedModel, scriptedToolCall } from '../testkit/index.js';

// Regression tests for the prompt-prefix breaks a tester found (each names the break it covers).
const user = (text: string): Message[] => [{ role: 'user', content: text }];
const tool = (name: string, extra: Record<string, unknown> = {}): AnyTool =>
  defineTool({
    name,
    description: `The ${name} operation.`,
    parameters: Type.Object({ id: Type.String() }),
    policy: ToolPolicy.readOnly(),
    execute: ({ id }: { id: string }) => `${name} ${id}`,
    ...extra,
  }) as AnyTool;
const changesOf = (events: readonly AgentEvent[]) =>
  eventsOfType(events, 'prompt_prefix_changed').map((event) => event.changes);
const names = (request: LanguageModelV1Request | undefined) => request?.tools?.map((entry) => entry.name).join(',');

describe('prompt prefix breaks', () => {
  it('sends an MCP tool listed with another key order after a resume with the same bytes, and reports nothing', async () => {
    // Two listings of one tool, as two processes of an MCP server may write it.
    const listings = [
      '{"name":"search_docs","description":"Search.","inputSchema":{"type":"object","properties":{"q":{"type":"string","minLength":1}},"required":["q"]}}',
      '{"inputSchema":{"required":["q"],"properties":{"q":{"minLength":1,"type":"string"}},"type":"object"},"description":"Search.","name":"search_docs"}',
    ];
    const registryOf = (listing: string) => {
      const { name, description, inputSchema } = JSON.parse(listing);
      return new ToolRegistry().registerExternal({ name, description, parameters: inputSchema });
    };
    const first = new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall('search_docs', { q: 'x' }, 'c1')] }] });
    const paused = await new AgentHarness({ model: first, tools: registryOf(listings[0] as string) }).invoke(
      {},
      user('find'),
    );
    expect(paused.outcome).toBe('deferred');
    const second = new ScriptedModel({ steps: [{ content: 'done' }] });
    const state = parseRunState(serializeRunState(paused.state as NonNullable<typeof paused.state>));
    const resumed = await new AgentHarness({ model: second, tools: registryOf(listings[1] as string) }).resumeDeferred(
      {},
      state,
      new DeferredToolResults().respond('c1', 'found'),
    );
    expect(resumed.outcome).toBe('final');
    expect(JSON.stringify(second.requests[0]?.tools)).toBe(JSON.stringify(first.requests[0]?.tools));
    expect(changesOf(resumed.events)).toEqual([]);
  });

  it('takes a system-role message appended after the previous request (jump_to) as an append', async () => {
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('lookup', { id: 'a' }, 'c1')] },
        { content: 'draft' },
        { content: 'final' },
      ],
    });
    let sent = false;
    // A middleware that keeps each request by reference: the request holds what was sent.
    const kept: LanguageModelV1Request[] = [];
    const review: Middleware = {
      name: 'review',
      wrapModel: (request, next) => {
        kept.push(request);
        return next(request);
      },
      afterModel: ({ calls }) => {
        if (calls.length > 0 || sent) return undefined;
        sent = true;
        return { type: 'jump_to', target: 'model', messages: [{ role: 'system', content: 'Reviewer: one sentence.' }] };
      },
    };
    const run = await new AgentHarness({ model, tools: [tool('lookup')], middleware: [review] }).invoke({}, [
      { role: 'system', content: 'Stable.' },
      ...user('go'),
    ]);
    // Sent in place on OpenAI wires, the new system message follows everything sent before: no break.
    expect(changesOf(run.events)).toEqual([]);
    expect(prefixViolations(model.requests, run.events)).toEqual([]);
    expect(kept.map((request) => request.messages.length)).toEqual([2, 4, 6]);
    expect(prefixViolations(kept, run.events)).toEqual([]);
  });

  it('keeps the structured output tool in the append-only order: a promotion is appended after it', async () => {
    const answer: ToolSchema = {
      name: 'answer',
      parameters: { type: 'object', properties: { ok: { type: 'boolean' } } },
    };
    // The structured output's tool strategy adds its tool in beforeModel, after the offered ones.
    const output: Middleware = { name: 'output', beforeModel: (input) => ({ tools: [...input.tools, answer] }) };
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('tool_search', { query: 'refund a payment' }, 's1')] },
        { toolCalls: [scriptedToolCall('refund_payment', { id: 'r1' }, 'r1')] },
        { content: 'done' },
      ],
    });
    const run = await new AgentHarness({
      model,
      tools: [
        tool('get_weather'),
        tool('refund_payment', { exposure: 'deferred' }),
        tool('send_mail', { exposure: 'deferred' }),
      ],
      middleware: [output],
    }).invoke({}, user('refund r1'));
    expect(names(model.requests[0])).toBe('get_weather,tool_search,tool_call,answer');
    expect(names(model.requests[1])).toBe('get_weather,tool_search,tool_call,answer,refund_payment');
    expect(changesOf(run.events)).toEqual([
      [{ part: 'tool', change: 'added', toolName: 'refund_payment', appended: true }],
    ]);
    expect(prefixViolations(model.requests, run.events)).toEqual([]);
  });

  it('sees a tools array a middleware reuses and changes in place', async () => {
    const declared = (name: string): ToolSchema => ({ name, description: name, parameters: { type: 'object' } });
    const list = [declared('b_tool')];
    let turn = 0;
    const reuse: Middleware = {
      name: 'reuse',
      beforeModel: () => {
        turn += 1;
        if (turn === 2) list.unshift(declared('a_tool'));
        return { tools: list };
      },
    };
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('b_tool', {}, 'c1')] }, { content: 'done' }],
    });
    const run = await new AgentHarness({
      model,
      middleware: [reuse, { name: 'answer', beforeTool: () => ({ respond: ToolResult.success('ok') }) }],
    }).invoke({}, user('go'));
    // The recorded requests hold copies: the first still lists one tool.
    expect(model.requests.map(names)).toEqual(['b_tool', 'b_tool,a_tool']);
    expect(changesOf(run.events)).toEqual([[{ part: 'tool', change: 'added', toolName: 'a_tool', appended: true }]]);
    expect(prefixViolations(model.requests, run.events)).toEqual([]);
  });

  it("names a system change under systemPrompt 'first_user' as a system change, not a history rewrite", async () => {
    const model = new ScriptedModel({
      profile: { systemPrompt: 'first_user' },
      steps: [{ toolCalls: [scriptedToolCall('lookup', { id: 'a' }, 'c1')] }, { content: 'done' }],
    });
    let tick = 0;
    const clock: Middleware = { name: 'clock', beforeModel: () => ({ systemMessages: [`Now: tick ${++tick}.`] }) };
    const run = await new AgentHarness({ model, tools: [tool('lookup')], middleware: [clock] }).invoke({}, [
      { role: 'system', content: 'Stable.' },
      ...user('go'),
    ]);
    expect(model.requests[0]?.messages.some((message) => message.role === 'system')).toBe(false);
    expect(changesOf(run.events)).toEqual([[{ part: 'system', change: 'changed' }]]);
    expect(prefixViolations(model.requests, run.events)).toEqual([]);
  });

  it('reports a tool choice changed between turns as a settings change', async () => {
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('lookup', { id: 'a' }, 'c1')] },
        { toolCalls: [scriptedToolCall('lookup', { id: 'b' }, 'c2')] },
        { content: 'done' },
      ],
    });
    let turn = 0;
    const force: Middleware = {
      name: 'force',
      beforeModel: () => {
        turn += 1;
        return turn === 2 ? { toolChoice: { type: 'tool', toolName: 'lookup' } } : undefined;
      },
    };
    const run = await new AgentHarness({ model, tools: [tool('lookup')], middleware: [force] }).invoke({}, user('go'));
    expect(model.requests.map((request) => request.toolChoice?.type ?? 'auto')).toEqual(['auto', 'tool', 'auto']);
    expect(changesOf(run.events)).toEqual([
      [{ part: 'settings', change: 'changed' }],
      [{ part: 'settings', change: 'changed' }],
    ]);
    expect(prefixViolations(model.requests, run.events)).toEqual([]);
  });

  it('sees a response format object reused and edited between turns (compared by content)', async () => {
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('lookup', { id: 'a' }, 'c1')] }, { content: '{"b":1}' }],
    });
    const format: { type: 'json_schema'; name: string; schema: Record<string, unknown> } = {
      type: 'json_schema',
      name: 'answer',
      schema: { type: 'object', properties: { a: { type: 'string' } } },
    };
    let calls = 0;
    const reuse: Middleware = {
      name: 'format',
      beforeModel: () => {
        if (calls++ === 1) format.schema = { type: 'object', properties: { b: { type: 'number' } } };
        return { responseFormat: format };
      },
    };
    const run = await new AgentHarness({ model, tools: [tool('lookup')], middleware: [reuse] }).invoke({}, user('go'));
    expect(changesOf(run.events)).toEqual([[{ part: 'settings', change: 'changed' }]]);
    // Each request holds the format as it was when sent.
    expect(model.requests.map((request) => JSON.stringify(request.responseFormat))).toEqual([
      JSON.stringify({
        type: 'json_schema',
        name: 'answer',
        schema: { type: 'object', properties: { a: { type: 'string' } } },
      }),
      JSON.stringify(format),
    ]);
    expect(prefixViolations(model.requests, run.events)).toEqual([]);
  });
});
