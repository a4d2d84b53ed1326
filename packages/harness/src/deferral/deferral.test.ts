import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Message, messageText } from '@tiny/llm';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness, type InvokeOptions } from '../agent/agent-harness.js';
import { DeferredResolutionError } from '../errors/deferred-resolution-error.js';
import { InvalidRunStateError } from '../errors/invalid-run-state-error.js';
import type { AgentRun } from '../run/agent-run.js';
import type { RunContext } from '../run/run-context.js';
import { eventsOfType, ScriptedModel, scriptedToolCall, toolEventViolations } from '../testkit/index.js';
import { DeferredToolResults } from './deferred-tool-results.js';
import { parseRunState, type RunState, serializeRunState } from './run-state.js';

const user = (text: string): Message[] => [{ role: 'user', content: text }];
const toolTexts = (messages: readonly Message[]) =>
  messages
    .filter((message) => message.role === 'tool')
    .map((message) => [message.role === 'tool' && message.toolCallId, messageText(message)]);

type Mode = 'invoke' | 'stream';
const modes: Mode[] = ['invoke', 'stream'];

async function start(
  mode: Mode,
  harness: AgentHarness,
  context: RunContext,
  messages: Message[],
  options?: InvokeOptions,
) {
  if (mode === 'invoke') return harness.invoke(context, messages, options);
  const stream = harness.stream(context, messages, options);
  for await (const _event of stream);
  return stream.result;
}

async function resume(
  mode: Mode,
  harness: AgentHarness,
  state: RunState | string,
  results: DeferredToolResults,
): Promise<AgentRun> {
  if (mode === 'invoke') return harness.resumeDeferred({}, state, results);
  const stream = harness.streamResumeDeferred({}, state, results);
  for await (const _event of stream);
  return stream.result;
}

function bankScenario(continuation: unknown[] = []) {
  const log: string[] = [];
  const lookup = defineTool({
    name: 'lookup',
    description: 'Look up an account.',
    parameters: Type.Object({ id: Type.String() }),
    policy: ToolPolicy.readOnly(),
    execute: ({ id }) => {
      log.push(`lookup:${id}`);
      return `account ${id}`;
    },
  });
  const pay = defineTool({
    name: 'pay',
    description: 'Pay someone.',
    parameters: Type.Object(
      { to: Type.String(), cents: Type.Integer({ minimum: 1 }) },
      { additionalProperties: false },
    ),
    policy: ToolPolicy.classified().withSideEffects({ payment: true }).requiringApproval(),
    execute: ({ to, cents }, context) => {
      log.push(`pay:${to}:${cents}:${context.approved}`);
      return `paid ${cents} to ${to}`;
    },
  });
  const model = new ScriptedModel({
    steps: [
      {
        toolCalls: [
          scriptedToolCall('lookup', { id: 'a' }, 'c1'),
          scriptedToolCall('pay', { to: 'ada', cents: 500 }, 'c2'),
          scriptedToolCall('lookup', { id: 'b' }, 'c3'),
        ],
      },
      ...(continuation as never[]),
      { content: 'all done' },
    ],
  });
  return { log, model, harness: new AgentHarness({ model, tools: [lookup, pay] }) };
}

