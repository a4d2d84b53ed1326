import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expectTypeOf, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import type { DeferredCall, ToolArguments } from '../deferral/deferred-call.js';
import { DeferredToolResults } from '../deferral/deferred-tool-results.js';
import type { RunState } from '../deferral/run-state.js';
import { ScriptedModel } from '../testkit/index.js';
import type { AgentRun, DeferredToolRequests } from './agent-run.js';

const pay = defineTool({
  name: 'pay',
  description: 'Pay someone.',
  parameters: Type.Object({ to: Type.String(), cents: Type.Integer() }),
  policy: ToolPolicy.classified().requiringApproval(),
  execute: ({ to, cents }) => `paid ${cents} to ${to}`,
});
declare const run: AgentRun;

describe('AgentRun', () => {
  it('is a union on outcome: only a deferred run has deferred and state', () => {
    if (run.outcome === 'deferred') {
      expectTypeOf(run.deferred).toEqualTypeOf<DeferredToolRequests>();
      expectTypeOf(run.state).toEqualTypeOf<RunState>();
    } else {
      expectTypeOf(run.deferred).toEqualTypeOf<undefined>();
      expectTypeOf(run.state).toEqualTypeOf<undefined>();
    }
    if (run.outcome === 'interrupted') expectTypeOf(run.interrupt.by).toEqualTypeOf<string>();
    if (run.outcome === 'final') expectTypeOf(run.interrupt).toEqualTypeOf<undefined>();
  });
});

describe('typed approvals', () => {
  it('approvalsFor types the calls of one tool with its name and arguments', () => {
    if (run.outcome !== 'deferred') return;
    const [call] = run.deferred.approvalsFor(pay);
    expectTypeOf(run.deferred.approvals[0]).toEqualTypeOf<DeferredCall | undefined>();
    expectTypeOf(call?.toolName).toEqualTypeOf<string | undefined>();
    expectTypeOf(call?.arguments).toEqualTypeOf<ToolArguments<typeof pay> | undefined>();
    expectTypeOf<ToolArguments<typeof pay>['cents']>().toEqualTypeOf<number>();
    expectTypeOf<ToolArguments<typeof pay>['to']>().toEqualTypeOf<string>();
    if (call === undefined) return;
    new DeferredToolResults().approveWithArgs(call, { ...call.arguments, cents: 250 });
    // @ts-expect-error cents must be a number
    new DeferredToolResults().approveWithArgs(call, { to: 'ada', cents: '250' });
    // @ts-expect-error `to` is missing
    new DeferredToolResults().approveWithArgs(call, { cents: 250 });
  });

  it('approveWithArgs<typeof tool> types the edit for an id or an untyped call', () => {
    const results = new DeferredToolResults().approveWithArgs<typeof pay>('c1', { to: 'ada', cents: 1 });
    expectTypeOf(results).toEqualTypeOf<DeferredToolResults>();
    // @ts-expect-error cents must be a number
    new DeferredToolResults().approveWithArgs<typeof pay>('c1', { to: 'ada', cents: 'x' });
    // Untyped: anything goes (checked against the schema on resume).
    new DeferredToolResults().approveWithArgs('c1', { anything: true });
    if (run.outcome === 'deferred' && run.deferred.approvals[0] !== undefined)
      new DeferredToolResults().approveWithArgs(run.deferred.approvals[0], 42);
  });
});

describe('invoke and stream', () => {
  it('take messages or a prompt, with or without a context', () => {
    const harness = new AgentHarness({ model: new ScriptedModel({ steps: [] }), tools: [pay] });
    expectTypeOf(harness.invoke('hi')).toEqualTypeOf<Promise<AgentRun>>();
    expectTypeOf(harness.invoke([{ role: 'user', content: 'hi' }], { limits: { maxModelCalls: 2 } })).toEqualTypeOf<
      Promise<AgentRun>
    >();
    expectTypeOf(harness.invoke({ runId: 'r' }, 'hi')).toEqualTypeOf<Promise<AgentRun>>();
    harness.stream('hi');
    harness.stream({ hostValues: {} }, [{ role: 'user', content: 'hi' }]);
    // @ts-expect-error the context comes first
    harness.invoke('hi', { runId: 'r' }, {});
  });
});
