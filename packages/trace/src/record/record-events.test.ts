import type { AgentEvent } from '@tiny/harness';
import { describe, expect, it } from 'vitest';
import { recordEvents } from './record-events.js';

describe('recordEvents', () => {
  it('timestamps each event, forwards it, and serialises as a recording', () => {
    let clock = 100;
    const seen: string[] = [];
    const recorder = recordEvents({ now: () => (clock += 5), forward: (event) => seen.push(event.type) });
    const events: AgentEvent[] = [
      { type: 'run_started', runId: 'r' },
      { type: 'run_completed', runId: 'r', outcome: 'final' },
    ];
    for (const event of events) recorder.onEvent(event);
    expect(recorder.recording).toEqual({
      version: 1,
      events: [
        { at: 105, event: events[0] },
        { at: 110, event: events[1] },
      ],
    });
    expect(seen).toEqual(['run_started', 'run_completed']);
    expect(JSON.parse(JSON.stringify(recorder.recording))).toEqual(recorder.recording);
  });
});
