import { type Message, messageText } from '@tiny/llm';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import type { RunState } from '../deferral/run-state.js';
import { eventsOfType, ScriptedModel, toolEventViolations } from '../testkit/index.js';
import { InMemoryToolEffectLedger } from './in-memory-tool-effect-ledger.js';

const toolText = (messages: readonly Message[], id: string) =>
  messageText(messages.find((message) => message.role === 'tool' && message.toolCallId === id) as Message);

/** A checkpoint taken before `a1` (append, never replayed) and `r1` (refresh, replay-safe) ran. */
const checkpoint: RunState = {
  version: 1,
  runId: 'twice',
  messages: [
    { role: 'user', content: 'append x, refresh' },
    {
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: 'a1', name: 'append', arguments: '{"line":"x"}' },
        { id: 'r1', name: 'refresh', arguments: '{"line":"x"}' },
      ],
    },
  ],
  budgets: { modelCalls: 1, toolCalls: 0 },
  usage: {},
};

function tools(log: string[]) {
  const append = defineTool({
    name: 'append',
    description: 'Append a line (never repeat).',
    parameters: Type.Object({ line: Type.String() }),
    policy: ToolPolicy.classified().withRuntime({ replay: 'never' }),
    execute: ({ line }) => {
      log.push(`append:${line}`);
      return 'appended';
    },
  });
  const refresh = defineTool({
    name: 'refresh',
    description: 'Refresh a cache (safe to repeat).',
    parameters: Type.Object({ line: Type.String() }),
    policy: ToolPolicy.classified().withRuntime({ replay: 'safe' }),
    execute: ({ line }) => {
      log.push(`refresh:${line}`);
      return 'refreshed';
    },
  });
  return [append, refresh];
}

/** A resume that reconciles, then "crashes" at its model call (the checkpoint on disk stays the old one). */
async function crashingResume(ledger: InMemoryToolEffectLedger, log: string[]) {
  const model = new ScriptedModel({
    steps: [
      () => {
        throw new Error('process killed');
      },
    ],
  });
  const error = await new AgentHarness({ model, tools: tools(log), ledger }).resume({}, checkpoint).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(Error);
}

async function finalResume(ledger: InMemoryToolEffectLedger, log: string[]) {
  const model = new ScriptedModel({ steps: [{ content: 'done' }] });
  return new AgentHarness({ model, tools: tools(log), ledger }).resume({}, checkpoint);
}

describe('resume after repeated crashes', () => {
  it.each([2, 3])('after %i crashes, never reports an unknown effect as done, nor repeats it', async (crashes) => {
    const ledger = new InMemoryToolEffectLedger();
    const log: string[] = [];
    // The first process died while `append` ran: its row is `started`, `refresh` never started.
    await ledger.started({ runId: 'twice', callId: 'a1', tool: 'append', idempotencyKey: 'k' });
    for (let resume = 1; resume < crashes; resume++) await crashingResume(ledger, log);
    const statusAfterCrashes = ledger.rows('twice').map((row) => [row.callId, row.status]);
    // The crashed resumes settled `a1` as `interrupted` and ran `refresh` (it had no row yet).
    expect(statusAfterCrashes).toEqual([
      ['a1', 'interrupted'],
      ['r1', 'completed'],
    ]);

    const run = await finalResume(ledger, log);
    expect(log.filter((entry) => entry.startsWith('append'))).toEqual([]);
    expect(toolText(run.messages, 'a1')).toMatch(/interrupted before settlement: it may or may not have taken effect/);
    expect(toolText(run.messages, 'a1')).not.toMatch(/completed|ended before|result was lost/);
    // The replay-safe call ran once per resume (its answer never reached a checkpoint).
    expect(log.filter((entry) => entry.startsWith('refresh'))).toHaveLength(crashes);
    expect(toolText(run.messages, 'r1')).toBe('refreshed');
    expect(
      eventsOfType(run.events, 'tool_effect_reconciled').map((event) => [event.callId, event.action, event.recorded]),
    ).toEqual([
      ['a1', 'interrupted', 'interrupted'],
      ['r1', 're_execute', 'completed'],
    ]);
    expect(ledger.rows('twice').map((row) => row.status)).toEqual(['interrupted', 'completed']);
    expect(run.outcome).toBe('final');
    expect(toolEventViolations(run.events)).toEqual([]);
  });

  it('with a ledger that cannot list rows, leaves the row started so a second crash never reruns the call', async () => {
    const inner = new InMemoryToolEffectLedger();
    // Only the required methods: no `rows`.
    const ledger = {
      started: inner.started.bind(inner),
      settled: inner.settled.bind(inner),
      unresolved: inner.unresolved.bind(inner),
    };
    const log: string[] = [];
    await ledger.started({ runId: 'twice', callId: 'a1', tool: 'append', idempotencyKey: 'k' });
    for (let crash = 0; crash < 2; crash++) {
      const model = new ScriptedModel({
        steps: [
          () => {
            throw new Error('process killed');
          },
        ],
      });
      await new AgentHarness({ model, tools: tools(log), ledger }).resume({}, checkpoint).catch(() => undefined);
    }
    expect(inner.rows('twice').find((row) => row.callId === 'a1')?.status).toBe('started');
    const model = new ScriptedModel({ steps: [{ content: 'done' }] });
    const run = await new AgentHarness({ model, tools: tools(log), ledger }).resume({}, checkpoint);
    expect(log.filter((entry) => entry.startsWith('append'))).toEqual([]);
    expect(toolText(run.messages, 'a1')).toMatch(/may or may not have taken effect/);
  });

  it.each<['completed' | 'failed', RegExp]>([
    ['completed', /completed before the run was interrupted, but its result was lost/],
    ['failed', /failed before the run was interrupted, and its error was lost/],
  ])('reports a late %s outcome that replaced an earlier resume’s guess', async (late, answer) => {
    const ledger = new InMemoryToolEffectLedger();
    const log: string[] = [];
    await ledger.started({ runId: 'twice', callId: 'a1', tool: 'append', idempotencyKey: 'k' });
    await crashingResume(ledger, log);
    // The first process was not dead after all: it settles the real outcome late.
    await ledger.settled({ runId: 'twice', callId: 'a1', status: late });
    await ledger.settled({ runId: 'twice', callId: 'a1', status: 'interrupted' });
    expect(ledger.rows('twice')[0]?.status).toBe(late);
    const run = await finalResume(ledger, log);
    expect(toolText(run.messages, 'a1')).toMatch(answer);
    expect(log.filter((entry) => entry.startsWith('append'))).toEqual([]);
  });
});
