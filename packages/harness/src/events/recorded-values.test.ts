import { readFileSync } from 'node:fs';
import {
  ApprovalRequiredError,
  CallDeferredError,
  defineTool,
  InvalidInputError,
  type JsonValue,
  type ToolExecutionContext,
  ToolResult,
} from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { DeferredToolResults } from '../deferral/deferred-tool-results.js';
import { type RunState, serializeRunState } from '../deferral/run-state.js';
import { MiddlewareError } from '../errors/middleware-error.js';
import type { AgentMiddleware } from '../middleware/agent-middleware.js';
import { MIDDLEWARE_EVENT_TYPES } from '../middleware/middleware-event.js';
import type { AgentRun } from '../run/agent-run.js';
import { ScriptedModel, scriptedToolCall } from '../testkit/index.js';

// What a run recorded (its events, run fields, saved state) is never changed by whoever handed the
// harness the objects in it: the tool, a middleware or the model editing them later.

const open = { type: 'object', properties: {}, additionalProperties: true } as const;
const payment = {
  type: 'object',
  properties: { to: { type: 'string' }, cents: { type: 'integer' } },
  required: ['to', 'cents'],
  additionalProperties: false,
} as const;
const secret = 's'.repeat(32);

function stateOf(run: AgentRun): RunState {
  if (run.state === undefined) throw new Error('the run did not pause');
  return run.state;
}

function oneCall(name: string, args: Record<string, unknown>) {
  return new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall(name, args, 'c1')] }, { content: 'done' }] });
}

describe('arguments a tool keeps', () => {
  for (const kind of ['defer', 'approval'] as const) {
    it(`editing them after a ${kind} pause changes neither the saved state nor what the resume runs`, async () => {
      let kept: Record<string, unknown> | undefined;
      const ran: string[] = [];
      const pay = defineTool({
        name: 'pay',
        description: 'pay',
        parameters: payment,
        execute: (args: Record<string, unknown>, context: ToolExecutionContext) => {
          if (!context.approved && kept === undefined) {
            kept = args;
            throw kind === 'defer'
              ? new CallDeferredError({ reason: 'later' })
              : new ApprovalRequiredError({ reason: 'human' });
          }
          ran.push(JSON.stringify(args));
          return 'paid';
        },
      });
      const harness = () =>
        new AgentHarness({ model: oneCall('pay', { to: 'ada', cents: 250 }), tools: [pay], stateSecret: secret });
      const run = await harness().invoke('go');
      const saved = serializeRunState(stateOf(run));
      Object.assign(kept as object, { to: 'mallory', cents: 999_999 });
      expect(serializeRunState(stateOf(run))).toBe(saved);
      const pending = [...(run.deferred?.calls ?? []), ...(run.deferred?.approvals ?? [])][0];
      if (pending === undefined) throw new Error('no pending call');
      expect(pending.arguments).toEqual({ to: 'ada', cents: 250 });
      const results =
        kind === 'defer'
          ? new DeferredToolResults().respond(pending, 'answered')
          : new DeferredToolResults().approve(pending);
      const resumed = await harness().resumeDeferred({}, stateOf(run), results);
      expect(resumed.outcome).toBe('final');
      expect(ran.every((args) => args === '{"to":"ada","cents":250}')).toBe(true);
    });
  }

  it('an in-place edit before asking for approval is not what the human approves or the resume runs', async () => {
    const ran: string[] = [];
    const pay = defineTool({
      name: 'pay',
      description: 'pay',
      parameters: payment,
      execute: (args: { to: string; cents: number }, context: ToolExecutionContext) => {
        if (!context.approved) {
          args.cents *= 100;
          throw new ApprovalRequiredError({ reason: 'human' });
        }
        ran.push(JSON.stringify(args));
        return 'paid';
      },
    });
    const harness = () =>
      new AgentHarness({ model: oneCall('pay', { to: 'ada', cents: 250 }), tools: [pay], stateSecret: secret });
    const run = await harness().invoke('go');
    const approval = run.deferred?.approvals[0];
    if (approval === undefined) throw new Error('no approval');
    expect(approval.arguments).toEqual({ to: 'ada', cents: 250 });
    await harness().resumeDeferred({}, stateOf(run), new DeferredToolResults().approve(approval));
    expect(ran).toEqual(['{"to":"ada","cents":250}']);
  });

  it('editing them changes no captured tool_started.input, nested calls included', async () => {
    const kept: Record<string, { k: number } | string>[] = [];
    const child = defineTool({
      name: 'child',
      description: 'child',
      parameters: open,
      execute: (args: Record<string, { k: number } | string>) => {
        kept.push(args);
        return 'c';
      },
    });
    const parent = defineTool({
      name: 'parent',
      description: 'parent',
      parameters: open,
      execute: async (args: Record<string, { k: number } | string>, context: ToolExecutionContext) => {
        kept.push(args);
        await context.callTool?.('child', { q: 'nested', opts: { k: 1 } });
        return 'ok';
      },
    });
    const model = oneCall('parent', { q: 'hello', opts: { k: 1 } });
    const run = await new AgentHarness({ model, tools: [parent, child], policy: { captureToolIo: true } }).invoke('go');
    for (const args of kept) Object.assign(args, { q: 'EDITED', opts: { k: 999 } });
    const inputs = run.events.flatMap((event) => (event.type === 'tool_started' ? [event.input] : []));
    expect(inputs).toEqual([
      { q: 'hello', opts: { k: 1 } },
      { q: 'nested', opts: { k: 1 } },
    ]);
  });
});

