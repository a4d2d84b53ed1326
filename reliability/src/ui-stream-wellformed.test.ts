// @tiny/ui-stream: every UI message stream and every AG-UI event stream of a random scripted run is
// well-formed (each start has its end, ids match, nothing after finish, finish last), even when the
// run throws, is aborted or pauses; the real `ai` reader and chunk schema and the official
// @ag-ui/core schemas accept it; and no sensitive argument or injected value reaches either wire.
// Sized by a run count (FUZZ_RUNS / 50, at least 60), never by time.
import { EventSchemas } from '@ag-ui/core/schemas';
import {
  AgentHarness,
  type AgentRun,
  type AgentRunStream,
  DeferredToolResults,
  ModelCallError,
  sensitive,
} from '@tiny/harness';
import { ScriptedModel, scriptedInvalidToolCall, scriptedToolCall } from '@tiny/harness/testkit';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { type AgUiEvent, toAgUiEvents, toUIMessageStream, type UIMessageChunk } from '@tiny/ui-stream';
import { readUIMessageStream, type UIMessage, uiMessageChunkSchema } from 'ai';
import fc from 'fast-check';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { FUZZ_RUNS } from './arbitraries.js';

const runs = { numRuns: Math.max(60, Math.ceil(FUZZ_RUNS / 50)) };
const API_KEY = 'sk-injected-host-value-5150';
const MEMO = 'sensitive-memo-value-8086';

function tools() {
  const lookup = defineTool({
    name: 'lookup',
    description: 'Look up an account.',
    parameters: Type.Object({ id: Type.String() }, { additionalProperties: false }),
    policy: ToolPolicy.readOnly(),
    execute: ({ id }, context) => {
      context.reportProgress({ message: `looking up ${id}`, fraction: 0.5 });
      return `account ${id}`;
    },
  });
  const pay = defineTool({
    name: 'pay',
    description: 'Pay someone.',
    parameters: Type.Object(
      { to: Type.String(), memo: sensitive(Type.String()), apiKey: Type.String() },
      { additionalProperties: false },
    ),
    injected: [{ name: 'apiKey', source: 'host' }],
    policy: ToolPolicy.classified().withSideEffects({ payment: true }).requiringApproval(),
    execute: ({ to, memo, apiKey }, context) => {
      // Progress and results that quote the secrets: the harness scrubs them before any event.
      context.reportProgress({ message: `paying with ${apiKey} for ${memo}` });
      return `paid ${to} (${memo}, ${apiKey})`;
    },
  });
  const ship = defineTool({
    name: 'ship',
    description: 'Ship a parcel (needs approval; no sensitive field, so its argument text streams).',
    parameters: Type.Object({ to: Type.String() }, { additionalProperties: false }),
    policy: ToolPolicy.classified().withSideEffects({ network: true }).requiringApproval(),
    execute: ({ to }) => `shipped to ${to}`,
  });
  const broken = defineTool({
    name: 'broken',
    description: 'Fails.',
    parameters: Type.Object({}),
    policy: ToolPolicy.readOnly(),
    execute: () => {
      throw new Error(`failed near ${API_KEY.length} bytes`);
    },
  });
  return [lookup, pay, ship, broken];
}

type CallKind = 'lookup' | 'pay' | 'ship' | 'broken' | 'unknown' | 'invalid';
interface Script {
  readonly text: boolean;
  readonly chunkSize: number;
  readonly capture: boolean;
  readonly turns: readonly { readonly content: string; readonly calls: readonly CallKind[] }[];
  readonly failAt: number | undefined;
  readonly abortAfter: number | undefined;
  readonly approve: boolean;
  readonly toolErrors: 'fail' | 'return_error';
  /** The model call whose stream fails inside a call's arguments (after `{"id":`), if any. */
  readonly cutArgsAt: number | undefined;
}

const words = fc.constantFrom('Let me check.', 'Sure', ' thing', '', 'a < b and c > d', 'ok\n', 'Done: ');
const scripts: fc.Arbitrary<Script> = fc.record({
  text: fc.boolean(),
  chunkSize: fc.integer({ min: 1, max: 9 }),
  capture: fc.boolean(),
  turns: fc.array(
    fc.record({
      content: fc.array(words, { maxLength: 3 }).map((parts) => parts.join('')),
      calls: fc.array(fc.constantFrom<CallKind>('lookup', 'pay', 'ship', 'broken', 'unknown', 'invalid'), {
        maxLength: 3,
      }),
    }),
    { maxLength: 3 },
  ),
  failAt: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
  abortAfter: fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }),
  approve: fc.boolean(),
  toolErrors: fc.constantFrom<'fail' | 'return_error'>('fail', 'return_error'),
  cutArgsAt: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
});

