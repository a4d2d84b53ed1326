import type { WorkflowContext } from '@restatedev/restate-sdk';
import type { AgentEvent, AgentMiddleware } from '@tiny/harness';
import type { LanguageModelV1Response } from '@tiny/llm';
import {
  ApprovalRequiredError,
  CallDeferredError,
  ModelRetry,
  ToolFailedError,
  ToolResult,
  type ToolResultJson,
} from '@tiny/tools';
import { JournaledStepError } from '../errors/journaled-step-error.js';

/** What a tool step journals: its result, or how it threw. */
type ToolStep =
  | { readonly result: ToolResultJson }
  | { readonly thrown: { readonly kind: 'retry' | 'failed' | 'defer' | 'error'; readonly message: string } };

/** What a model step journals: the response, or the error that ended the model call. */
type ModelStep = { readonly response: LanguageModelV1Response } | { readonly error: string };

function classify(error: unknown): { kind: 'retry' | 'failed' | 'defer' | 'error'; message: string } {
  if (ModelRetry.isInstance(error)) return { kind: 'retry', message: error.advice };
  if (ToolFailedError.isInstance(error)) return { kind: 'failed', message: error.reason };
  if (ApprovalRequiredError.isInstance(error) || CallDeferredError.isInstance(error))
    return { kind: 'defer', message: error.reason };
  return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
}

/** The per-invocation journal: the middleware, the event buffer and its flush. @internal */
export interface Journal {
  readonly middleware: AgentMiddleware;
  readonly onEvent: ((event: AgentEvent) => void) | undefined;
  /** Delivers buffered events to the subscriber in one journaled step (skipped on replay). */
  flush(): Promise<void>;
}

/**
 * Journals every model call (`model:<n>`) and every tool execution (`tool:<callId>`) of a run as
 * a Restate `ctx.run` step, so a replay answers them from the journal. Events are buffered and
 * delivered in journaled batches (`events:<n>`) before each model step and at every pause/end.
 * @internal
 */
export function createJournal(
  ctx: WorkflowContext,
  subscriber: ((events: readonly AgentEvent[]) => void | Promise<void>) | undefined,
): Journal {
  let modelSteps = 0;
  let flushes = 0;
  let buffer: AgentEvent[] = [];
  const toolAttempts = new Map<string, number>();
  // Errors thrown in this process, rethrown as themselves (the harness classifies them by identity).
  const thrown = new Map<string, unknown>();

  const flush = async (): Promise<void> => {
    if (subscriber === undefined) return;
    const batch = buffer;
    buffer = [];
    flushes += 1;
    // An empty batch still takes a step, so the number of steps never depends on event timing.
    await ctx.run(`events:${flushes}`, async () => {
      if (batch.length > 0) await subscriber(batch);
    });
  };

  const middleware: AgentMiddleware = {
    name: 'restate-journal',
    async wrapModel(request, next) {
      await flush();
      modelSteps += 1;
      const step = `model:${modelSteps}`;
      const answer = await ctx.run<ModelStep>(step, async () => {
        try {
          return { response: JSON.parse(JSON.stringify(await next(request))) as LanguageModelV1Response };
        } catch (error) {
          thrown.set(step, error);
          return { error: error instanceof Error ? error.message : String(error) };
        }
      });
      if ('response' in answer) return answer.response;
      if (thrown.has(step)) throw thrown.get(step);
      throw new JournaledStepError({ step, detail: answer.error });
    },
    async wrapTool(call, next) {
      // A call that deferred and was approved later runs again under the same id: number the steps.
      const attempt = (toolAttempts.get(call.id) ?? 0) + 1;
      toolAttempts.set(call.id, attempt);
      const step = attempt === 1 ? `tool:${call.id}` : `tool:${call.id}#${attempt}`;
      const answer = await ctx.run<ToolStep>(step, async () => {
        try {
          return { result: (await next(call)).toJSON() };
        } catch (error) {
          thrown.set(step, error);
          return { thrown: classify(error) };
        }
      });
      if ('result' in answer) return ToolResult.fromJSON(answer.result);
      if (thrown.has(step)) throw thrown.get(step);
      // Replayed after a restart: the original error object is gone.
      switch (answer.thrown.kind) {
        case 'retry':
          return ToolResult.retry(answer.thrown.message);
        case 'failed':
          return ToolResult.failed(answer.thrown.message);
        case 'defer':
          // A deferring tool defers before any effect: ask it again so the harness sees its own error.
          return next(call);
        default:
          throw new JournaledStepError({ step, detail: answer.thrown.message });
      }
    },
  };

  return {
    middleware,
    onEvent: subscriber === undefined ? undefined : (event) => buffer.push(event),
    flush,
  };
}
