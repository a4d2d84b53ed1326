import { AgentHarness, DeferredToolResults } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { recordEvents, type TraceRecording } from '../record/record-events.js';

/**
 * Three runs recorded into one trace, as the quickstart records them: a run that pauses for an
 * approval, its resume (same run id, turns numbered from 1 again by the harness), then a separate
 * run that reuses a call id of the first. A clock that ticks 5 ms per event keeps it deterministic.
 */
export async function recordMultiRunTrace(): Promise<{
  recording: TraceRecording;
  firstRunId: string;
  secondRunId: string;
}> {
  const lookup = defineTool({
    name: 'lookup',
    description: 'Look something up.',
    parameters: Type.Object({ q: Type.String() }),
    policy: ToolPolicy.readOnly(),
    execute: ({ q }) => `found ${q}`,
  });
  const send = defineTool({
    name: 'send',
    description: 'Send a message.',
    parameters: Type.Object({ to: Type.String() }),
    policy: ToolPolicy.classified().withSideEffects({ network: true }).requiringApproval(),
    execute: ({ to }) => `sent to ${to}`,
  });
  const model = new ScriptedModel({
    steps: [
      { toolCalls: [scriptedToolCall('lookup', { q: 'a' }, 'c1')] },
      { toolCalls: [scriptedToolCall('lookup', { q: 'b' }, 'c2'), scriptedToolCall('send', { to: 'ada' }, 'c3')] },
      { content: 'Sent.' },
      { toolCalls: [scriptedToolCall('lookup', { q: 'again' }, 'c1')] },
      { content: 'Done again.' },
    ],
  });
  const harness = new AgentHarness({ model, tools: [lookup, send] });
  let clock = 1_800_000_000_000;
  const recorder = recordEvents({ now: () => (clock += 5) });
  const options = { onEvent: recorder.onEvent, policy: { captureToolIo: true } };
  const paused = await harness.invoke({}, 'look up and send', options);
  if (paused.outcome !== 'deferred' || paused.state === undefined || paused.deferred === undefined) {
    throw new Error(`expected a paused run, got ${paused.outcome}`);
  }
  const decisions = new DeferredToolResults().approveAll(paused.deferred);
  const resumed = await harness.resumeDeferred({}, paused.state, decisions, options);
  if (resumed.outcome !== 'final') throw new Error(`expected the resume to end final, got ${resumed.outcome}`);
  const second = await harness.invoke({}, 'again', options);
  return { recording: recorder.recording, firstRunId: paused.runId, secondRunId: second.runId };
}