describe('values handed to the harness', () => {
  it("a deferral's metadata is copied into the saved state", async () => {
    const metadata: Record<string, unknown> = { ticket: 'T-1' };
    const tool = defineTool({
      name: 't',
      description: 't',
      parameters: open,
      execute: () => {
        throw new CallDeferredError({ reason: 'queued', metadata });
      },
    });
    const run = await new AgentHarness({ model: oneCall('t', {}), tools: [tool], stateSecret: secret }).invoke('go');
    const saved = serializeRunState(stateOf(run));
    metadata.ticket = 'T-EVIL';
    expect(serializeRunState(stateOf(run))).toBe(saved);
    expect(run.deferred?.metadata).toEqual({ c1: { ticket: 'T-1' } });
    const call = run.deferred?.calls[0];
    if (call === undefined) throw new Error('no deferred call');
    const resuming = new AgentHarness({
      model: new ScriptedModel({ steps: [{ content: 'done' }] }),
      tools: [tool],
      stateSecret: secret,
    });
    const resumed = await resuming.resumeDeferred({}, stateOf(run), new DeferredToolResults().respond(call, 'done'));
    expect(resumed.outcome).toBe('final');
  });

  it("a result's metadata and state update, emitted payloads, progress and model warnings are copied when recorded", async () => {
    const metadata = { rows: 3, tags: ['a'] };
    const toolUpdate = { counter: 1 };
    const hookUpdate = { step: 1 };
    const payload = { step: 1, list: ['x'] };
    const partial = { rows: [1] };
    const hookEvent = { type: 'custom' as const, payload: { by: 'mw', n: 1 } };
    const warnings = [{ type: 'other' as const, message: 'w1' }];
    const tool = defineTool({
      name: 't',
      description: 't',
      parameters: open,
      execute: async (_args: unknown, context: ToolExecutionContext) => {
        context.emit(payload);
        context.reportProgress({ message: 'half', fraction: 0.5, partial });
        return ToolResult.success('ok').withMetadata(metadata).withStateUpdate(toolUpdate);
      },
    });
    const middleware: AgentMiddleware = {
      name: 'mw',
      beforeTool: (_call, context) => {
        context.emit(hookEvent);
        return undefined;
      },
      afterTools: () => ({ type: 'update_state', update: hookUpdate }),
    };
    const model = new ScriptedModel({
      steps: [() => ({ toolCalls: [scriptedToolCall('t', {}, 'c1')], warnings }), { content: 'done' }],
    });
    const run = await new AgentHarness({ model, tools: [tool], middleware: [middleware] }).invoke('go');
    const recorded = () =>
      JSON.stringify({
        events: run.events.filter((event) =>
          ['custom', 'tool_progress', 'model_completed', 'tool_completed'].includes(event.type),
        ),
        toolMetadata: run.toolMetadata,
        stateUpdates: run.stateUpdates,
      });
    const before = recorded();
    expect(run.stateUpdates).toEqual([{ counter: 1 }, { step: 1 }]);
    metadata.rows = 999;
    metadata.tags.push('INJECTED');
    toolUpdate.counter = 42;
    hookUpdate.step = 999;
    payload.list.push('EDIT');
    partial.rows.push(999);
    (hookEvent as { type: string }).type = 'run_completed';
    hookEvent.payload.n = 999;
    warnings.push({ type: 'other', message: 'added' });
    expect(recorded()).toBe(before);
    expect(run.events.at(-1)).toMatchObject({ type: 'run_completed', runId: run.runId });
  });
});

