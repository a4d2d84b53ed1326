import { defineTool, InvalidInputError, type ToolOutput, ToolResult } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { DeferredToolResults } from '../deferral/deferred-tool-results.js';
import { ListenerError } from '../errors/listener-error.js';
import type { AgentEvent } from '../events/agent-event.js';
import { InMemoryToolEffectLedger } from '../ledger/in-memory-tool-effect-ledger.js';
import { eventTypes, ScriptedModel, scriptedToolCall, toolEventViolations } from '../testkit/index.js';
import { AgentHarness } from './agent-harness.js';

const user = [{ role: 'user' as const, content: 'go' }];

function deep(levels: number): unknown {
  let value: unknown = { leaf: true };
  for (let level = 0; level < levels; level += 1) value = { next: value };
  return value;
}
const cyclic: Record<string, unknown> = { a: 1 };
cyclic.self = cyclic;

describe('tool results that cannot be serialised', () => {
  it.each([
    ['a cyclic object', () => cyclic, /circular/i],
    ['a BigInt', () => 10n, /BigInt/],
    ['an object nested 10^5 deep', () => deep(100_000), /call stack/i],
    ['a BigInt inside a ToolResult', () => ToolResult.json({ n: 1n } as never), /BigInt/],
    [
      'a BigInt in a follow-up',
      () => ToolResult.success('ok').withFollowUp({ type: 'json', data: 1n as never }),
      /BigInt/,
    ],
  ])('%s becomes a tool error and a failed ledger row, even under return_error', async (_name, output, reason) => {
    const ledger = new InMemoryToolEffectLedger();
    const odd = defineTool({
      name: 'odd',
      description: '',
      parameters: { type: 'object' },
      execute: () => output() as ToolOutput,
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('odd', {}, 'o1')] }, { content: 'done' }],
    });
    const run = await new AgentHarness({
      model,
      tools: [odd],
      ledger,
      policy: { toolErrors: { kind: 'return_error' } },
    }).invoke({ runId: 'r' }, user);
    const answer = run.messages.find((message) => message.role === 'tool');
    expect(answer).toMatchObject({ toolCallId: 'o1', isError: true });
    expect(JSON.stringify(answer)).toMatch(/cannot be serialised/);
    expect(JSON.stringify(answer)).toMatch(reason);
    expect(ledger.rows('r').map((row) => row.status)).toEqual(['failed']);
    expect(run.text).toBe('done');
    expect(toolEventViolations(run.events)).toEqual([]);
  });
});

describe('host mistakes get typed errors naming the place', () => {
  it('DeferredToolResults refuses a null result and an unprintable message', () => {
    expect(() => new DeferredToolResults().respond('c1', null as never)).toThrow(InvalidInputError);
    expect(() => new DeferredToolResults().respond('c1', null as never)).toThrow(/respond: `result`/);
    expect(() => new DeferredToolResults().deny('c1', { toString: null } as never)).toThrow(/deny: `message`/);
    expect(() => new DeferredToolResults().approve(5 as never)).toThrow(/approve: `callId`/);
    expect(() => DeferredToolResults.fromJSON({ c1: null })).toThrow(InvalidInputError);
  });

  it('ScriptedModel.doStream refuses a scripted call without arguments', async () => {
    const model = new ScriptedModel({
      steps: [{ toolCalls: [{ id: 'c1', name: 'x', arguments: undefined }] }],
    });
    await expect(model.doStream({ messages: [] })).rejects.toThrow(/step 1: `toolCalls\[0\]\.arguments`/);
    const harness = new AgentHarness({
      model: new ScriptedModel({ steps: [{ toolCalls: [{ id: 'c1', name: 'x', arguments: undefined }] }] }),
    });
    await expect(harness.stream({}, user).result).rejects.toSatisfy(InvalidInputError.isInstance);
  });
});

describe('a listener that throws', () => {
  it('onEvent: the started calls finish with their outcome events, then the run fails with ListenerError', async () => {
    const ran: string[] = [];
    const tool = defineTool({
      name: 't',
      description: '',
      parameters: { type: 'object' },
      execute: () => {
        ran.push('t');
        return 'ok';
      },
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('t', {}, 'a'), scriptedToolCall('t', {}, 'b')] }, { content: 'x' }],
    });
    const seen: AgentEvent[] = [];
    const run = new AgentHarness({ model, tools: [tool] }).invoke({}, user, {
      onEvent: (event) => {
        seen.push(event);
        if (event.type === 'tool_started') throw new Error('listener bug');
      },
    });
    const error = await run.catch((thrown: unknown) => thrown);
    expect(ListenerError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ listener: 'onEvent', eventType: 'tool_started' });
    expect((error as Error).message).toContain('listener bug');
    // Still listening after its throws (reported once, the first); the admitted batch completed,
    // each call with its outcome; the model was not called again.
    expect(eventTypes(seen)).toEqual([
      'run_started',
      'tools_advertised',
      'turn_started',
      'model_started',
      'model_completed',
      'tool_started',
      'tool_started',
      'tool_completed',
      'tool_completed',
      'turn_completed',
      'run_failed',
    ]);
    expect(ran).toEqual(['t', 't']);
    expect(model.calls).toBe(1);
  });

  it('onEvent throwing an untyped value on run_completed leaves the completed run as it is, without a second terminal event', async () => {
    const events: AgentEvent[] = [];
    const harness = new AgentHarness({ model: new ScriptedModel({ steps: [{ content: 'hi' }] }) });
    const run = await harness.invoke({}, user, {
      onEvent: (event) => {
        events.push(event);
        if (event.type === 'run_completed') throw { toString: null };
      },
      recordEvents: false,
    });
    expect(run).toMatchObject({ outcome: 'final', text: 'hi' });
    expect(eventTypes(events).filter((type) => type.startsWith('run_'))).toEqual(['run_started', 'run_completed']);
  });

  it('onCheckpoint: nothing of the batch runs and the run fails with ListenerError', async () => {
    const ran: string[] = [];
    const tool = defineTool({
      name: 't',
      description: '',
      parameters: { type: 'object' },
      execute: () => {
        ran.push('t');
        return 'ok';
      },
    });
    const model = new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall('t', {}, 'a')] }, { content: 'x' }] });
    const run = new AgentHarness({ model, tools: [tool] }).invoke({}, user, {
      onCheckpoint: async () => {
        throw new Error('disk full');
      },
    });
    await expect(run).rejects.toMatchObject({ name: 'ListenerError', listener: 'onCheckpoint' });
    await expect(run).rejects.toThrow(/disk full/);
    expect(ran).toEqual([]);
  });
});