describe.each(modes)('deferred calls (%s)', (mode) => {
  it('finishes the rest of the batch and pauses with only the approval pending', async () => {
    const { log, harness } = bankScenario();
    const run = await start(mode, harness, {}, user('pay ada'));
    expect(run.outcome).toBe('deferred');
    expect(log).toEqual(['lookup:a', 'lookup:b']);
    expect(run.deferred?.approvals.map((call) => call.callId)).toEqual(['c2']);
    expect(run.deferred?.calls).toEqual([]);
    expect(toolTexts(run.messages).map(([id]) => id)).toEqual(['c1', 'c3']);
    expect(run.toolCalls).toBe(2);
    expect(run.deferred?.remaining(new DeferredToolResults()).map((call) => call.callId)).toEqual(['c2']);
    expect(eventsOfType(run.events, 'tool_deferred')).toEqual([
      { type: 'tool_deferred', callId: 'c2', toolName: 'pay', reason: 'approval_required' },
    ]);
  });

  it('answers a denial with the message and continues', async () => {
    const { log, harness } = bankScenario();
    const paused = await start(mode, harness, {}, user('pay ada'));
    const run = await resume(
      mode,
      harness,
      paused.state as RunState,
      new DeferredToolResults().deny('c2', 'not today'),
    );
    expect(log).toEqual(['lookup:a', 'lookup:b']);
    expect(run.text).toBe('all done');
    expect(toolTexts(run.messages)).toContainEqual(['c2', 'not today']);
    expect(eventsOfType(run.events, 'tool_denied')).toEqual([
      { type: 'tool_denied', callId: 'c2', toolName: 'pay', message: 'not today' },
    ]);
    expect(toolEventViolations(run.events)).toEqual([]);
    // The answer sits with the batch: assistant, three tool rows, then the final assistant turn.
    expect(run.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
      'tool',
      'assistant',
    ]);
  });

  it('runs an approved call once, marked approved, and counts it only then', async () => {
    const { log, harness } = bankScenario();
    const paused = await start(mode, harness, {}, user('pay ada'));
    const run = await resume(
      mode,
      harness,
      paused.state as RunState,
      new DeferredToolResults().approveAll(paused.deferred!),
    );
    expect(log).toEqual(['lookup:a', 'lookup:b', 'pay:ada:500:true']);
    expect(run.toolCalls).toBe(3);
    expect(eventsOfType(run.events, 'tool_approved').map((event) => [event.callId, event.edited])).toEqual([
      ['c2', false],
    ]);
    expect(run.executedTools).toEqual(['pay']);
  });

  it('refuses invalid edited arguments to the host before anything runs; the state stays resumable', async () => {
    const { log, harness } = bankScenario();
    const paused = await start(mode, harness, {}, user('pay ada'));
    const state = paused.state as RunState;
    const before = serializeRunState(state);
    const error = await resume(
      mode,
      harness,
      state,
      new DeferredToolResults().approveWithArgs('c2', { to: 'ada', cents: -5 }),
    ).catch((caught: unknown) => caught);
    expect(DeferredResolutionError.isInstance(error)).toBe(true);
    const refused = error as DeferredResolutionError;
    expect(refused.problem).toBe('invalid_arguments');
    expect(refused.callIds).toEqual(['c2']);
    expect(refused.issues.c2?.map((issue) => issue.path)).toEqual(['/cents']);
    expect(refused.message).toMatch(/c2 \(\/cents must be >= 1/);
    expect(log).toEqual(['lookup:a', 'lookup:b']);
    expect(serializeRunState(state)).toBe(before);
    // Not an argument at all, and a key the schema does not allow: refused the same way.
    for (const args of ['ada', { to: 'ada', cents: 5, memo: 'x' }]) {
      const again = await resume(mode, harness, state, new DeferredToolResults().approveWithArgs('c2', args)).catch(
        (caught: unknown) => caught,
      );
      expect((again as DeferredResolutionError).problem).toBe('invalid_arguments');
    }
    // The refused attempts did not count as a resume: a valid edit still runs, once.
    const run = await resume(
      mode,
      harness,
      state,
      new DeferredToolResults().approveWithArgs('c2', { to: 'ada', cents: 7 }),
    );
    expect(log).toEqual(['lookup:a', 'lookup:b', 'pay:ada:7:true']);
    expect(run.outcome).toBe('final');
  });

  it('records what ran: the model call unchanged, the result saying the host edited it, the event with the edit', async () => {
    const { harness } = bankScenario([{ content: 'paid' }]);
    const paused = await start(mode, harness, {}, user('pay ada'));
    const state = paused.state as RunState;
    const call = paused.deferred?.approvals[0];
    if (call === undefined) throw new Error('no approval');
    const results = () => new DeferredToolResults().approveWithArgs(call, { to: 'ada', cents: 250 });
    const run = await resume(mode, harness, state, results());
    const assistant = run.messages.find((message) => message.role === 'assistant');
    expect(assistant?.role === 'assistant' && JSON.parse(assistant.toolCalls?.[1]?.arguments ?? '')).toEqual({
      to: 'ada',
      cents: 500,
    });
    expect(toolTexts(run.messages).find(([id]) => id === 'c2')?.[1]).toBe(
      '[The host approved this call with edited arguments; the tool ran with {"to":"ada","cents":250}, not with the arguments in your call.]\npaid 250 to ada',
    );
    // Redacted by default: the event says the call was edited, not to what.
    expect(eventsOfType(run.events, 'tool_approved')).toEqual([
      { type: 'tool_approved', callId: 'c2', toolName: 'pay', edited: true },
    ]);
    const captured = await harness.resumeDeferred({}, state, results(), {
      policy: { captureToolIo: true },
      resumeOnce: false,
    });
    expect(eventsOfType(captured.events, 'tool_approved')).toEqual([
      { type: 'tool_approved', callId: 'c2', toolName: 'pay', edited: true, arguments: { to: 'ada', cents: 250 } },
    ]);
  });

  it('refuses stale, foreign, unresolved and misplaced decisions without changing anything', async () => {
    const { harness } = bankScenario([{ toolCalls: [scriptedToolCall('pay', { to: 'bob', cents: 7 }, 'c9')] }]);
    const first = await start(mode, harness, {}, user('pay'));
    const second = await resume(mode, harness, first.state as RunState, new DeferredToolResults().deny('c2', 'no'));
    expect(second.deferred?.approvals.map((call) => call.callId)).toEqual(['c9']);
    const state = second.state as RunState;
    const before = serializeRunState(state);
    const attempts: [DeferredToolResults, string][] = [
      [new DeferredToolResults().approve('c2'), 'already_answered'],
      [new DeferredToolResults().approve('c9').approve('zzz'), 'foreign'],
      [new DeferredToolResults(), 'unresolved'],
    ];
    for (const [results, problem] of attempts) {
      const error = await resume(mode, harness, state, results).catch((caught: unknown) => caught);
      expect(DeferredResolutionError.isInstance(error)).toBe(true);
      expect((error as DeferredResolutionError).problem).toBe(problem);
    }
    expect(serializeRunState(state)).toBe(before);
    const done = await resume(mode, harness, state, new DeferredToolResults().deny('c9', 'no'));
    expect(done.outcome).toBe('final');
  });

  it('round-trips an external tool: pause, host result, resume; the model sees the host result', async () => {
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('open_page', { url: 'https://x.io' }, 'e1')] },
        (request) => ({ content: `saw: ${messageText(request.messages.at(-1) as Message)}` }),
      ],
    });
    const harness = new AgentHarness({ model });
    harness.registry.registerExternal({
      name: 'open_page',
      description: 'Open a page in the user browser.',
      parameters: { type: 'object' },
    });
    const paused = await start(mode, harness, {}, user('open it'));
    expect(paused.deferred?.calls).toEqual([
      {
        callId: 'e1',
        toolName: 'open_page',
        arguments: { url: 'https://x.io' },
        reason: 'external',
        digest: expect.stringMatching(/^sha256:/),
      },
    ]);
    const approveExternal = await resume(
      mode,
      harness,
      paused.state as RunState,
      new DeferredToolResults().approve('e1'),
    ).catch((e: unknown) => e);
    expect((approveExternal as DeferredResolutionError).problem).toBe('not_approvable');
    const run = await resume(
      mode,
      harness,
      paused.state as RunState,
      new DeferredToolResults().respond('e1', 'Title: Example'),
    );
    expect(run.text).toBe('saw: Title: Example');
  });
});

