import { type Message, messageText } from '@tiny/llm';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import type { RunState } from '../deferral/run-state.js';
import { eventsOfType, ScriptedModel, scriptedToolCall, toolEventViolations } from '../testkit/index.js';
import { defaultIdempotencyKey } from './idempotency-key.js';
import { InMemoryToolEffectLedger } from './in-memory-tool-effect-ledger.js';
import type { ToolEffectLedger } from './tool-effect-ledger.js';

const user = (text: string): Message[] => [{ role: 'user', content: text }];
const toolText = (messages: readonly Message[], id: string) =>
  messageText(messages.find((message) => message.role === 'tool' && message.toolCallId === id) as Message);

describe('tool-effect ledger', () => {
  it('writes started before execute and settles after; error results settle completed, throws failed', async () => {
    const ledger = new InMemoryToolEffectLedger();
    const seenDuringExecute: string[] = [];
    const send = defineTool({
      name: 'send',
      description: '',
      parameters: Type.Object({ to: Type.String() }),
      policy: ToolPolicy.classified().withSideEffects({ externalService: true }),
      execute: async ({ to }, context) => {
        const row = ledger.rows('r1').find((entry) => entry.callId === context.callId);
        seenDuringExecute.push(`${row?.status}:${row?.idempotencyKey === context.idempotencyKey}`);
        if (to === 'boom') throw new Error('smtp down');
        return to === 'nobody' ? { refused: true } : 'sent';
      },
    });
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('send', { to: 'ada' }, 'a'), scriptedToolCall('send', { to: 'nobody' }, 'b')] },
        { toolCalls: [scriptedToolCall('send', { to: 'boom' }, 'c')] },
        { content: 'done' },
      ],
    });
    await new AgentHarness({ model, tools: [send], ledger, policy: { toolErrors: { kind: 'return_error' } } }).invoke(
      { runId: 'r1' },
      user('go'),
    );
    expect(seenDuringExecute).toEqual(['started:true', 'started:true', 'started:true']);
    expect(ledger.rows('r1').map((row) => [row.callId, row.status])).toEqual([
      ['a', 'completed'],
      ['b', 'completed'],
      ['c', 'failed'],
    ]);
    expect(await ledger.unresolved('r1')).toEqual([]);
  });

  it('derives the key from run id, call id, tool name and canonical arguments, unless the tool declares one', async () => {
    const key = (toolName: string, args: unknown, callId = 'c', runId = 'r') =>
      defaultIdempotencyKey({ runId, callId, toolName, arguments: args });
    expect(key('pay', { a: 1, b: { y: 2, x: [1, { q: 1, p: 2 }] } })).toBe(
      key('pay', { b: { x: [1, { p: 2, q: 1 }], y: 2 }, a: 1 }),
    );
    expect(key('pay', { a: 1 })).not.toBe(key('refund', { a: 1 }));
    expect(key('pay', { a: 1 })).not.toBe(key('pay', { a: 1 }, 'd'));
    expect(key('pay', { a: 1 })).not.toBe(key('pay', { a: 1 }, 'c', 's'));
    expect(key('pay', { a: 1 })).toMatch(/^[0-9a-f]{64}$/);
    const ledger = new InMemoryToolEffectLedger();
    const order = defineTool({
      name: 'order',
      description: '',
      parameters: Type.Object({ sku: Type.String() }),
      idempotencyKey: ({ sku }) => `order-${sku}`,
      execute: (_args, context) => context.idempotencyKey ?? 'none',
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('order', { sku: 'x1' }, 'o')] }, { content: 'ok' }],
    });
    const run = await new AgentHarness({ model, tools: [order], ledger }).invoke({ runId: 'r2' }, user('go'));
    expect(toolText(run.messages, 'o')).toBe('order-x1');
    expect(ledger.rows('r2')[0]?.idempotencyKey).toBe('order-x1');
  });

  it('keeps host-injected values out of the default key and out of the host rule', async () => {
    const keys: string[] = [];
    const seenByRule: unknown[] = [];
    const pay = defineTool({
      name: 'pay',
      description: '',
      parameters: Type.Object({ cents: Type.Integer(), pin: Type.String() }),
      injected: [{ name: 'pin', source: 'host' }],
      execute: (_args, context) => {
        keys.push(context.idempotencyKey ?? '');
        return 'paid';
      },
    });
    for (const [pin, rule] of [
      ['0000', undefined],
      ['9999', undefined],
      [
        '1234',
        (call: { arguments: unknown }) => {
          seenByRule.push(call.arguments);
          return 'host-key';
        },
      ],
    ] as const) {
      const ledger = new InMemoryToolEffectLedger();
      const model = new ScriptedModel({
        steps: [{ toolCalls: [scriptedToolCall('pay', { cents: 5 }, 'p1')] }, { content: 'ok' }],
      });
      await new AgentHarness({ model, tools: [pay], ledger, idempotencyKey: rule }).invoke(
        { runId: 'r3', hostValues: { pin } },
        user('go'),
      );
      expect(ledger.rows('r3')[0]?.idempotencyKey).toBe(keys.at(-1));
    }
    const expected = defaultIdempotencyKey({ runId: 'r3', callId: 'p1', toolName: 'pay', arguments: { cents: 5 } });
    expect(keys).toEqual([expected, expected, 'host-key']);
    expect(seenByRule).toEqual([{ cents: 5 }]);
  });

  it('does not run a call whose started row cannot be written, unless told to continue', async () => {
    const broken: ToolEffectLedger = {
      started: async () => {
        throw new Error('disk full');
      },
      settled: async () => {},
      unresolved: async () => [],
    };
    const log: string[] = [];
    const charge = defineTool({
      name: 'charge',
      description: '',
      parameters: Type.Object({}),
      execute: () => {
        log.push('charged');
        return 'ok';
      },
    });
    const steps = [{ toolCalls: [scriptedToolCall('charge', {}, 'c1')] }, { content: 'done' }];
    const aborted = await new AgentHarness({
      model: new ScriptedModel({ steps }),
      tools: [charge],
      ledger: broken,
    }).invoke({}, user('go'));
    expect(log).toEqual([]);
    expect(toolText(aborted.messages, 'c1')).toMatch(/was not run: its effect could not be recorded \(disk full\)/);
    expect(eventsOfType(aborted.events, 'ledger_write_failed')[0]).toMatchObject({
      phase: 'started',
      action: 'aborted',
    });
    const continued = await new AgentHarness({
      model: new ScriptedModel({ steps }),
      tools: [charge],
      ledger: broken,
      ledgerFailure: 'continue',
    }).invoke({}, user('go'));
    expect(log).toEqual(['charged']);
    expect(eventsOfType(continued.events, 'ledger_write_failed')[0]).toMatchObject({ action: 'continued' });
  });

  it('never fails the run on a settle write failure', async () => {
    const inner = new InMemoryToolEffectLedger();
    const flaky: ToolEffectLedger = {
      started: (row) => inner.started(row),
      settled: async () => {
        throw new Error('locked');
      },
      unresolved: (runId) => inner.unresolved(runId),
    };
    const echo = defineTool({ name: 'echo', description: '', parameters: Type.Object({}), execute: () => 'hi' });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('echo', {}, 'e')] }, { content: 'done' }],
    });
    const run = await new AgentHarness({ model, tools: [echo], ledger: flaky }).invoke({ runId: 'r3' }, user('go'));
    expect(run.text).toBe('done');
    expect(eventsOfType(run.events, 'ledger_write_failed')[0]).toMatchObject({ phase: 'settled', action: 'ignored' });
    expect((await inner.unresolved('r3')).map((row) => row.callId)).toEqual(['e']);
  });
});

