import type { AgentEvent, AgentEventListener } from '@tiny/harness';
import { ATTRIBUTES, ERROR_TYPES } from '../semconv/attributes.js';
import { type OtelListenerOptions, resolveOtelListenerOptions } from './otel-listener-options.js';
import { RunTracer } from './run-tracer.js';

/**
 * A harness event listener (pass it as `onEvent`) that turns a run into OpenTelemetry spans
 * following the GenAI semantic conventions: `invoke_agent` for the run, a `chat` child per model
 * call and an `execute_tool` child per tool call (nested calls under their parent call's span).
 * Tool spans take their end from the event's `startedAtMs + durationMs`; other spans use the time
 * the listener receives the event.
 *
 * Failed tools (`tool_failed`), error results and recovered calls (unknown tool, invalid arguments)
 * end their tool span with status ERROR and `error.type`; a failed run ends the run span the same
 * way. Deferrals, approvals, denials, limits, retries, controls and ledger reconciliation become
 * span events on the tool span (when it exists) or the run span. Content (tool I/O, model text,
 * echoed arguments) is recorded only with `captureContent`; nothing from the run context is read.
 *
 * One run at a time: a `run_started` ends a run still open. Use one listener per concurrent run.
 */
export function createOtelListener(options: OtelListenerOptions): AgentEventListener {
  const resolved = resolveOtelListenerOptions(options);
  let run: RunTracer | undefined;
  const current = (): RunTracer => {
    run ??= new RunTracer(resolved, 'unknown');
    return run;
  };

  return (event: AgentEvent): void => {
    if (event.type === 'run_started') {
      run?.finish({}, 'a new run started before this one ended');
      run = new RunTracer(resolved, event.runId);
      return;
    }
    const tracer = current();
    handle(tracer, event);
    if (event.type === 'run_completed' || event.type === 'run_failed') run = undefined;
  };
}

