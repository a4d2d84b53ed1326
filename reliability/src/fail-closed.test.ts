import {
  AgentHarness,
  type AgentRun,
  ContextualToolSelectionMiddleware,
  DeferredToolResults,
  ToolPolicyMiddleware,
} from '@tiny/harness';
import { ScriptedModel, scriptedInvalidToolCall, scriptedToolCall, toolEventViolations } from '@tiny/harness/testkit';
import type { LanguageModelV1ToolCall, Message } from '@tiny/llm';
import { createValidator, defineTool, ToolPolicy } from '@tiny/tools';
import fc from 'fast-check';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from './property-runs.js';

const RUNS = Number(process.env.LOOP_RUNS ?? propertyRuns(400));

function createWorld() {
  const executions: { name: string; args: unknown }[] = [];
  const make = (name: string, extra: Record<string, unknown>) =>
    defineTool({
      name,
      description: `${name} tool.`,
      parameters: Type.Object(
        { to: Type.String({ minLength: 1 }), count: Type.Optional(Type.Integer()) },
        { additionalProperties: false },
      ),
      execute: (args) => {
        executions.push({ name, args });
        return `${name} ran`;
      },
      ...extra,
    });
  const tools = [
    make('safe_read', { policy: ToolPolicy.readOnly(), isConcurrencySafe: () => true }),
    make('side_effect', { policy: ToolPolicy.classified().withSideEffects({ network: true }) }),
    make('hidden_tool', { exposure: 'hidden' }),
    make('deferred_tool', { exposure: 'deferred' }),
    make('filtered_tool', { policy: ToolPolicy.readOnly() }),
    make('unclassified_tool', {}),
    make('needs_approval', { policy: ToolPolicy.classified().requiringApproval() }),
  ];
  return { executions, tools, declared: tools[0]?.parameters };
}

const names = [
  'safe_read',
  'side_effect',
  'hidden_tool',
  'deferred_tool',
  'filtered_tool',
  'unclassified_tool',
  'needs_approval',
  'remote',
];
const callArb = fc.record({
  name: fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 12 })),
  id: fc.constantFrom('a', 'b', 'c', 'dup', ''),
  args: fc.oneof(
    fc.record({ to: fc.string({ maxLength: 6 }) }),
    fc.record({
      to: fc.string({ minLength: 1, maxLength: 6 }),
      count: fc.oneof(fc.integer(), fc.double(), fc.string()),
    }),
    fc.jsonValue({ maxDepth: 2 }),
    fc.constant({}),
  ),
  raw: fc.option(
    fc.oneof(fc.string({ maxLength: 30 }), fc.constant('{to: "x",}'), fc.constant('{"to": "unterminated')),
    { nil: undefined },
  ),
});
const turnsArb = fc.array(fc.array(callArb, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 });

function toCalls(
  turn: { name: string; id: string; args: unknown; raw?: string | undefined }[],
): LanguageModelV1ToolCall[] {
  return turn.map((call) =>
    call.raw === undefined
      ? scriptedToolCall(call.name, call.args, call.id)
      : scriptedInvalidToolCall(call.name, call.raw, 'bad json', call.id),
  );
}

/** Every assistant call id gets exactly one tool answer, except ids still pending in a paused run. */
function answerViolations(run: AgentRun): string[] {
  const problems: string[] = [];
  const pending = new Set(
    [...(run.deferred?.approvals ?? []), ...(run.deferred?.calls ?? [])].map((call) => call.callId),
  );
  const messages = run.messages as Message[];
  for (const [index, message] of messages.entries()) {
    if (message.role !== 'assistant' || !message.toolCalls) continue;
    const answers = new Map<string, number>();
    for (let at = index + 1; at < messages.length && messages[at]?.role === 'tool'; at += 1) {
      const row = messages[at];
      if (row?.role === 'tool') answers.set(row.toolCallId, (answers.get(row.toolCallId) ?? 0) + 1);
    }
    for (const call of message.toolCalls) {
      const count = answers.get(call.id) ?? 0;
      if (pending.has(call.id) ? count !== 0 : count !== 1) problems.push(`${call.id} answered ${count} times`);
    }
  }
  return problems;
}

describe(`fail-closed through the whole loop (${RUNS} random runs)`, () => {
  it('runs only advertised, allowed, policy-passing tools with arguments that validate; answers every call once', async () => {
    await fc.assert(
      fc.asyncProperty(turnsArb, fc.boolean(), async (turns, strict) => {
        const { executions, tools } = createWorld();
        const model = new ScriptedModel({
          steps: [...turns.map((turn) => ({ toolCalls: toCalls(turn) })), { content: 'end' }],
        });
        const middleware = [ContextualToolSelectionMiddleware.fromLists({ deny: ['filtered_tool'] })];
        if (strict) middleware.push(ToolPolicyMiddleware.strict() as never);
        const harness = new AgentHarness({ model, tools, middleware, limits: { maxToolCalls: 1_000 } });
        harness.registry.registerExternal({ name: 'remote', description: 'Remote.', parameters: { type: 'object' } });
        let run: AgentRun;
        try {
          run = await harness.invoke({}, [{ role: 'user', content: 'go' }]);
        } catch (error) {
          throw new Error(`run failed: ${String(error)}`);
        }
        // Deferred tools are advertised through the tool_search manifest and callable by name
        // (inventory section 6); hidden, filtered, external and unknown tools never run.
        const allowed = new Set([
          'safe_read',
          'side_effect',
          ...(strict ? [] : ['unclassified_tool', 'deferred_tool']),
        ]);
        for (const execution of executions) {
          expect(allowed.has(execution.name), execution.name).toBe(true);
          expect(createValidator(tools[0]?.parameters ?? {}).validate(execution.args).ok).toBe(true);
          expect(execution.args).not.toEqual({});
        }
        expect(answerViolations(run)).toEqual([]);
        expect(toolEventViolations(run.events)).toEqual([]);
        // Resuming with every pending call denied always completes and answers everything.
        if (run.deferred) {
          const results = new DeferredToolResults();
          for (const call of [...run.deferred.approvals, ...run.deferred.calls]) results.deny(call.callId, 'no');
          const resumed = await harness.resumeDeferred({}, run.state!, results);
          expect(answerViolations(resumed)).toEqual([]);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
