import type { LanguageModelV1Request, Message } from '@tiny/llm';
import { type AnyTool, defineTool, ToolPolicy, ToolResult } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { DeferredToolResults } from '../deferral/deferred-tool-results.js';
import { parseRunState, serializeRunState } from '../deferral/run-state.js';
import { InvalidRunStateError } from '../errors/invalid-run-state-error.js';
import type { AgentEvent } from '../events/agent-event.js';
import { eventsOfType, prefixViolations, ScriptedModel, scriptedToolCall } from '../testkit/index.js';
import type { ToolSet } from '../toolsets/tool-set.js';

const user = (text: string): Message[] => [{ role: 'user', content: text }];

function tool(name: string, extra: Record<string, unknown> = {}, description = `The ${name} operation.`): AnyTool {
  return defineTool({
    name,
    description,
    parameters: Type.Object({ id: Type.String() }),
    policy: ToolPolicy.readOnly(),
    execute: ({ id }: { id: string }) => `${name} ${id}`,
    ...extra,
  }) as AnyTool;
}

/** A toolset whose listing the test changes between turns, like an MCP server's `tools/list_changed`. */
function mutableToolSet(initial: AnyTool[]): ToolSet & { tools_: AnyTool[] } {
  const set = {
    label: 'mutable',
    tools_: initial,
    tools: () => set.tools_,
    async call(name: string, args: unknown) {
      const found = set.tools_.find((entry) => entry.name === name);
      if (found === undefined) return ToolResult.error(`no ${name}`);
      return ToolResult.success(String(await found.execute(args as never, {} as never)));
    },
  };
  return set;
}

const toolNames = (request: LanguageModelV1Request | undefined) => request?.tools?.map((entry) => entry.name);