describe('resume after a crash', () => {
  function crashScenario(ledger: InMemoryToolEffectLedger, log: string[]) {
    const hang = new Promise<never>(() => {});
    const make = (name: string, replay: 'never' | 'safe') =>
      defineTool({
        name,
        description: '',
        parameters: Type.Object({ n: Type.Integer() }),
        policy: ToolPolicy.classified().withRuntime({ replay }),
        execute: ({ n }) => {
          log.push(`${name}:${n}`);
          return n === 0 && name === 'send_email' ? hang : `${name} ok`;
        },
      });
    return { tools: [make('send_email', 'never'), make('fetch_feed', 'safe'), make('later', 'never')], ledger };
  }

  it('re-runs only replay-safe calls whose effect is unsettled, answers the rest, and runs calls that never started', async () => {
    const ledger = new InMemoryToolEffectLedger();
    const log: string[] = [];
    const { tools } = crashScenario(ledger, log);
    const controller = new AbortController();
    let checkpoint: RunState | undefined;
    const first = new ScriptedModel({
      steps: [
        {
          toolCalls: [
            scriptedToolCall('send_email', { n: 0 }, 's1'),
            scriptedToolCall('fetch_feed', { n: 0 }, 'f1'),
            scriptedToolCall('later', { n: 1 }, 'l1'),
          ],
        },
      ],
    });
    // The batch is serial: send_email hangs (the "crash" point), so fetch_feed and later never start.
    setTimeout(() => controller.abort(new Error('process killed')), 20);
    await new AgentHarness({ model: first, tools, ledger })
      .invoke({ runId: 'crash-1', signal: controller.signal }, user('go'), {
        onCheckpoint: (state) => {
          checkpoint = JSON.parse(JSON.stringify(state));
        },
      })
      .catch(() => undefined);
    expect(log).toEqual(['send_email:0']);
    expect((await ledger.unresolved('crash-1')).map((row) => row.callId)).toEqual(['s1']);
    expect(checkpoint?.pending).toBeUndefined();

    // Pretend fetch_feed had also started before the crash.
    await ledger.started({ runId: 'crash-1', callId: 'f1', tool: 'fetch_feed', idempotencyKey: 'k' });
    const second = new ScriptedModel({
      steps: [(request) => ({ content: `saw ${request.messages.filter((m) => m.role === 'tool').length} results` })],
    });
    const resumedTools = crashScenario(ledger, log).tools.map((tool) => tool);
    const run = await new AgentHarness({ model: second, tools: resumedTools, ledger }).resume(
      {},
      checkpoint as RunState,
    );
    expect(log).toEqual(['send_email:0', 'fetch_feed:0', 'later:1']);
    expect(toolText(run.messages, 's1')).toMatch(/interrupted before settlement/);
    expect(eventsOfType(run.events, 'tool_effect_reconciled').map((event) => [event.callId, event.action])).toEqual([
      ['s1', 'interrupted'],
      ['f1', 're_execute'],
    ]);
    expect(ledger.rows('crash-1').find((row) => row.callId === 's1')?.status).toBe('interrupted');
    expect(run.text).toBe('saw 3 results');
    expect(toolEventViolations(run.events)).toEqual([]);
  });
});

