import { EventSchemas, RunAgentInputSchema } from '@ag-ui/core/schemas';
import { describe, expect, it } from 'vitest';
import { API_KEY, createScenario, MEMO } from '../scenarios.test-helper.js';
import type { AgUiEvent } from './ag-ui-event.js';
import { handleAgUiRequest } from './handle-ag-ui-request.js';

async function post(handler: (request: Request) => Promise<Response>, body: unknown) {
  // Every input is a valid RunAgentInput by the official schema.
  expect(RunAgentInputSchema.safeParse(body).success).toBe(true);
  const response = await handler(new Request('http://127.0.0.1/ag-ui', { method: 'POST', body: JSON.stringify(body) }));
  if (response.status !== 200)
    return { status: response.status, events: [] as AgUiEvent[], json: await response.json() };
  const frames = (await response.text()).split('\n\n').filter((frame) => frame !== '');
  const events = frames.map((frame) => JSON.parse(frame.slice('data: '.length)) as AgUiEvent);
  for (const event of events) expect(EventSchemas.safeParse(event).success, JSON.stringify(event)).toBe(true);
  return { status: 200, events, json: undefined };
}

const input = (extra: Record<string, unknown> = {}) => ({
  threadId: 't1',
  runId: 'client-run-1',
  messages: [{ id: 'u1', role: 'user', content: 'pay ada' }],
  tools: [],
  context: [],
  ...extra,
});

async function paused() {
  const setup = createScenario('approval');
  const handler = (request: Request) => handleAgUiRequest(setup.harness, request, { context: setup.context });
  const first = await post(handler, input());
  const finished = first.events.at(-1);
  if (finished?.type !== 'RUN_FINISHED' || finished.outcome?.type !== 'interrupt') throw new Error('no interrupt');
  const interrupt = finished.outcome.interrupts[0];
  expect(interrupt).toMatchObject({ toolCallId: 'c2', metadata: { arguments: { memo: '[redacted]' } } });
  expect(JSON.stringify(first.events)).not.toContain(MEMO);
  return { ...setup, handler, interruptId: interrupt?.id as string, threadId: finished.threadId };
}

describe('handleAgUiRequest', () => {
  it('resumes an interrupt from a resolved resume entry: the call runs once, then RUN_FINISHED with the answer', async () => {
    const { handler, interruptId, log } = await paused();
    expect(log).toEqual([]);
    const resume = input({
      runId: 'client-run-2',
      resume: [{ interruptId, status: 'resolved', payload: { approved: true } }],
    });
    const second = await post(handler, resume);
    expect(log).toEqual(['pay:ada:500:true']);
    expect(second.events.find((event) => event.type === 'TOOL_CALL_RESULT')).toMatchObject({
      content: 'paid 500 to ada',
    });
    expect(second.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', threadId: 't1', result: 'Done: paid ada.' });
    expect(JSON.stringify(second.events)).not.toContain(API_KEY);
    const replay = await post(handler, resume);
    expect(replay.status).toBe(409);
    expect(replay.json).toMatchObject({ problem: 'unknown_approval' });
    expect(log).toEqual(['pay:ada:500:true']);
  });

  it('a cancelled entry denies the call; an unknown interrupt id runs nothing', async () => {
    const { handler, interruptId, log } = await paused();
    const forged = await post(
      handler,
      input({ resume: [{ interruptId: 'made-up', status: 'resolved', payload: { approved: true } }] }),
    );
    expect(forged.status).toBe(409);
    const denied = await post(handler, input({ resume: [{ interruptId, status: 'cancelled' }] }));
    expect(log).toEqual([]);
    expect(denied.events.find((event) => event.type === 'TOOL_CALL_RESULT')).toMatchObject({
      content: expect.stringContaining('denied'),
    });
  });

  it('a resolved entry without payload.approved is malformed (409), nothing runs', async () => {
    const { handler, interruptId, log } = await paused();
    const answer = await post(handler, input({ resume: [{ interruptId, status: 'resolved', payload: 'yes' }] }));
    expect(answer.status).toBe(409);
    expect(answer.json).toMatchObject({ problem: 'malformed' });
    expect(log).toEqual([]);
  });
});
