import { EventSchemas } from '@ag-ui/core/schemas';
import { AgentHarness, ModelCallError } from '@tiny/harness';
import { ScriptedModel } from '@tiny/harness/testkit';
import { describe, expect, it } from 'vitest';
import { InMemoryApprovalStore } from '../chat/approval-store.js';
import { API_KEY, createScenario, createTools, MEMO, type Scenario } from '../scenarios.test-helper.js';
import type { AgUiEvent } from './ag-ui-event.js';
import { toAgUiResponse } from './ag-ui-response.js';
import { toAgUiEvents } from './to-ag-ui-events.js';

async function events(scenario: Scenario, store?: InMemoryApprovalStore): Promise<AgUiEvent[]> {
  const setup = createScenario(scenario);
  const run = setup.harness.stream(setup.context, 'go', { policy: { captureToolIo: true } });
  const out: AgUiEvent[] = [];
  for await (const event of toAgUiEvents(run, {
    tools: setup.harness,
    approvalStore: store,
  }) as unknown as AsyncIterable<AgUiEvent>)
    out.push(event);
  return out;
}

/** Every event through the official @ag-ui/core zod schema (what the AG-UI clients parse with). */
function validate(list: readonly AgUiEvent[]): void {
  for (const event of list) {
    const parsed = EventSchemas.safeParse(JSON.parse(JSON.stringify(event)));
    expect(parsed.success, `${JSON.stringify(event)}: ${parsed.error?.message}`).toBe(true);
  }
}

const scenarios: Scenario[] = ['native', 'prompt_guided', 'approval', 'tool_error', 'model_error'];

describe('toAgUiEvents', () => {
  it.each(scenarios)(
    '%s: every event passes @ag-ui/core validation; RUN_STARTED first, one terminal event last',
    async (scenario) => {
      const list = await events(scenario);
      validate(list);
      expect(list[0]?.type).toBe('RUN_STARTED');
      const terminal = list.filter((event) => event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR');
      expect(terminal).toHaveLength(1);
      expect(list.at(-1)).toBe(terminal[0]);
    },
  );

  it('native: text messages, the tool call with its arguments and result, progress as CUSTOM, the final result', async () => {
    const list = await events('native');
    const types = list.map((event) => event.type);
    // The arguments follow whole once the call is admitted (a call cut inside them never leaves pieces).
    expect(types.filter((type) => type.startsWith('TOOL_CALL'))).toEqual([
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'TOOL_CALL_RESULT',
    ]);
    const args = list.flatMap((event) => (event.type === 'TOOL_CALL_ARGS' ? [event.delta] : [])).join('');
    expect(JSON.parse(args)).toEqual({ id: 'a1' });
    expect(list.find((event) => event.type === 'TOOL_CALL_RESULT')).toMatchObject({ content: 'account a1: 120 EUR' });
    expect(list.filter((event) => event.type === 'CUSTOM')).toHaveLength(2);
    expect(list.at(-1)).toMatchObject({
      type: 'RUN_FINISHED',
      result: 'Account a1 holds 120 EUR.',
      outcome: { type: 'success' },
    });
    expect(types.filter((type) => type === 'STEP_STARTED')).toHaveLength(2);
    expect(types.filter((type) => type === 'STEP_FINISHED')).toHaveLength(2);
  });

  it('prompt-guided: no call markup in text content', async () => {
    const list = await events('prompt_guided');
    const text = list.flatMap((event) => (event.type === 'TEXT_MESSAGE_CONTENT' ? [event.delta] : [])).join('');
    expect(text).not.toMatch(/<|tool_call|"arguments"/);
    expect(list.some((event) => event.type === 'TOOL_CALL_RESULT')).toBe(true);
  });

  it('approval: RUN_FINISHED with an interrupt outcome for the call, redacted arguments, kept in the store', async () => {
    const store = new InMemoryApprovalStore();
    const list = await events('approval', store);
    const finished = list.at(-1);
    expect(finished).toMatchObject({
      type: 'RUN_FINISHED',
      outcome: { type: 'interrupt', interrupts: [{ reason: 'tool_approval', toolCallId: 'c2' }] },
    });
    const interrupt =
      finished?.type === 'RUN_FINISHED' && finished.outcome?.type === 'interrupt'
        ? finished.outcome.interrupts[0]
        : undefined;
    expect(store.get(interrupt?.id ?? '')?.approvals).toEqual([{ approvalId: interrupt?.id, toolCallId: 'c2' }]);
    const wire = JSON.stringify(list);
    expect(wire).not.toContain(MEMO);
    expect(wire).not.toContain(API_KEY);
    expect(wire).toContain('[redacted]');
  });

  it('model error: RUN_ERROR with the ModelCallError kind as code', async () => {
    const list = await events('model_error');
    expect(list.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'auth', message: expect.stringContaining('(auth)') });
  });

  it('toAgUiResponse writes each event as one server-sent event', async () => {
    const setup = createScenario('native');
    const response = toAgUiResponse(setup.harness.stream(setup.context, 'go'));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const text = await response.text();
    const frames = text.split('\n\n').filter((frame) => frame !== '');
    const parsed = frames.map((frame) => {
      expect(frame.startsWith('data: ')).toBe(true);
      return JSON.parse(frame.slice('data: '.length)) as AgUiEvent;
    });
    validate(parsed);
    expect(parsed.at(-1)?.type).toBe('RUN_FINISHED');
  });
});

// Breaker #F: a call whose argument text was cut (the model failed inside it) got TOOL_CALL_END after
// argument pieces that do not join to JSON.
describe('a call cut off inside its arguments', () => {
  it('ends without argument pieces and is answered with an error', async () => {
    class CutModel extends ScriptedModel {
      override async doStream() {
        async function* parts() {
          yield { type: 'text_delta' as const, delta: 'Looking. ' };
          yield { type: 'tool_call_start' as const, id: 'c1', name: 'lookup' };
          yield { type: 'tool_call_delta' as const, id: 'c1', argumentsDelta: '{"id":' };
          throw new ModelCallError({ message: 'the stream broke', kind: 'invalid_request', statusCode: 400 });
        }
        return { stream: parts(), warnings: [] };
      }
    }
    const harness = new AgentHarness({ model: new CutModel({ steps: [{ content: '' }] }), tools: createTools().tools });
    const run = harness.stream('go', { policy: { captureToolIo: true } });
    const list: AgUiEvent[] = [];
    for await (const event of toAgUiEvents(run, { tools: harness }) as unknown as AsyncIterable<AgUiEvent>)
      list.push(event);
    validate(list);
    const call = list.filter((event) => 'toolCallId' in event && event.toolCallId === 'c1').map((event) => event.type);
    expect(call).toEqual(['TOOL_CALL_START', 'TOOL_CALL_END', 'TOOL_CALL_RESULT']);
    expect(list.find((event) => event.type === 'TOOL_CALL_RESULT')).toMatchObject({
      content: 'Not run: the call was cut off before its arguments were complete.',
    });
    expect(list.at(-1)?.type).toBe('RUN_ERROR');
  });
});
