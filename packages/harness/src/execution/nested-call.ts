import { createValidator, prepareToolArguments, ToolInputError, ToolNotFoundError, type ToolResult } from '@tiny/tools';
import type { LoopState } from '../agent/loop-state.js';
import { LimitExceededError } from '../errors/limit-exceeded-error.js';
import { ToolExecutionError } from '../errors/tool-execution-error.js';
import { executeCall, type NestedCallRunner } from './execute-call.js';
import { eventSecrets, redactionOf, redactValue, scrubText, sensitiveValues } from './redaction.js';

/**
 * Runs tool calls made from inside another tool (`context.callTool`): any registered, non-external
 * tool; id `<parent>/<n>`; the same injected-argument and validation rules; one tool-call budget
 * slot each; `tool_started`/`tool_completed`/`tool_failed` with `parentCallId`. Errors are thrown to
 * the calling tool rather than answered to the model.
 * @internal
 */
export function createNestedCallRunner(state: LoopState): NestedCallRunner {
  const runner: NestedCallRunner = async (parentId, depth, name, args): Promise<ToolResult> => {
    const entry = state.registry.get(name);
    if (entry === undefined || entry.external) {
      throw new ToolNotFoundError({ toolName: name, availableTools: state.registry.names() });
    }
    const limit = state.limits.maxToolCalls;
    if (state.toolCalls >= limit) {
      if (state.sink.active) state.sink.emit({ type: 'limit_reached', limitKind: 'tool_calls', limit });
      throw new LimitExceededError({ limitKind: 'tool_calls', limit, messages: state.history });
    }
    state.toolCalls += 1;
    const n = (state.nestedCalls.get(parentId) ?? 0) + 1;
    state.nestedCalls.set(parentId, n);
    const callId = `${parentId}/${n}`;
    const prepared = prepareToolArguments(
      { id: callId, arguments: args },
      entry.tool.injected,
      state.context.hostValues ?? {},
      name,
    );
    const checked = createValidator<Record<string, unknown>>(entry.tool.parameters).validate(prepared);
    if (!checked.ok) throw new ToolInputError({ toolName: name, issues: checked.issues });
    const redaction = redactionOf(entry.tool);
    const secrets = eventSecrets(args, redaction, state.policy.captureToolIo);
    if (state.sink.active) {
      state.sink.emit({
        type: 'tool_started',
        callId,
        toolName: name,
        parentCallId: parentId,
        ...(state.policy.captureToolIo ? { input: redactValue(args, redaction) } : {}),
      });
    }
    const outcome = await executeCall(
      state,
      { id: callId, name, arguments: args },
      entry,
      checked.value,
      depth + 1,
      runner,
    );
    if (outcome.kind === 'result') {
      if (state.sink.active) {
        const output = scrubText(outcome.result.output(), secrets);
        state.sink.emit({
          type: 'tool_completed',
          callId,
          toolName: name,
          parentCallId: parentId,
          startedAtMs: outcome.startedAt,
          durationMs: outcome.durationMs,
          outputBytes: Buffer.byteLength(output),
          ...(state.policy.captureToolIo ? { output } : {}),
          ...(outcome.result.isError ? { error: output } : {}),
          ...(outcome.result.metadata === undefined ? {} : { metadata: outcome.result.metadata }),
        });
      }
      state.executedTools.push(name);
      return outcome.result;
    }
    const error =
      outcome.kind === 'fatal'
        ? outcome.error
        : new ToolExecutionError({
            toolName: name,
            callId,
            cause: new Error(`nested call deferred: ${outcome.reason}`),
          });
    if (state.sink.active) {
      state.sink.emit({
        type: 'tool_failed',
        callId,
        toolName: name,
        parentCallId: parentId,
        startedAtMs: outcome.startedAt,
        durationMs: outcome.durationMs,
        error: scrubText(error instanceof Error ? error.message : String(error), secrets),
      });
    }
    const hidden = sensitiveValues(args, redaction);
    if (hidden.length > 0 && error instanceof Error) error.message = scrubText(error.message, hidden);
    throw error;
  };
  return runner;
}