describe('resume after a crash: finished but unrecorded calls', () => {
  it('does not run a completed replay-never call again when its result was lost', async () => {
    const ledger = new InMemoryToolEffectLedger();
    const log: string[] = [];
    const email = defineTool({
      name: 'send_email',
      description: '',
      parameters: Type.Object({ to: Type.String() }),
      policy: ToolPolicy.classified().withRuntime({ replay: 'never' }),
      execute: ({ to }) => {
        log.push(`email:${to}`);
        return 'sent';
      },
    });
    const checkpoint: RunState = {
      version: 1,
      runId: 'crash-2',
      messages: [
        { role: 'user', content: 'mail ada' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'm1', name: 'send_email', arguments: '{"to":"ada"}' }] },
      ],
      budgets: { modelCalls: 1, toolCalls: 0 },
      usage: {},
    };
    // The process finished the call and settled its row, then died before the transcript was saved.
    await ledger.started({ runId: 'crash-2', callId: 'm1', tool: 'send_email', idempotencyKey: 'k' });
    await ledger.settled({ runId: 'crash-2', callId: 'm1', status: 'completed' });
    const model = new ScriptedModel({ steps: [{ content: 'ok' }] });
    const run = await new AgentHarness({ model, tools: [email], ledger }).resume({}, checkpoint);
    expect(log).toEqual([]);
    expect(toolText(run.messages, 'm1')).toMatch(/completed before the run was interrupted, but its result was lost/);
    expect(eventsOfType(run.events, 'tool_effect_reconciled')[0]).toMatchObject({
      callId: 'm1',
      action: 'interrupted',
    });
  });
});

describe('idempotency key rule', () => {
  it('uses the host rule for tools without their own key, and hands it to the tool', async () => {
    const ledger = new InMemoryToolEffectLedger();
    const echo = defineTool({
      name: 'echo',
      description: '',
      parameters: Type.Object({}),
      execute: (_args, context) => context.idempotencyKey,
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('echo', {}, 'e1')] }, { content: 'ok' }],
    });
    const run = await new AgentHarness({
      model,
      tools: [echo],
      ledger,
      idempotencyKey: ({ runId, callId }) => `${runId}:${callId}`,
    }).invoke({ runId: 'r7' }, user('go'));
    expect(toolText(run.messages, 'e1')).toBe('r7:e1');
    expect(ledger.rows('r7')[0]?.idempotencyKey).toBe('r7:e1');
  });
});
