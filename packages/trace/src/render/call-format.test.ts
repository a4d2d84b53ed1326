import type { AgentEvent } from '@tiny/harness';
import { describe, expect, it } from 'vitest';
import { buildTrace } from '../model/build-trace.js';
import { normalizeInput } from '../model/trace-input.js';
import { renderTraceHtml } from './render-trace-html.js';

// Issue #31: the viewer shows the format a call was written in and the grammar it was read with.
const events: AgentEvent[] = [
  { type: 'run_started', runId: 'r1' } as AgentEvent,
  { type: 'turn_started', turn: 1 },
  { type: 'tool_started', callId: 'c1', toolName: 'weather', format: 'xml', grammar: 'xml_element' },
  {
    type: 'tool_completed',
    callId: 'c1',
    toolName: 'weather',
    format: 'xml',
    grammar: 'xml_element',
    startedAtMs: 0,
    durationMs: 1,
    outputBytes: 5,
  },
  { type: 'tool_started', callId: 'c2', toolName: 'lookup' },
  { type: 'tool_completed', callId: 'c2', toolName: 'lookup', startedAtMs: 0, durationMs: 1, outputBytes: 2 },
];

describe('call formats in the trace viewer', () => {
  it('records the format and grammar of a call and shows them in its details', () => {
    const view = buildTrace(normalizeInput(events));
    const calls = view.turns.flatMap((turn) => turn.tools);
    expect(calls.map((call) => [call.toolName, call.format, call.grammar])).toEqual([
      ['weather', 'xml', 'xml_element'],
      ['lookup', undefined, undefined],
    ]);
    const html = renderTraceHtml(events);
    expect(html).toContain('<dt>written as</dt><dd>xml (read with xml_element)</dd>');
    expect(html.match(/written as/g)).toHaveLength(1);
  });
});