describe('run state', () => {
  it('serialises a paused run and refuses tampered or wrong-version states', async () => {
    const { harness } = bankScenario();
    const paused = await harness.invoke({}, user('pay'));
    const text = serializeRunState(paused.state as RunState);
    expect(parseRunState(text)).toEqual(JSON.parse(text));
    const tampered = JSON.parse(text);
    tampered.pending.approvals[0].callId = 'c1';
    expect(() => parseRunState(tampered)).toThrow(InvalidRunStateError);
    expect(() => parseRunState({ ...JSON.parse(text), version: 5 })).toThrow(/schema version 5/);
    expect(() => parseRunState('{"version":1')).toThrow(/not valid JSON/);
    expect(() => parseRunState({ ...JSON.parse(text), budgets: { modelCalls: -1, toolCalls: 0 } })).toThrow(
      InvalidRunStateError,
    );
  });

  it('resumes in a different process with the same outcome', async () => {
    const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));
    const { createScenario } = await import('./__fixtures__/resume-scenario.mjs');
    const { DeferredToolResults: BuiltResults } = await import('@tiny/harness');
    const local = createScenario();
    const paused = await local.harness.invoke({}, user('pay both'));
    expect(paused.deferred?.approvals.map((call: { callId: string }) => call.callId)).toEqual(['t1', 't2']);
    const decisions = new BuiltResults().approve('t1').deny('t2', 'too much');
    const dir = mkdtempSync(join(tmpdir(), 'tiny-resume-'));
    writeFileSync(join(dir, 'state.json'), JSON.stringify(paused.state));
    writeFileSync(join(dir, 'decisions.json'), JSON.stringify(decisions));
    const output = execFileSync(
      process.execPath,
      [join(fixtures, 'resume-child.mjs'), join(dir, 'state.json'), join(dir, 'decisions.json')],
      {
        encoding: 'utf8',
      },
    );
    const remote = JSON.parse(output);
    const here = createScenario({ resumed: true });
    const run = await here.harness.resumeDeferred({}, JSON.parse(JSON.stringify(paused.state)), decisions);
    expect(remote).toEqual({
      outcome: run.outcome,
      text: run.text,
      ledger: here.ledger,
      messages: JSON.parse(JSON.stringify(run.messages)),
      toolCalls: run.toolCalls,
    });
    expect(remote.ledger).toEqual(['ada:500']);
    expect(remote.text).toBe('done after 3 results');
  });
});

describe('inline deferred handler', () => {
  it('resolves a batch without pausing the run', async () => {
    const { log, harness } = bankScenario();
    const run = await harness.invoke({}, user('pay'), {
      deferredToolHandler: (pending) => new DeferredToolResults().approveAll(pending),
    });
    expect(run.outcome).toBe('final');
    expect(log).toEqual(['lookup:a', 'lookup:b', 'pay:ada:500:true']);
  });

  it('fails when the handler leaves a call undecided', async () => {
    const { harness } = bankScenario();
    const error = await harness
      .invoke({}, user('pay'), { deferredToolHandler: () => new DeferredToolResults() })
      .catch((caught: unknown) => caught);
    expect((error as DeferredResolutionError).problem).toBe('unresolved');
  });
});
