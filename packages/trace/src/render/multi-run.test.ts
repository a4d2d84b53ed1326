import { beforeAll, describe, expect, it } from 'vitest';
import { buildTrace } from '../model/build-trace.js';
import { normalizeInput } from '../model/trace-input.js';
import type { TurnView } from '../model/trace-view.js';
import type { TraceRecording } from '../record/record-events.js';
import { recordMultiRunTrace } from './multi-run.test-helper.js';
import { renderTraceHtml } from './render-trace-html.js';

let recording: TraceRecording;
let firstRunId: string;
let secondRunId: string;
let html: string;

beforeAll(async () => {
  ({ recording, firstRunId, secondRunId } = await recordMultiRunTrace());
  html = renderTraceHtml(recording, { title: 'three runs' });
});

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

describe('a trace that holds several runs', () => {
  it('shows each run as its own section, a resume inside the run it continues', () => {
    const view = buildTrace(normalizeInput(recording));
    expect(firstRunId).not.toBe(secondRunId);
    expect(view.runs.map((run) => run.runId)).toEqual([firstRunId, secondRunId]);
    expect(view.runs.map((run) => run.parts.map((part) => [part.resumed, part.outcome]))).toEqual([
      [
        [false, 'deferred'],
        [true, 'final'],
      ],
      [[false, 'final']],
    ]);
    expect(count(html, /<section class="run-section"/g)).toBe(2);
    expect(html).toContain(`data-run-id="${firstRunId}" data-outcome="final"`);
    expect(html).toContain(`data-run-id="${secondRunId}" data-outcome="final"`);
    expect(html).toContain('deferred → resumed → final');
  });

  it('numbers a resumed run on from the turn it paused in, and counts turns as the harness started them', () => {
    const view = buildTrace(normalizeInput(recording));
    const [first, second] = view.runs;
    // Run 1: turns 1 and 2, the pause; the resume runs the approved call (turn 2, resumed), then turn 3.
    expect(first?.turns.map((turn) => [turn.turn, turn.resumed])).toEqual([
      [1, false],
      [2, false],
      [2, true],
      [3, false],
    ]);
    expect(second?.turns.map((turn) => [turn.turn, turn.resumed])).toEqual([
      [1, false],
      [2, false],
    ]);
    const started = recording.events.filter((entry) => entry.event.type === 'turn_started').length;
    expect(view.totals.turns).toBe(started);
    expect(html).toContain(`<b>${started}</b> turns`);
  });

  it('keeps calls with the turn and run that made them, even when a later run reuses the id', () => {
    const view = buildTrace(normalizeInput(recording));
    const [first, second] = view.runs;
    const calls = (turns: readonly TurnView[]) =>
      turns.map((turn) => turn.tools.map((call) => `${call.callId}:${call.toolName}:${call.status}`));
    expect(calls(first?.turns ?? [])).toEqual([
      ['c1:lookup:ok'],
      ['c2:lookup:ok', 'c3:send:deferred'],
      ['c3:send:ok'],
      [],
    ]);
    expect(first?.turns[2]?.tools[0]?.approved).toBe(true);
    expect(calls(second?.turns ?? [])).toEqual([['c1:lookup:ok'], []]);
    expect(second?.turns[0]?.tools[0]?.output).toBe('found again');
  });

  it('shows no empty box and the header does not claim one outcome for several runs', () => {
    expect(html).not.toContain('Before the first turn');
    expect(html).toContain('Turn 2, resumed: the decided calls run');
    expect(html).toContain('<b>2</b> runs, one section each');
    const header = html.slice(html.indexOf('<header'), html.indexOf('</header>'));
    expect(header).not.toContain('class="outcome');
  });

  it('notes a tool that returned undefined in the turn it ran in', () => {
    const page = renderTraceHtml([
      { type: 'run_started', runId: 'r1' },
      { type: 'turn_started', turn: 1 },
      { type: 'tool_returned_undefined', toolName: 'forgetful', sent: '' },
      { type: 'run_completed', runId: 'r1', outcome: 'final' },
    ]);
    expect(page).toContain(
      '<li class="warn"><b>empty result</b> forgetful returned undefined; the model was sent &quot;&quot;</li>',
    );
  });

  it('names what stopped a run that ended `stopped`', () => {
    const page = renderTraceHtml([
      { type: 'run_started', runId: 'r1' },
      { type: 'turn_started', turn: 1 },
      { type: 'control_applied', control: 'stop_with_final', detail: '{}', by: 'structured-output:tool' },
      { type: 'run_completed', runId: 'r1', outcome: 'stopped' },
    ]);
    expect(page).toContain(
      '<span class="outcome stopped">stopped</span> <span class="dim">(stop_with_final by structured-output:tool)</span>',
    );
  });
});