function handle(run: RunTracer, event: Exclude<AgentEvent, { type: 'run_started' }>): void {
  switch (event.type) {
    case 'tools_advertised':
      run.runAttributes({ [ATTRIBUTES.toolsAdvertised]: [...event.direct], [ATTRIBUTES.toolDialect]: event.dialect });
      return;
    case 'turn_started':
      run.turnStarted(event.turn);
      return;
    case 'turn_completed':
      run.runEvent('tiny.turn_completed', {
        [ATTRIBUTES.turn]: event.turn,
        'tiny.tool_result_count': event.toolResultCount,
      });
      return;
    case 'model_started':
      run.modelStarted(event.modelCallId, event.turn, event.prefixFingerprint);
      return;
    case 'prompt_prefix_changed':
      // Comes before its `model_started`: the chat span takes it when it opens.
      run.prefixChanged(event.modelCallId, {
        [ATTRIBUTES.promptPrefixFingerprint]: event.fingerprint,
        [ATTRIBUTES.promptPrefixChanges]: event.changes.map((change) =>
          change.part === 'tool'
            ? `tool:${change.change}:${change.toolName}`
            : change.part === 'history'
              ? `history:rewritten:${change.index}`
              : `${change.part}:changed`,
        ),
        [ATTRIBUTES.promptPrefixLostTokens]: event.lostPrefixTokens,
      });
      return;
    case 'model_delta':
      run.modelDelta(event.modelCallId, event.delta);
      return;
    case 'model_retried':
      run.modelEvent(event.modelCallId, 'tiny.model_retried', {
        'tiny.retry.attempt': event.attempt,
        [ATTRIBUTES.errorMessage]: event.error,
      });
      return;
    case 'tool_call_dropped':
      run.modelEvent(event.modelCallId, 'tiny.tool_call_dropped', { 'tiny.nudge': event.nudge });
      return;
    case 'tool_call_refused':
      // The chat span has ended (`model_completed` comes first): this lands on the run span.
      run.modelEvent(event.modelCallId, 'tiny.tool_call_refused', {
        [ATTRIBUTES.toolName]: event.toolName,
        [ATTRIBUTES.toolCallId]: event.callId,
        'tiny.refusal.reason': event.reason,
      });
      return;
    case 'model_completed':
      run.modelCompleted(
        event.modelCallId,
        event.finishReason,
        event.toolCallCount,
        event.inputTokens,
        event.outputTokens,
        event.cachedInputTokens,
      );
      return;
    case 'tool_started':
      run.toolStarted(event.callId, event.toolName, event.parentCallId, event.input);
      return;
    case 'tool_completed':
      run.toolEnded(event.callId, event.toolName, event.parentCallId, event.startedAtMs, event.durationMs, {
        errorType: event.error === undefined ? undefined : ERROR_TYPES.toolError,
        message: event.error === undefined ? undefined : run.captured(event.error),
        attributes: {
          [ATTRIBUTES.outputBytes]: event.outputBytes,
          ...(event.format === undefined ? {} : { [ATTRIBUTES.toolCallFormat]: event.format }),
          ...(event.grammar === undefined ? {} : { [ATTRIBUTES.toolCallGrammar]: event.grammar }),
          ...run.content(ATTRIBUTES.toolCallResult, event.output),
        },
      });
      return;
    case 'tool_failed':
      run.noteFailure(ERROR_TYPES.toolFailed);
      run.toolEnded(event.callId, event.toolName, event.parentCallId, event.startedAtMs, event.durationMs, {
        errorType: ERROR_TYPES.toolFailed,
        message: event.error,
        attributes: {},
      });
      return;
    case 'tool_progress':
      run.callEvent(event.callId, 'tiny.tool_progress', {
        ...(event.fraction === undefined ? {} : { 'tiny.progress.fraction': event.fraction }),
        ...run.content('tiny.progress.message', event.message),
      });
      return;
    case 'unknown_tool_call':
      if (event.recovery === 'tool_error') run.noteRecovery(event.callId, ERROR_TYPES.unknownTool);
      run.callEvent(event.callId, 'tiny.unknown_tool_call', {
        'tiny.tool.requested_name': event.requestedName,
        'tiny.recovery': event.recovery,
        ...run.content(ATTRIBUTES.toolCallArguments, event.arguments),
      });
      return;
    case 'invalid_tool_args':
      if (event.recovery === 'tool_error') run.noteRecovery(event.callId, ERROR_TYPES.invalidArguments);
      run.callEvent(event.callId, 'tiny.invalid_tool_args', {
        [ATTRIBUTES.toolName]: event.toolName,
        'tiny.recovery': event.recovery,
        ...run.content(ATTRIBUTES.toolCallArguments, event.arguments),
        ...run.content(ATTRIBUTES.errorMessage, event.error),
      });
      return;
    case 'tool_deferred':
      // A deferred call does not run in this run: it has no span of its own.
      run.runEvent('tiny.tool_deferred', {
        [ATTRIBUTES.toolCallId]: event.callId,
        [ATTRIBUTES.toolName]: event.toolName,
        'tiny.deferral.reason': event.reason,
      });
      return;
    case 'tool_approved':
      run.callEvent(event.callId, 'tiny.tool_approved', { [ATTRIBUTES.toolName]: event.toolName });
      return;
    case 'tool_searched':
      // The query is model text: only with content capture (the harness also blanks it without tool I/O capture).
      run.callEvent(event.callId, 'tiny.tool_searched', {
        'tiny.search.ranker': event.ranker,
        'tiny.search.matched': [...event.matched],
        'tiny.search.latency_ms': event.latencyMs,
        ...(event.fallback === undefined ? {} : { 'tiny.search.fallback': event.fallback }),
        ...run.content('tiny.search.query', event.query),
      });
      return;
    case 'deferred_tool_call':
      run.callEvent(event.callId, 'tiny.deferred_tool_call', {
        [ATTRIBUTES.toolName]: event.toolName,
        'tiny.deferred.via': event.via,
      });
      return;
    case 'tool_denied':
      run.callEvent(event.callId, 'tiny.tool_denied', {
        [ATTRIBUTES.toolName]: event.toolName,
        ...run.content('tiny.denial.message', event.message),
      });
      return;
    case 'tool_effect_reconciled':
      run.callEvent(event.callId, 'tiny.tool_effect_reconciled', {
        [ATTRIBUTES.toolName]: event.toolName,
        'tiny.reconcile.action': event.action,
      });
      return;
    case 'ledger_write_failed':
      run.callEvent(event.callId, 'tiny.ledger_write_failed', {
        'tiny.ledger.phase': event.phase,
        'tiny.ledger.action': event.action,
        [ATTRIBUTES.errorMessage]: event.error,
      });
      return;
    case 'limit_reached':
      run.noteFailure(ERROR_TYPES.limitExceeded);
      run.runEvent('tiny.limit_reached', { 'tiny.limit.kind': event.limitKind, 'tiny.limit.value': event.limit });
      return;
    case 'control_applied':
      run.runEvent('tiny.control_applied', {
        'tiny.control': event.control,
        'tiny.control.detail': event.detail,
        'tiny.control.by': event.by,
      });
      return;
    case 'tools_filtered':
      run.runEvent('tiny.tools_filtered', {
        'tiny.filter.by': event.by,
        'tiny.filter.excluded': [...event.excluded],
        'tiny.filter.remaining': event.remaining,
      });
      return;
    case 'tool_definition_added':
    case 'tool_definition_changed':
    case 'tool_definition_removed':
      // A toolset's tool definition moved under the run (an MCP server changed it): digests, never text.
      run.runEvent(`tiny.${event.type}`, {
        'tiny.toolset': event.toolSet,
        [ATTRIBUTES.toolName]: event.toolName,
        ...(event.type === 'tool_definition_removed'
          ? { 'tiny.tool_definition.previous': event.previous }
          : { 'tiny.tool_definition.current': event.current, 'tiny.tool_definition.withheld': event.withheld }),
        ...(event.type === 'tool_definition_changed'
          ? {
              'tiny.tool_definition.changed': [...event.changed],
              ...(event.pinned === undefined ? {} : { 'tiny.tool_definition.pinned': event.pinned }),
            }
          : {}),
      });
      return;
    case 'output_retry':
      run.runEvent('tiny.output_retry', {
        'tiny.output.schema': event.schemaName,
        'tiny.retry.attempt': event.attempt,
        'tiny.output.error_kind': event.errorKind,
        ...run.content(ATTRIBUTES.errorMessage, event.error),
      });
      return;
    case 'output_fallback':
      run.runEvent('tiny.output_fallback', {
        'tiny.output.schema': event.schemaName,
        'tiny.output.from': event.from,
        'tiny.output.to': event.to,
        'tiny.output.reason': event.reason,
      });
      return;
    case 'custom':
      // Custom payloads are the tool's own data: not exported.
      return;
    case 'run_completed':
      run.finish({ [ATTRIBUTES.runOutcome]: event.outcome });
      return;
    case 'run_failed':
      run.finish({ [ATTRIBUTES.runOutcome]: 'failed' }, event.error);
      return;
    default:
      // Event types added to the harness later are not exported until mapped here.
      return;
  }
}