/** A scripted model whose `cutAt`-th stream starts a native call, sends part of its arguments, then fails. */
class CutArgumentsModel extends ScriptedModel {
  private streams = 0;
  constructor(
    options: ConstructorParameters<typeof ScriptedModel>[0],
    private readonly cutAt: number | undefined,
  ) {
    super(options);
  }

  override async doStream(request: Parameters<ScriptedModel['doStream']>[0]) {
    const index = this.streams;
    this.streams += 1;
    if (index !== this.cutAt) return super.doStream(request);
    async function* parts() {
      yield { type: 'text_delta' as const, delta: 'Looking. ' };
      yield { type: 'tool_call_start' as const, id: `cut${index}`, name: 'lookup' };
      yield { type: 'tool_call_delta' as const, id: `cut${index}`, argumentsDelta: '{"id":' };
      throw new ModelCallError({ message: 'the stream broke', kind: 'invalid_request', statusCode: 400 });
    }
    return { stream: parts(), warnings: [] };
  }
}

function callArgs(kind: CallKind, index: number): { name: string; args: unknown } {
  if (kind === 'lookup') return { name: 'lookup', args: { id: `a${index}` } };
  if (kind === 'pay') return { name: 'pay', args: { to: `p${index}`, memo: MEMO } };
  if (kind === 'ship') return { name: 'ship', args: { to: `s${index}` } };
  if (kind === 'broken') return { name: 'broken', args: {} };
  if (kind === 'unknown') return { name: 'nope', args: { x: index } };
  return { name: 'lookup', args: { id: index } };
}

function steps(script: Script) {
  const out = script.turns.map((turn, turnIndex) => {
    if (script.failAt === turnIndex)
      return () => {
        throw new ModelCallError({ message: 'the provider refused the key', kind: 'auth', statusCode: 401 });
      };
    const calls = turn.calls.map((kind, index) => ({ kind, id: `t${turnIndex}c${index}`, ...callArgs(kind, index) }));
    if (script.text)
      return {
        content: `${turn.content}${calls
          .map((call) => `<tool_call>${JSON.stringify({ name: call.name, arguments: call.args })}</tool_call>`)
          .join('')}`,
      };
    return {
      content: turn.content,
      toolCalls: calls.map((call) =>
        call.kind === 'invalid'
          ? scriptedInvalidToolCall(call.name, '{"id": ', 'truncated JSON', call.id)
          : scriptedToolCall(call.name, call.args, call.id),
      ),
    };
  });
  return [...out, { content: 'All done.' }];
}

function start(script: Script) {
  const harness = new AgentHarness({
    model: new CutArgumentsModel(
      {
        steps: steps(script),
        repeatLast: true,
        chunkSize: script.chunkSize,
        ...(script.text ? { profile: { toolCalling: false } } : {}),
      },
      script.cutArgsAt,
    ),
    tools: tools(),
    approvalSecret: 'reliability-ui-stream-approval-secret-000',
    policy: { toolErrors: { kind: script.toolErrors } },
    limits: { maxModelCalls: 8 },
  });
  const controller = new AbortController();
  let seen = 0;
  const options = {
    policy: { captureToolIo: script.capture },
    onEvent: () => {
      seen += 1;
      if (seen === script.abortAfter) controller.abort(new Error('client went away'));
    },
  };
  return { harness, controller, options, context: { hostValues: { apiKey: API_KEY }, signal: controller.signal } };
}

