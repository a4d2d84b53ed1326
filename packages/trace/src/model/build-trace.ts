import type { AgentEvent } from '@tiny/harness';
import { inlineValue } from '../render/format.js';
import { assignLanes } from './assign-lanes.js';
import { resolveTimes } from './resolve-times.js';
import type { NormalizedInput } from './trace-input.js';
import type { ModelCallView, NoteView, ToolCallView, TraceView, TurnView } from './trace-view.js';

/** Folds an event stream into turns, model calls and tool calls with times. @internal */
export function buildTrace(input: NormalizedInput): TraceView {
  const { events } = input;
  const { times, timing } = resolveTimes(events, input.times);
  const turns = new Map<number, TurnView>();
  const tools = new Map<string, ToolCallView>();
  const models = new Map<string, ModelCallView>();
  const runNotes: NoteView[] = [];
  const totals = { modelCalls: 0, toolCalls: 0, inputTokens: 0, outputTokens: 0 };
  const counts = { recoveries: 0, deferrals: 0, failures: 0, retries: 0 };
  let current = 0;
  let runId: string | undefined = input.run?.runId;
  let outcome: string | undefined = input.run?.outcome;
  let failure: string | undefined;
  let index = 0;

  const turnOf = (turn: number, at: number): TurnView => {
    let view = turns.get(turn);
    if (view === undefined) {
      view = { turn, start: at, end: at, models: [], tools: [], roots: [], lanes: 1, notes: [] };
      turns.set(turn, view);
    }
    return view;
  };
  const note = (tone: NoteView['tone'], label: string, text: string, at: number) => {
    (current === 0 && turns.get(0) === undefined ? runNotes : turnOf(current, at).notes).push({ tone, label, text });
  };
  const callOf = (callId: string, toolName: string, parentCallId: string | undefined, at: number): ToolCallView => {
    let call = tools.get(callId);
    if (call === undefined) {
      const turn = turnOf(current, at);
      call = {
        index: index++,
        callId,
        toolName,
        parentCallId,
        turn: current,
        start: at,
        end: undefined,
        durationMs: undefined,
        status: 'running',
        input: undefined,
        hasInput: false,
        output: undefined,
        error: undefined,
        outputBytes: undefined,
        recovery: undefined,
        deferredReason: undefined,
        approved: false,
        denied: undefined,
        notes: [],
        children: [],
        lane: 0,
      };
      tools.set(callId, call);
      turn.tools.push(call);
      const parent = parentCallId === undefined ? undefined : tools.get(parentCallId);
      if (parent !== undefined && parent.turn === current) parent.children.push(call);
      else turn.roots.push(call);
    }
    return call;
  };
  const settle = (call: ToolCallView, event: Extract<AgentEvent, { type: 'tool_completed' | 'tool_failed' }>) => {
    call.start = timing === 'none' ? call.start : event.startedAtMs;
    call.durationMs = event.durationMs;
    call.toolName = event.toolName;
  };

  for (const [position, event] of events.entries()) {
    const at = times[position] as number;
    switch (event.type) {
      case 'run_started':
        runId ??= event.runId;
        break;
      case 'turn_started':
        current = event.turn;
        turnOf(current, at).start = at;
        break;
      case 'turn_completed':
        turnOf(event.turn, at).end = at;
        break;
      case 'model_started': {
        totals.modelCalls += 1;
        const view: ModelCallView = {
          index: index++,
          modelCallId: event.modelCallId,
          turn: event.turn,
          start: at,
          end: undefined,
          finishReason: undefined,
          inputTokens: undefined,
          outputTokens: undefined,
          toolCallCount: undefined,
          retries: [],
          dropped: 0,
          refused: [],
          text: '',
        };
        models.set(event.modelCallId, view);
        turnOf(event.turn, at).models.push(view);
        break;
      }
      case 'model_delta': {
        const view = models.get(event.modelCallId);
        if (view !== undefined) view.text += event.delta;
        break;
      }
      case 'model_retried':
        counts.retries += 1;
        models.get(event.modelCallId)?.retries.push({ attempt: event.attempt, error: event.error });
        break;
      case 'tool_call_refused':
        models
          .get(event.modelCallId)
          ?.refused.push({ callId: event.callId, toolName: event.toolName, reason: event.reason });
        break;
      case 'tool_call_dropped': {
        const view = models.get(event.modelCallId);
        if (view !== undefined) view.dropped = event.nudge;
        break;
      }
      case 'model_completed': {
        const view = models.get(event.modelCallId);
        if (view === undefined) break;
        view.end = at;
        view.finishReason = event.finishReason;
        view.inputTokens = event.inputTokens;
        view.outputTokens = event.outputTokens;
        view.toolCallCount = event.toolCallCount;
        totals.inputTokens += event.inputTokens ?? 0;
        totals.outputTokens += event.outputTokens ?? 0;
        break;
      }
      case 'tool_started': {
        totals.toolCalls += 1;
        const call = callOf(event.callId, event.toolName, event.parentCallId, at);
        if (event.input !== undefined) {
          call.input = event.input;
          call.hasInput = true;
        }
        break;
      }
      case 'tool_completed': {
        const call = callOf(event.callId, event.toolName, event.parentCallId, at);
        settle(call, event);
        call.end = timing === 'none' ? at : event.startedAtMs + event.durationMs;
        call.status = event.error === undefined ? 'ok' : 'error';
        call.output = event.output;
        call.error = event.error;
        call.outputBytes = event.outputBytes;
        if (event.error !== undefined && call.recovery === undefined && !call.denied) counts.failures += 1;
        break;
      }
      case 'tool_failed': {
        counts.failures += 1;
        const call = callOf(event.callId, event.toolName, event.parentCallId, at);
        settle(call, event);
        call.end = timing === 'none' ? at : event.startedAtMs + event.durationMs;
        call.status = 'failed';
        call.error = event.error;
        break;
      }
      case 'tool_progress':
        tools.get(event.callId)?.notes.push(`progress: ${inlineValue(event.message)}${fraction(event.fraction)}`);
        break;
      case 'unknown_tool_call':
        counts.recoveries += 1;
        callOf(event.callId, event.requestedName, undefined, at).recovery = {
          kind: 'unknown_tool',
          recovery: event.recovery,
          requestedName: event.requestedName,
          arguments: event.arguments,
        };
        break;
      case 'invalid_tool_args':
        counts.recoveries += 1;
        callOf(event.callId, event.toolName, undefined, at).recovery = {
          kind: 'invalid_args',
          recovery: event.recovery,
          arguments: event.arguments,
          detail: event.error,
        };
        break;
      case 'tool_deferred': {
        counts.deferrals += 1;
        const call = callOf(event.callId, event.toolName, undefined, at);
        call.status = 'deferred';
        call.deferredReason = event.reason;
        call.end = call.start;
        break;
      }
      case 'tool_approved':
        callOf(event.callId, event.toolName, undefined, at).approved = true;
        break;
      case 'tool_denied':
        callOf(event.callId, event.toolName, undefined, at).denied = event.message;
        break;
      case 'tool_searched':
        // Calls made through the discovery bridge: the search outcome, the query only when captured.
        callOf(event.callId, 'tool_search', undefined, at).notes.push(
          `searched${event.query === '' ? '' : ` "${event.query}"`} with ${event.ranker || 'no ranker'}: ${
            event.matched.length === 0 ? 'no match' : event.matched.join(', ')
          }`,
        );
        break;
      case 'deferred_tool_call':
        callOf(event.callId, event.toolName, undefined, at).notes.push(
          `deferred tool, called ${event.via === 'tool_call' ? 'through tool_call' : 'by name'}`,
        );
        break;
      case 'tool_effect_reconciled':
        callOf(event.callId, event.toolName, undefined, at).notes.push(`ledger reconciled: ${event.action}`);
        break;
      case 'ledger_write_failed':
        tools.get(event.callId)?.notes.push(`ledger ${event.phase} write failed (${event.action}): ${event.error}`);
        break;
      case 'limit_reached':
        note('error', 'limit reached', `${event.limitKind} budget of ${event.limit} spent`, at);
        break;
      case 'control_applied':
        note('warn', `control: ${event.control}`, `${event.detail} (by ${event.by})`, at);
        break;
      case 'tools_filtered':
        note('info', 'tools filtered', `${event.by} withheld ${event.excluded.join(', ') || 'nothing'}`, at);
        break;
      case 'tool_definition_added':
        note(
          event.withheld ? 'warn' : 'info',
          'tool definition added',
          `${event.toolSet}: ${event.toolName} ${event.withheld ? 'withheld until approved' : 'offered'} (${digest(event.current)})`,
          at,
        );
        break;
      case 'tool_definition_changed':
        note(
          event.withheld ? 'warn' : 'info',
          'tool definition changed',
          `${event.toolSet}: ${event.toolName} ${
            event.changed.length === 0 ? 'is its pinned definition again' : `changed ${event.changed.join(', ')}`
          }, ${event.withheld ? 'withheld until approved' : 'offered'} (${
            event.pinned === undefined ? '' : `${digest(event.pinned)} → `
          }${digest(event.current)})`,
          at,
        );
        break;
      case 'tool_definition_removed':
        note('info', 'tool definition removed', `${event.toolSet}: ${event.toolName} is no longer listed`, at);
        break;
      case 'output_retry':
        counts.retries += 1;
        note(
          'warn',
          'output retry',
          `${event.schemaName} attempt ${event.attempt} (${event.errorKind}): ${event.error}`,
          at,
        );
        break;
      case 'output_fallback':
        note('warn', 'output fallback', `${event.schemaName}: ${event.from} → ${event.to} (${event.reason})`, at);
        break;
      case 'run_completed':
        runId ??= event.runId;
        outcome = event.outcome;
        break;
      case 'run_failed':
        runId ??= event.runId;
        outcome = 'failed';
        failure = event.error;
        note('error', 'run failed', event.error, at);
        break;
      case 'tools_advertised':
      case 'custom':
        break;
      default:
        // Event types added to the harness later are ignored until the viewer knows them.
        break;
    }
  }

  const ordered = [...turns.values()].sort((a, b) => a.turn - b.turn);
  for (const turn of ordered) {
    const ends = [
      turn.end,
      ...turn.models.map((model) => model.end ?? model.start),
      ...turn.tools.map((call) => call.end ?? call.start),
    ];
    turn.start = Math.min(
      turn.start,
      ...turn.models.map((model) => model.start),
      ...turn.tools.map((call) => call.start),
    );
    turn.end = Math.max(...ends);
    turn.tools.sort((a, b) => a.start - b.start || a.index - b.index);
    turn.lanes = assignLanes(turn.tools, turn.start, turn.end);
  }
  const start = times.length > 0 ? Math.min(times[0] as number, ...ordered.map((turn) => turn.start)) : 0;
  const end = Math.max(start, times.at(-1) ?? 0, ...ordered.map((turn) => turn.end));
  return {
    runId,
    outcome,
    failure,
    finalText: input.run?.text,
    timing,
    start,
    end,
    turns: ordered,
    notes: runNotes,
    totals: { turns: ordered.filter((turn) => turn.turn > 0).length, ...totals, ...counts },
  };
}

function fraction(value: number | undefined): string {
  return value === undefined ? '' : ` (${Math.round(Math.min(1, Math.max(0, value)) * 100)}%)`;
}

/** The first 12 hex digits of a SHA-256, enough to tell definitions apart on the page. */
function digest(sha256: string): string {
  return sha256.slice(0, 12);
}
