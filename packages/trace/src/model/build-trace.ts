import type { AgentEvent } from '@tiny/harness';
import { inlineValue } from '../render/format.js';
import { assignLanes } from './assign-lanes.js';
import { resolveTimes } from './resolve-times.js';
import type { NormalizedInput } from './trace-input.js';
import type { ModelCallView, NoteView, RunView, ToolCallView, TraceView, TurnView } from './trace-view.js';

/** A run being folded: its view, its turns by key, and where its resumed turn numbers start. */
interface RunFold {
  readonly view: RunView;
  readonly turns: Map<string, TurnView>;
  /** Added to the harness's turn numbers: a resume numbers its turns from 1 again. */
  offset: number;
  maxTurn: number;
  /** The key of the turn events now belong to; `undefined` before the first turn. */
  current: string | undefined;
  /** The last middleware control applied in the current part, for the end reason. */
  control: string | undefined;
}

/**
 * Folds an event stream into runs, turns, model calls and tool calls with times. A `run_started`
 * with a run id seen before is a resume: it continues that run (its turns are numbered on from
 * the turn it paused in, and the decided calls it runs first get a "resumed" turn of their own);
 * any other `run_started` begins a new run. @internal
 */
export function buildTrace(input: NormalizedInput): TraceView {
  const { events } = input;
  const { times, timing } = resolveTimes(events, input.times);
  const runs: RunFold[] = [];
  const byId = new Map<string, RunFold>();
  const tools = new Map<string, ToolCallView>();
  const models = new Map<string, ModelCallView>();
  const prefixBreaks = new Map<string, NonNullable<ModelCallView['prefixBreak']>>();
  const counts = { recoveries: 0, deferrals: 0, failures: 0, retries: 0 };
  const tokens = { inputTokens: 0, outputTokens: 0 };
  let active: RunFold | undefined;
  let index = 0;

  const startRun = (runId: string | undefined, at: number): RunFold => {
    const fold: RunFold = {
      view: {
        runId,
        outcome: undefined,
        reason: undefined,
        failure: undefined,
        finalText: undefined,
        start: at,
        end: at,
        parts: [{ resumed: false, outcome: undefined }],
        turns: [],
        notes: [],
        totals: { turns: 0, modelCalls: 0, toolCalls: 0 },
      },
      turns: new Map(),
      offset: 0,
      maxTurn: 0,
      current: undefined,
      control: undefined,
    };
    runs.push(fold);
    if (runId !== undefined) byId.set(runId, fold);
    return fold;
  };
  /** The run events belong to now (events before any `run_started` get a run without an id). */
  const run = (at: number): RunFold => {
    active ??= startRun(input.run?.runId, at);
    return active;
  };
  const turnOf = (fold: RunFold, key: string, turn: number, at: number): TurnView => {
    let view = fold.turns.get(key);
    if (view === undefined) {
      view = {
        turn,
        runId: fold.view.runId,
        resumed: key.startsWith('r'),
        start: at,
        end: at,
        models: [],
        tools: [],
        roots: [],
        lanes: 1,
        notes: [],
      };
      fold.turns.set(key, view);
    }
    return view;
  };
  /** The turn of the current position: a numbered turn, a resume's decided calls, or before the first turn. */
  const currentTurn = (fold: RunFold, at: number): TurnView =>
    fold.current === undefined
      ? turnOf(fold, 'before', 0, at)
      : turnOf(fold, fold.current, fold.current.startsWith('r') ? fold.offset : Number(fold.current), at);
  const note = (tone: NoteView['tone'], label: string, text: string, at: number) => {
    const fold = run(at);
    (fold.current === undefined ? fold.view.notes : currentTurn(fold, at).notes).push({ tone, label, text });
  };
  /** Calls a resume runs before its first turn get their own rows, apart from the paused ones. */
  const callKey = (fold: RunFold, callId: string) =>
    `${runs.indexOf(fold)}\u0000${fold.current?.startsWith('r') ? fold.current : ''}\u0000${callId}`;
  const findCall = (callId: string, at: number): ToolCallView | undefined => {
    const fold = run(at);
    return tools.get(callKey(fold, callId)) ?? tools.get(`${runs.indexOf(fold)}\u0000\u0000${callId}`);
  };
  const callOf = (callId: string, toolName: string, parentCallId: string | undefined, at: number): ToolCallView => {
    const fold = run(at);
    const key = callKey(fold, callId);
    let call = tools.get(key);
    if (call === undefined) {
      const turn = currentTurn(fold, at);
      call = {
        index: index++,
        callId,
        toolName,
        format: undefined,
        grammar: undefined,
        parentCallId,
        turn: turn.turn,
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
      tools.set(key, call);
      turn.tools.push(call);
      const parent = parentCallId === undefined ? undefined : tools.get(callKey(fold, parentCallId));
      if (parent !== undefined && turn.tools.includes(parent)) parent.children.push(call);
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
      case 'run_started': {
        const resumed = byId.get(event.runId);
        if (resumed === undefined) {
          // Events before the first run_started (a recording started late) belong to this run.
          active = active !== undefined && active.view.runId === undefined && runs.length === 1 ? active : undefined;
          if (active !== undefined) {
            byId.set(event.runId, active);
            (active.view as { runId: string | undefined }).runId = event.runId;
          } else active = startRun(event.runId, at);
        } else {
          active = resumed;
          resumed.view.parts.push({ resumed: true, outcome: undefined });
          resumed.offset = resumed.maxTurn;
          resumed.current = `r${resumed.view.parts.length - 1}`;
          resumed.control = undefined;
        }
        break;
      }
      case 'turn_started': {
        const fold = run(at);
        const turn = fold.offset + event.turn;
        fold.maxTurn = Math.max(fold.maxTurn, turn);
        fold.current = String(turn);
        turnOf(fold, fold.current, turn, at).start = at;
        break;
      }
      case 'turn_completed': {
        // A resume reports its decided batch as turn 0: that is its "resumed" turn, when it ran anything.
        const fold = run(at);
        const key = event.turn === 0 ? fold.current : String(fold.offset + event.turn);
        const view = key === undefined ? undefined : fold.turns.get(key);
        if (view !== undefined) view.end = at;
        break;
      }
      case 'model_started': {
        const fold = run(at);
        fold.view.totals.modelCalls += 1;
        const view: ModelCallView = {
          index: index++,
          modelCallId: event.modelCallId,
          turn: fold.offset + event.turn,
          start: at,
          end: undefined,
          finishReason: undefined,
          inputTokens: undefined,
          outputTokens: undefined,
          cachedInputTokens: undefined,
          prefixBreak: prefixBreaks.get(event.modelCallId),
          toolCallCount: undefined,
          retries: [],
          dropped: 0,
          refused: [],
          text: '',
        };
        models.set(event.modelCallId, view);
        const turn = fold.offset + event.turn;
        turnOf(fold, String(turn), turn, at).models.push(view);
        break;
      }
      case 'prompt_prefix_changed': {
        // Comes just before its model_started, which takes it.
        const changes = event.changes.map((change) =>
          change.part === 'tool'
            ? `tool ${change.toolName} ${change.change}`
            : change.part === 'history'
              ? `history rewritten at message ${change.index}`
              : `${change.part} changed`,
        );
        prefixBreaks.set(event.modelCallId, { changes, lostTokens: event.lostPrefixTokens });
        note(
          'warn',
          'prompt prefix changed',
          `${changes.join(', ')}: ~${event.lostPrefixTokens} cached tokens lost`,
          at,
        );
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
        view.cachedInputTokens = event.cachedInputTokens;
        view.toolCallCount = event.toolCallCount;
        tokens.inputTokens += event.inputTokens ?? 0;
        tokens.outputTokens += event.outputTokens ?? 0;
        break;
      }
      case 'tool_started': {
        run(at).view.totals.toolCalls += 1;
        const call = callOf(event.callId, event.toolName, event.parentCallId, at);
        if (event.format !== undefined) call.format = event.format;
        if (event.grammar !== undefined) call.grammar = event.grammar;
        if (event.input !== undefined) {
          call.input = event.input;
          call.hasInput = true;
        }
        break;
      }
      case 'tool_completed': {
        const call = callOf(event.callId, event.toolName, event.parentCallId, at);
        settle(call, event);
        if (event.format !== undefined) call.format = event.format;
        if (event.grammar !== undefined) call.grammar = event.grammar;
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
        findCall(event.callId, at)?.notes.push(`progress: ${inlineValue(event.message)}${fraction(event.fraction)}`);
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
        findCall(event.callId, at)?.notes.push(`ledger ${event.phase} write failed (${event.action}): ${event.error}`);
        break;
      case 'tool_returned_undefined':
        note('warn', 'empty result', `${event.toolName} returned undefined; the model was sent ""`, at);
        break;
      case 'limit_reached':
        note('error', 'limit reached', `${event.limitKind} budget of ${event.limit} spent`, at);
        break;
      case 'control_applied':
        run(at).control = `${event.control} by ${event.by}`;
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
      case 'run_completed': {
        const fold = byId.get(event.runId) ?? run(at);
        const part = fold.view.parts.at(-1);
        if (part !== undefined) part.outcome = event.outcome;
        fold.view.outcome = event.outcome;
        // `stopped` alone hides why: say which control ended the run (an output tool's answer).
        fold.view.reason = event.outcome === 'stopped' ? fold.control : undefined;
        break;
      }
      case 'run_failed': {
        const fold = byId.get(event.runId) ?? run(at);
        const part = fold.view.parts.at(-1);
        if (part !== undefined) part.outcome = 'failed';
        fold.view.outcome = 'failed';
        fold.view.failure = event.error;
        note('error', 'run failed', event.error, at);
        break;
      }
      case 'tools_advertised':
      case 'custom':
        break;
      default:
        // Event types added to the harness later are ignored until the viewer knows them.
        break;
    }
  }

  for (const fold of runs) {
    const view = fold.view;
    view.turns.push(...fold.turns.values());
    for (const turn of view.turns) {
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
    view.totals.turns = view.turns.filter((turn) => turn.turn > 0 && !turn.resumed).length;
    if (view.turns.length > 0) {
      view.start = Math.min(view.start, ...view.turns.map((turn) => turn.start));
      view.end = Math.max(view.end, ...view.turns.map((turn) => turn.end));
    }
  }
  if (input.run !== undefined) {
    const fold = runs.find((candidate) => candidate.view.runId === input.run?.runId) ?? runs.at(-1);
    if (fold !== undefined) {
      fold.view.finalText = input.run.text;
      fold.view.outcome ??= input.run.outcome;
    }
  }
  const views = runs.map((fold) => fold.view);
  const turns = views.flatMap((view) => view.turns);
  const start = times.length > 0 ? Math.min(times[0] as number, ...turns.map((turn) => turn.start)) : 0;
  const end = Math.max(start, times.at(-1) ?? 0, ...turns.map((turn) => turn.end));
  const only = views.length === 1 ? views[0] : undefined;
  const sum = (pick: (view: RunView) => number) => views.reduce((total, view) => total + pick(view), 0);
  return {
    runs: views,
    runId: only?.runId,
    outcome: only?.outcome,
    failure: only?.failure,
    finalText: only?.finalText,
    timing,
    start,
    end,
    turns,
    notes: only?.notes ?? [],
    totals: {
      turns: sum((view) => view.totals.turns),
      modelCalls: sum((view) => view.totals.modelCalls),
      toolCalls: sum((view) => view.totals.toolCalls),
      ...tokens,
      ...counts,
    },
  };
}

function fraction(value: number | undefined): string {
  return value === undefined ? '' : ` (${Math.round(Math.min(1, Math.max(0, value)) * 100)}%)`;
}

/** The first 12 hex digits of a SHA-256, enough to tell definitions apart on the page. */
function digest(sha256: string): string {
  return sha256.slice(0, 12);
}