/** Violations of the UI message stream's promises; `continued` are calls whose parts are in the continued message. */
function uiViolations(chunks: readonly UIMessageChunk[], continued: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const text = new Set<string>();
  const usedText = new Set<string>();
  const inputs = new Set<string>();
  const parts = new Set<string>(continued);
  const answered = new Set<string>();
  let step = false;
  let finished = false;
  if (chunks[0]?.type !== 'start') problems.push('first chunk is not start');
  chunks.forEach((chunk, index) => {
    if (finished) problems.push(`${chunk.type} after finish`);
    if (index > 0 && chunk.type === 'start') problems.push('second start');
    switch (chunk.type) {
      case 'start-step':
        if (step) problems.push('start-step inside a step');
        step = true;
        break;
      case 'finish-step':
        if (!step) problems.push('finish-step outside a step');
        if (text.size > 0 || inputs.size > 0) problems.push('finish-step with open parts');
        step = false;
        break;
      case 'text-start':
        if (usedText.has(chunk.id)) problems.push(`text id ${chunk.id} reused`);
        if (!step) problems.push('text outside a step');
        text.add(chunk.id);
        usedText.add(chunk.id);
        break;
      case 'text-delta':
        if (!text.has(chunk.id)) problems.push(`text-delta for closed ${chunk.id}`);
        break;
      case 'text-end':
        if (!text.delete(chunk.id)) problems.push(`text-end for closed ${chunk.id}`);
        break;
      case 'tool-input-start':
        if (parts.has(chunk.toolCallId) || inputs.has(chunk.toolCallId))
          problems.push(`input restarted ${chunk.toolCallId}`);
        inputs.add(chunk.toolCallId);
        break;
      case 'tool-input-delta':
        if (!inputs.has(chunk.toolCallId)) problems.push(`input delta for closed ${chunk.toolCallId}`);
        break;
      case 'tool-input-available':
      case 'tool-input-error':
        if (parts.has(chunk.toolCallId)) problems.push(`second part for ${chunk.toolCallId}`);
        inputs.delete(chunk.toolCallId);
        parts.add(chunk.toolCallId);
        if (chunk.type === 'tool-input-error') answered.add(chunk.toolCallId);
        break;
      case 'tool-approval-request':
      case 'tool-output-available':
      case 'tool-output-error':
      case 'tool-output-denied':
        if (!parts.has(chunk.toolCallId)) problems.push(`${chunk.type} without a part for ${chunk.toolCallId}`);
        if (answered.has(chunk.toolCallId)) problems.push(`${chunk.type} for answered ${chunk.toolCallId}`);
        if (chunk.type !== 'tool-approval-request') answered.add(chunk.toolCallId);
        break;
      case 'finish':
        if (step || text.size > 0 || inputs.size > 0) problems.push('finish with open step or parts');
        finished = true;
        break;
      default:
        break;
    }
  });
  if (!finished) problems.push('no finish');
  return problems;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Violations of the AG-UI event stream's promises. */
function agUiViolations(events: readonly AgUiEvent[]): string[] {
  const problems: string[] = [];
  const messages = new Set<string>();
  const calls = new Set<string>();
  const ended = new Set<string>();
  const args = new Map<string, string>();
  let stepName: string | undefined;
  let terminal = false;
  if (events[0]?.type !== 'RUN_STARTED') problems.push('first event is not RUN_STARTED');
  for (const event of events) {
    if (terminal) problems.push(`${event.type} after the terminal event`);
    const parsed = EventSchemas.safeParse(JSON.parse(JSON.stringify(event)));
    if (!parsed.success) problems.push(`schema: ${JSON.stringify(event)}`);
    switch (event.type) {
      case 'STEP_STARTED':
        if (stepName !== undefined) problems.push('nested step');
        stepName = event.stepName;
        break;
      case 'STEP_FINISHED':
        if (stepName !== event.stepName) problems.push('step finished that was not started');
        if (messages.size > 0 || calls.size > 0) problems.push('step finished with open parts');
        stepName = undefined;
        break;
      case 'TEXT_MESSAGE_START':
        messages.add(event.messageId);
        break;
      case 'TEXT_MESSAGE_CONTENT':
        if (!messages.has(event.messageId)) problems.push('content for closed message');
        break;
      case 'TEXT_MESSAGE_END':
        if (!messages.delete(event.messageId)) problems.push('end for closed message');
        break;
      case 'TOOL_CALL_START':
        if (calls.has(event.toolCallId) || ended.has(event.toolCallId)) problems.push('call restarted');
        calls.add(event.toolCallId);
        break;
      case 'TOOL_CALL_ARGS':
        if (!calls.has(event.toolCallId)) problems.push('args for closed call');
        args.set(event.toolCallId, (args.get(event.toolCallId) ?? '') + event.delta);
        break;
      case 'TOOL_CALL_END': {
        if (!calls.delete(event.toolCallId)) problems.push('end for closed call');
        ended.add(event.toolCallId);
        // The argument pieces of every ended call join to one JSON document, also when the model's
        // argument text was cut off (invalid JSON, a stream that failed or was aborted inside it).
        const text = args.get(event.toolCallId);
        if (text !== undefined && !isJson(text))
          problems.push(`args of ${event.toolCallId} do not join to JSON: ${text}`);
        break;
      }
      case 'RUN_FINISHED':
      case 'RUN_ERROR':
        if (stepName !== undefined || messages.size > 0 || calls.size > 0) problems.push('terminal with open parts');
        terminal = true;
        break;
      default:
        break;
    }
  }
  if (!terminal) problems.push('no terminal event');
  return problems;
}

async function drain<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream as unknown as AsyncIterable<T>) out.push(item);
  return out;
}