describe('a prefix-stable run', () => {
  it('appends discovery promotions and toolset additions, keeps the order across a resume in another harness, and reports only the real change', async () => {
    const set = mutableToolSet([tool('zeta_lookup')]);
    const approval = tool('pay', {
      policy: ToolPolicy.classified().withSideEffects({ payment: true }).requiringApproval(),
    });
    const registry = [
      tool('get_weather'),
      approval,
      tool('refund_payment', { exposure: 'deferred' }),
      tool('send_mail', { exposure: 'deferred' }),
    ];
    const first = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('tool_search', { query: 'refund a payment' }, 's1')] },
        () => {
          // An MCP-style list change: a tool whose name sorts first arrives mid-run.
          set.tools_ = [...set.tools_, tool('alpha_lookup')];
          return { toolCalls: [scriptedToolCall('refund_payment', { id: 'r1' }, 'r1')] };
        },
        { toolCalls: [scriptedToolCall('pay', { id: 'p1' }, 'p1')] },
      ],
    });
    const paused = await new AgentHarness({ model: first, tools: registry, toolSets: [set] }).invoke(
      { runId: 'run' },
      user('go'),
    );
    expect(paused.outcome).toBe('deferred');
    expect(toolNames(first.requests[0])).toEqual(['get_weather', 'pay', 'zeta_lookup', 'tool_search', 'tool_call']);
    expect(toolNames(first.requests[1])).toEqual([...(toolNames(first.requests[0]) ?? []), 'refund_payment']);
    expect(toolNames(first.requests[2])).toEqual([...(toolNames(first.requests[1]) ?? []), 'alpha_lookup']);

    // Resume in a fresh harness from the serialised state; then a real change: a tool's description.
    const state = parseRunState(serializeRunState(paused.state as NonNullable<typeof paused.state>));
    const second = new ScriptedModel({
      steps: [
        () => {
          set.tools_ = set.tools_.map((entry) =>
            entry.name === 'zeta_lookup' ? tool('zeta_lookup', {}, 'Looks up zetas (v2).') : entry,
          );
          return { toolCalls: [scriptedToolCall('get_weather', { id: 'w' }, 'w1')] };
        },
        { content: 'done' },
      ],
    });
    const resumed = await new AgentHarness({ model: second, tools: registry, toolSets: [set] }).resumeDeferred(
      {},
      state,
      new DeferredToolResults().approveAll(paused.deferred ?? { approvals: [] }),
    );
    expect(resumed.outcome).toBe('final');
    expect(toolNames(second.requests[0])).toEqual(toolNames(first.requests[2]));
    const requests = [...first.requests, ...second.requests];
    const events: AgentEvent[] = [...paused.events, ...resumed.events];
    expect(prefixViolations(requests, events)).toEqual([]);
    // Each appended tool is still a change (the system and history after the tools are lost), and
    // so is the changed description; the resume itself is none.
    const changes = eventsOfType(events, 'prompt_prefix_changed');
    expect(changes.map((event) => event.changes)).toEqual([
      [{ part: 'tool', change: 'added', toolName: 'refund_payment', appended: true }],
      [{ part: 'tool', change: 'added', toolName: 'alpha_lookup', appended: true }],
      [{ part: 'tool', change: 'changed', toolName: 'zeta_lookup' }],
    ]);
    for (const change of changes) expect(change.lostPrefixTokens).toBeGreaterThan(0);
    const started = eventsOfType(events, 'model_started');
    expect(new Set(started.map((event) => event.prefixFingerprint)).size).toBe(started.length);
  });

  it('reports a resume whose host changed the system prompt, naming the system and the tokens lost', async () => {
    const first = new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall('pay', { id: 'p1' }, 'p1')] }] });
    const pay = tool('pay', { policy: ToolPolicy.classified().withSideEffects({ payment: true }).requiringApproval() });
    const paused = await new AgentHarness({ model: first, tools: [pay] }).invoke({}, [
      { role: 'system', content: 'You are terse.' },
      ...user('pay'),
    ]);
    const state = paused.state as NonNullable<typeof paused.state>;
    const edited = {
      ...state,
      messages: [{ role: 'system' as const, content: 'You are verbose.' }, ...state.messages.slice(1)],
    };
    const second = new ScriptedModel({ steps: [{ content: 'done' }] });
    const resumed = await new AgentHarness({ model: second, tools: [pay] }).resumeDeferred(
      {},
      edited,
      new DeferredToolResults().approveAll(paused.deferred ?? { approvals: [] }),
    );
    const changes = eventsOfType(resumed.events, 'prompt_prefix_changed');
    expect(changes.map((event) => event.changes)).toEqual([[{ part: 'system', change: 'changed' }]]);
    expect(prefixViolations([...first.requests, ...second.requests], [...paused.events, ...resumed.events])).toEqual(
      [],
    );
  });

  it('reports system text that a beforeModel patch adds on a later turn, once', async () => {
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('get_weather', { id: 'a' }, 'a1')] },
        { toolCalls: [scriptedToolCall('get_weather', { id: 'b' }, 'b1')] },
        { content: 'done' },
      ],
    });
    let turn = 0;
    const run = await new AgentHarness({
      model,
      tools: [tool('get_weather')],
      middleware: [
        {
          name: 'trim',
          beforeModel: () => {
            turn += 1;
            return turn === 3 ? { systemMessages: ['Be brief.'] } : undefined;
          },
        },
      ],
    }).invoke({}, user('weather twice'));
    const changes = eventsOfType(run.events, 'prompt_prefix_changed');
    expect(changes.map((event) => event.changes)).toEqual([[{ part: 'system', change: 'changed' }]]);
    expect(prefixViolations(model.requests, run.events)).toEqual([]);
  });

  it('refuses a run state whose saved prefix is malformed, with InvalidRunStateError', () => {
    const base = {
      version: 1,
      runId: 'r',
      messages: [{ role: 'user', content: 'hi' }],
      budgets: { modelCalls: 0, toolCalls: 0 },
      usage: {},
    };
    expect(
      parseRunState(JSON.stringify({ ...base, prefix: { toolOrder: ['a'], promoted: [] } })).prefix?.toolOrder,
    ).toEqual(['a']);
    for (const prefix of [{ toolOrder: 'a', promoted: [] }, { toolOrder: [], promoted: [1] }, { toolOrder: [] }]) {
      expect(() => parseRunState(JSON.stringify({ ...base, prefix }))).toThrow(InvalidRunStateError);
    }
  });
});
