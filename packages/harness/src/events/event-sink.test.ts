import { CallDeferredError, defineTool } from '@tiny/tools';
import { Type } from 'typebox';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { ListenerError } from '../errors/listener-error.js';
import { eventTypes, ScriptedModel, scriptedToolCall, toolEventViolations } from '../testkit/index.js';
import type { AgentEvent } from './agent-event.js';

// The contract of a listener that throws: it never breaks the run's record nor another listener,
// it keeps getting every event through the final one, and its first throw is reported once (the
// run's rejection, or a process warning when the run already ends with another error).

const user = [{ role: 'user' as const, content: 'go' }];

const slow = defineTool({
  name: 'slow',
  description: 'Answers after a moment.',
  parameters: Type.Object({ n: Type.Integer() }),
  isConcurrencySafe: () => true,
  execute: async ({ n }) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return `slow ${n}`;
  },
});

function twoCallModel() {
  return new ScriptedModel({
    steps: [
      { toolCalls: [scriptedToolCall('slow', { n: 0 }, 'a'), scriptedToolCall('slow', { n: 1 }, 'b')] },
      { content: 'x' },
    ],
  });
}

/** Collects the process warnings emitted while a test runs. */
const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);
process.on('warning', onWarning);
afterEach(() => {
  warnings.length = 0;
});
const nextTick = () => new Promise((resolve) => setImmediate(resolve));

describe('a listener that throws', () => {
  it('still gets every event, and the other listeners and the stream are untouched', async () => {
    const seen: AgentEvent[] = [];
    const harness = new AgentHarness({ model: twoCallModel(), tools: [slow], policy: { maxConcurrency: 2 } });
    const stream = harness.stream(user, {
      onEvent: (event) => {
        seen.push(event);
        if (event.type === 'tool_started' && event.callId === 'a') throw new Error('exporter hiccup');
      },
    });
    const streamed: AgentEvent[] = [];
    for await (const event of stream) streamed.push(event);
    const error = await stream.result.catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ name: 'ListenerError', listener: 'onEvent', eventType: 'tool_started' });
    // The batch in flight completed; the model was not called again; both saw the same events.
    expect(eventTypes(seen).slice(5)).toEqual([
      'tool_started',
      'tool_started',
      'tool_completed',
      'tool_completed',
      'turn_completed',
      'run_failed',
    ]);
    expect(toolEventViolations(seen)).toEqual([]);
    expect(streamed).toEqual(seen);
    await nextTick();
    expect(warnings).toEqual([]);
  });

  it('on every event is reported once, with its first throw', async () => {
    const seen: AgentEvent[] = [];
    const harness = new AgentHarness({ model: twoCallModel(), tools: [slow], policy: { maxConcurrency: 2 } });
    const error = await harness
      .invoke({}, user, {
        onEvent: (event) => {
          seen.push(event);
          throw new Error(`throw ${seen.length}`);
        },
      })
      .catch((thrown: unknown) => thrown);
    expect(ListenerError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ eventType: 'run_started', cause: { message: 'throw 1' } });
    // The run stops before its first turn; the listener still got its final event.
    expect(eventTypes(seen)).toEqual(['run_started', 'tools_advertised', 'run_failed']);
    await nextTick();
    expect(warnings).toEqual([]);
  });

  it('while the run fails for another reason is emitted as a process warning, once', async () => {
    const controller = new AbortController();
    const seen: string[] = [];
    const harness = new AgentHarness({ model: twoCallModel(), tools: [slow], policy: { maxConcurrency: 2 } });
    const error = await harness
      .invoke({ signal: controller.signal }, user, {
        onEvent: (event) => {
          seen.push(event.type);
          if (event.type === 'tool_started') {
            controller.abort(new Error('host stop'));
            throw new Error('listener bug');
          }
        },
      })
      .catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ name: 'RunCancelledError' });
    expect(seen.at(-1)).toBe('run_failed');
    await nextTick();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ name: 'ListenerError', eventType: 'tool_started' });
    expect(warnings[0]?.message).toContain('listener bug');
  });

  it('on run_completed leaves the run as the record says (a paused run keeps its state) and is a process warning', async () => {
    const pausing = defineTool({
      name: 'pausing',
      description: 'Hands the call to the host.',
      parameters: Type.Object({}),
      execute: () => {
        throw new CallDeferredError({ reason: 'host runs it' });
      },
    });
    const model = new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall('pausing', {}, 'p1')] }] });
    const run = await new AgentHarness({ model, tools: [pausing] }).invoke({}, user, {
      onEvent: (event) => {
        if (event.type === 'run_completed') throw new Error('exporter down');
      },
    });
    expect(run.outcome).toBe('deferred');
    expect(run.state?.pending?.calls.map((call) => call.callId)).toEqual(['p1']);
    expect(run.events.at(-1)).toMatchObject({ type: 'run_completed', outcome: 'deferred' });
    await nextTick();
    expect(warnings.map((warning) => (warning as ListenerError).eventType)).toEqual(['run_completed']);
    expect(warnings[0]?.message).toContain('exporter down');
  });

  it('on run_failed is emitted as a process warning, not swallowed', async () => {
    const model = new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall('missing', {})] }] });
    const harness = new AgentHarness({ model, policy: { unknownTool: { kind: 'fail' } } });
    const error = await harness
      .invoke({}, user, {
        onEvent: (event) => {
          if (event.type === 'run_failed') throw new Error('late listener bug');
        },
      })
      .catch((thrown: unknown) => thrown);
    expect(ListenerError.isInstance(error)).toBe(false);
    await nextTick();
    expect(warnings.map((warning) => (warning as ListenerError).eventType)).toEqual(['run_failed']);
  });
});