/** Runs `chunks` through ai's chunk schema and `readUIMessageStream`: problems it reports other than our error chunk. */
async function aiProblems(
  chunks: readonly UIMessageChunk[],
  continued?: UIMessage,
): Promise<{ problems: string[]; message: UIMessage | undefined }> {
  const problems: string[] = [];
  const schema = uiMessageChunkSchema();
  for (const chunk of chunks) {
    const checked = await schema.validate?.(JSON.parse(JSON.stringify(chunk)));
    if (!checked?.success) problems.push(`ai schema: ${JSON.stringify(chunk)}`);
  }
  const errorTexts = new Set(chunks.flatMap((chunk) => (chunk.type === 'error' ? [chunk.errorText] : [])));
  const stream = new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(JSON.parse(JSON.stringify(chunk)));
      controller.close();
    },
  });
  const onError = (error: unknown) => {
    const text = error instanceof Error ? error.message : String(error);
    if (!errorTexts.has(text)) problems.push(`ai reader: ${text}`);
  };
  // A resumed stream continues the paused message: its outputs update that message's parts.
  let message: UIMessage | undefined;
  for await (const snapshot of readUIMessageStream({ stream, onError, ...(continued ? { message: continued } : {}) }))
    message = snapshot;
  return { problems, message };
}

function noSecrets(wire: string): string[] {
  return [MEMO, API_KEY].filter((secret) => wire.includes(secret)).map((secret) => `secret on the wire: ${secret}`);
}

describe(`ui-stream well-formedness over random scripted runs (${runs.numRuns} runs)`, () => {
  it('the UI message stream and AG-UI events of a run and its resume keep every promise', async () => {
    await fc.assert(
      fc.asyncProperty(scripts, async (script) => {
        const ui = start(script);
        const uiRun: AgentRunStream = ui.harness.stream(ui.context, 'go', ui.options);
        const chunks = await drain(toUIMessageStream(uiRun, { tools: ui.harness, messageId: 'm1' }));
        const paused: AgentRun | undefined = await uiRun.result.catch(() => undefined);
        const ag = start(script);
        const events = await drain(
          toAgUiEvents(ag.harness.stream(ag.context, 'go', ag.options), { tools: ag.harness }),
        );
        const read = await aiProblems(chunks);
        const problems = [
          ...uiViolations(chunks, new Set()),
          ...read.problems,
          ...agUiViolations(events),
          ...noSecrets(JSON.stringify(chunks)),
          ...noSecrets(JSON.stringify(events)),
        ];
        // Prompt-guided calls never leak their markup into text (joined per part, so a split tag counts too).
        const texts = new Map<string, string>();
        for (const chunk of chunks)
          if (chunk.type === 'text-delta') texts.set(chunk.id, (texts.get(chunk.id) ?? '') + chunk.delta);
        for (const text of texts.values())
          if (/tool_call|"arguments"/.test(text)) problems.push(`markup in text: ${text}`);
        const agText = events.flatMap((event) => (event.type === 'TEXT_MESSAGE_CONTENT' ? [event.delta] : [])).join('');
        if (/tool_call|"arguments"/.test(agText)) problems.push('markup in AG-UI text');
        if (paused?.outcome === 'deferred') {
          const results = new DeferredToolResults();
          for (const call of paused.deferred.approvals)
            if (script.approve) results.approve(call);
            else results.deny(call, 'denied');
          const resumed = ui.harness.streamResumeDeferred({ hostValues: { apiKey: API_KEY } }, paused.state, results, {
            policy: { captureToolIo: script.capture },
          });
          const continued = new Set(paused.deferred.approvals.map((call) => call.callId));
          const again = await drain(
            toUIMessageStream(resumed, { tools: ui.harness, messageId: 'm1', continuedToolCallIds: [...continued] }),
          );
          problems.push(
            ...uiViolations(again, continued),
            ...(await aiProblems(again, read.message)).problems,
            ...noSecrets(JSON.stringify(again)),
          );
        }
        expect(problems, JSON.stringify({ script, chunks: chunks.map((chunk) => chunk.type) })).toEqual([]);
      }),
      runs,
    );
  });
});
