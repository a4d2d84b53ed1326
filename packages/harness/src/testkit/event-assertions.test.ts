import { CallDeferredError, defineTool } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { DeferredToolResults } from '../deferral/deferred-tool-results.js';
import type { AgentEvent } from '../events/agent-event.js';
import { toolEventViolations } from './event-assertions.js';
import { ScriptedModel, scriptedToolCall } from './scripted-model.js';

const run = { runId: 'r' };
const started = (callId: string): AgentEvent => ({ type: 'tool_started', callId, toolName: 't' });
const deferred = (callId: string): AgentEvent => ({ type: 'tool_deferred', callId, toolName: 't', reason: 'later' });
const completed = (callId: string): AgentEvent => ({
  type: 'tool_completed',
  callId,
  toolName: 't',
  startedAtMs: 0,
  durationMs: 0,
  outputBytes: 0,
});

describe('toolEventViolations', () => {
  it('counts tool_deferred as the outcome of a started call, and lets the paused call start again', () => {
    const events: AgentEvent[] = [
      { type: 'run_started', ...run },
      started('c1'),
      deferred('c1'),
      deferred('c2'),
      started('c1'),
      completed('c1'),
      { type: 'run_completed', ...run, outcome: 'final' },
    ];
    expect(toolEventViolations(events)).toEqual([]);
  });

  it('reports a second outcome, an outcome after the final event, and a call open at it', () => {
    const events: AgentEvent[] = [
      { type: 'run_started', ...run },
      started('c1'),
      completed('c1'),
      deferred('c1'),
      started('c2'),
      { type: 'run_completed', ...run, outcome: 'final' },
      completed('c2'),
    ];
    expect(toolEventViolations(events)).toEqual([
      'call c1 ended without a start (or ended twice)',
      "call c2 had no outcome before the run's final event",
      "call c2 ended after the run's final event",
    ]);
  });

  it('passes the record of a run whose call paused after it started, resolved inline', async () => {
    let asked = 0;
    const tool = defineTool({
      name: 't',
      description: 't',
      parameters: { type: 'object', properties: {}, additionalProperties: true } as const,
      execute: () => {
        asked += 1;
        if (asked === 1) throw new CallDeferredError({ reason: 'later' });
        return 'ran';
      },
    });
    const model = new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall('t', {}, 'c1')] }, { content: 'done' }] });
    const result = await new AgentHarness({
      model,
      tools: [tool],
      deferredToolHandler: (requests) => new DeferredToolResults().respond(requests.calls[0]?.callId ?? '', 'host'),
    }).invoke('go');
    expect(result.events.map((event) => event.type)).toContain('tool_deferred');
    expect(toolEventViolations(result.events)).toEqual([]);
  });
});
