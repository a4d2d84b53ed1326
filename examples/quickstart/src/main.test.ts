import { AgentHarness, DeferredToolResults } from '@tiny/harness';
import { eventsOfType, ScriptedModel } from '@tiny/harness/testkit';
import { invokeStructured, ResponseFormat } from '@tiny/structured';
import { recordEvents, renderTraceHtml } from '@tiny/trace';
import { describe, expect, it } from 'vitest';
import { createEventFormatter, short } from './format-event.js';
import { demoScript, TripSummary } from './script.js';
import { createNoteTool, sendSms, weather } from './tools.js';

describe('quickstart demo', () => {
  it('recovers, pauses for approval, runs the host-edited call, then answers typed', async () => {
    const outbox: string[] = [];
    const model = new ScriptedModel({ steps: demoScript });
    const harness = new AgentHarness({ model, tools: [weather, createNoteTool(outbox), sendSms] });
    const context = { hostValues: { apiKey: 'sk-test-secret' } };
    const stream = harness.stream(context, [{ role: 'user', content: 'go' }]);
    const deltas: string[] = [];
    for await (const event of stream) if (event.type === 'model_delta') deltas.push(event.delta);
    const paused = await stream.result;
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toContain('Let me check the forecast for Oslo.');
    expect(paused.outcome).toBe('deferred');
    expect(eventsOfType(paused.events, 'unknown_tool_call')[0]?.recovery).toBe('tool_error');
    expect(eventsOfType(paused.events, 'invalid_tool_args')[0]?.recovery).toBe('repaired');
    expect(paused.deferred?.approvals.map((call) => call.toolName)).toEqual(['send_sms']);
    expect(outbox).toHaveLength(1);

    const call = paused.deferred?.approvals[0];
    if (call === undefined || paused.state === undefined) throw new Error('expected a paused run');
    const edited = { to: '+4712345678', text: 'Snow in Oslo (approved)' };
    const done = await harness.resumeDeferred(
      context,
      paused.state,
      new DeferredToolResults().approveWithArgs(call.callId, edited),
    );
    expect(done.outcome).toBe('final');
    const sms = done.messages.find((message) => message.role === 'tool' && message.toolCallId === call.callId);
    expect(sms?.content).toContain('Sent to +4712345678 with key sk-…: "Snow in Oslo (approved)"');

    const summary = await invokeStructured(
      harness,
      context,
      [...done.messages, { role: 'user', content: 'Summarise the trip.' }],
      ResponseFormat.auto({ name: 'trip_summary', schema: TripSummary }),
    );
    expect(summary.parsed).toEqual({
      city: 'Oslo',
      days: 2,
      forecast: 'light snow, -3 °C',
      packing: ['boots', 'gloves'],
      reminderSent: true,
    });
    expect(JSON.stringify(model.requests)).not.toContain('sk-test-secret');
  });

  it('never prints a call the harness answered without running as started', async () => {
    const model = new ScriptedModel({ steps: demoScript.slice(0, 1).concat([{ content: 'done' }]) });
    const run = await new AgentHarness({ model, tools: [weather] }).invoke({}, [{ role: 'user', content: 'go' }]);
    const format = createEventFormatter();
    const lines = run.events.map(format).filter((line) => line !== undefined);
    expect(lines.some((line) => line.startsWith('> get_weather'))).toBe(false);
    expect(lines.some((line) => line.startsWith('! unknown tool `get_weather`'))).toBe(true);
    expect(lines.some((line) => line.startsWith('  the model reads: unknown tool'))).toBe(true);
  });

  it('prints the three runs as the trace shows them: same turns, same runs, success said as success', async () => {
    const model = new ScriptedModel({ steps: demoScript });
    const harness = new AgentHarness({
      model,
      tools: [weather, createNoteTool([]), sendSms],
      policy: { captureToolIo: true },
    });
    const context = { hostValues: { apiKey: 'sk-test-secret' } };
    const recorder = recordEvents();
    const format = createEventFormatter({ outputTools: ['trip_summary'] });
    const lines: string[] = [];
    const onEvent = (event: Parameters<typeof recorder.onEvent>[0]) => {
      recorder.onEvent(event);
      const line = format(event);
      if (line !== undefined) lines.push(...line.split('\n').filter((part) => part !== ''));
    };
    const paused = await harness.invoke(context, [{ role: 'user', content: 'go' }], { onEvent });
    if (paused.state === undefined || paused.deferred === undefined) throw new Error('expected a paused run');
    const done = await harness.resumeDeferred(
      context,
      paused.state,
      new DeferredToolResults().approveAll(paused.deferred),
      { onEvent },
    );
    await invokeStructured(
      harness,
      context,
      [...done.messages, { role: 'user', content: 'Summarise the trip.' }],
      ResponseFormat.auto({ name: 'trip_summary', schema: TripSummary }),
      { onEvent },
    );
    const summaryRun = lines
      .filter((line) => line.startsWith('== run '))
      .at(-1)
      ?.slice('== run '.length);

    // Turns: the resume goes on from turn 3 of its run; the summary is turn 1 of a run of its own.
    expect(lines.filter((line) => line.startsWith('-- turn')).map((line) => line.slice(3))).toEqual([
      'turn 1',
      'turn 2',
      'turn 3',
      'turn 4',
      'turn 1',
    ]);
    expect(lines.filter((line) => line.startsWith('== run'))).toEqual([
      `== run ${paused.runId}`,
      `== run ${paused.runId} resumes`,
      `== run ${summaryRun}`,
    ]);
    // The structured answer is shown, and its run is reported as the success it is.
    const answer = lines.find((line) => line.startsWith('= trip_summary'));
    expect(answer).toMatch(/^= trip_summary \[call-5\] answer checked against the schema: \{"city":"Oslo"/);
    expect(lines).toContain(`run ${summaryRun}: done, the structured answer ended it (outcome \`stopped\`)`);
    expect(lines.some((line) => /: stopped$/.test(line))).toBe(false);

    // The trace the demo writes shows the same: two runs, five turns, each run's own end.
    const html = renderTraceHtml(recorder.recording, { title: 'tiny quickstart' });
    expect(html.match(/<section class="run-section"/g)).toHaveLength(2);
    expect(html.match(/<section class="turn"[^>]*>\s*<h2>Turn/g)).toHaveLength(6); // 5 turns + the resumed calls
    expect(html).toContain('<b>5</b> turns');
    expect(html).toContain(`data-run-id="${paused.runId}" data-outcome="final"`);
    expect(html).toContain(`data-run-id="${summaryRun}" data-outcome="stopped"`);
    expect(html).not.toContain('Before the first turn');
  });

  it('shortens texts at a word boundary', () => {
    const text = 'Oslo will have light snow for the next two days and then some more snow after that';
    const cut = short(text, 40);
    expect(cut.length).toBeLessThanOrEqual(40);
    expect(cut.endsWith('…')).toBe(true);
    expect(text.startsWith(cut.slice(0, -1))).toBe(true);
    expect(text[cut.length - 1]).toBe(' '); // the cut falls on a space, not inside a word
    expect(short('short', 40)).toBe('short');
  });
});