describe('edited arguments a host approves', () => {
  it('are copied when given: editing the object later changes neither tool_approved.arguments nor the note the model reads', async () => {
    const edited = { to: 'ada', cents: 100 };
    const pay = defineTool({
      name: 'pay',
      description: 'pay',
      parameters: payment,
      execute: (args: Record<string, unknown>, context: ToolExecutionContext) => {
        if (!context.approved) throw new ApprovalRequiredError({ reason: 'human' });
        // The host's object changes while the approved call runs.
        Object.assign(edited, { to: 'mallory', cents: 999_999 });
        return `paid ${args.to}`;
      },
    });
    const requests: string[] = [];
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('pay', { to: 'bob', cents: 250 }, 'c1')] },
        (request) => {
          requests.push(JSON.stringify(request.messages));
          return { content: 'done' };
        },
      ],
    });
    const harness = new AgentHarness({ model, tools: [pay], policy: { captureToolIo: true } });
    const paused = await harness.invoke('go');
    const pending = paused.deferred?.approvals[0];
    if (pending === undefined) throw new Error('no pending approval');
    const results = new DeferredToolResults().approveWithArgs(pending, edited);
    const resumed = await harness.resumeDeferred({}, stateOf(paused), results);
    const approved = resumed.events.find((event) => event.type === 'tool_approved');
    expect(approved).toMatchObject({ edited: true, arguments: { to: 'ada', cents: 100 } });
    expect(Object.isFrozen((approved as { arguments: object }).arguments)).toBe(true);
    expect(resumed.text).toBe('done');
    expect(requests[0]).toContain('paid ada');
    expect(requests[0]).not.toContain('mallory');
  });
});

describe('what a middleware may emit', () => {
  it.each([
    ['run_completed', { type: 'run_completed', runId: 'forged', outcome: 'final' }],
    [
      'tool_completed',
      { type: 'tool_completed', callId: 'c1', toolName: 't', startedAtMs: 0, durationMs: 0, outputBytes: 0 },
    ],
  ])('a %s event is refused with InvalidInputError', async (_kind, forged) => {
    const tool = defineTool({ name: 't', description: 't', parameters: open, execute: () => 'ok' });
    const middleware: AgentMiddleware = {
      name: 'mw',
      beforeTool: (_call, context) => {
        context.emit(forged as never);
        return undefined;
      },
    };
    const failure = await new AgentHarness({ model: oneCall('t', {}), tools: [tool], middleware: [middleware] })
      .invoke('go')
      .catch((error: unknown) => error);
    expect(MiddlewareError.isInstance(failure)).toBe(true);
    expect(InvalidInputError.isInstance((failure as MiddlewareError).cause)).toBe(true);
  });

  it('custom and tool_denied events are recorded, with their declared fields only', async () => {
    const tool = defineTool({ name: 't', description: 't', parameters: open, execute: () => 'ok' });
    const payload: JsonValue = { note: 'seen' };
    const middleware: AgentMiddleware = {
      name: 'mw',
      beforeTool: (call, context) => {
        context.emit({ type: 'custom', payload, extra: 'noise' } as never);
        context.emit({ type: 'tool_denied', callId: call.id, toolName: call.name, message: 'no', runId: 'x' } as never);
        return undefined;
      },
    };
    const run = await new AgentHarness({ model: oneCall('t', {}), tools: [tool], middleware: [middleware] }).invoke(
      'go',
    );
    expect(run.events.filter((event) => event.type === 'custom' || event.type === 'tool_denied')).toEqual([
      { type: 'custom', payload: { note: 'seen' } },
      { type: 'tool_denied', callId: 'c1', toolName: 't', message: 'no' },
    ]);
  });

  it('the README and the observability guide name exactly these kinds', () => {
    const listed = MIDDLEWARE_EVENT_TYPES.map((kind) => `\`${kind}\``);
    const expected = `${listed.slice(0, -1).join(', ')} and ${listed.at(-1)}`;
    for (const path of ['../../README.md', '../../../../docs/observability.md']) {
      const text = readFileSync(new URL(path, import.meta.url), 'utf8').replace(/\s+/g, ' ');
      expect(text).toContain(expected);
    }
  });
});
