import {
  collectStream,
  createStreamScrubber,
  type LanguageModelV1Request,
  type LanguageModelV1Response,
  type LanguageModelV1StreamPart,
  ModelCallError,
  type ToolSchema,
  withOwnFormatGrammars,
} from '@tiny/llm';
import { MiddlewareError } from '../errors/middleware-error.js';
import { redactionOf } from '../execution/redaction.js';
import type { AgentMiddleware, MiddlewareContext, NextModel } from '../middleware/agent-middleware.js';
import { isRunStop, raceRunStop, runStopError } from '../run/run-stop.js';
import { checkModelResponse } from './check-model-response.js';
import type { LoopState } from './loop-state.js';

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The wait before a retry: exponential backoff, or the provider's `retry-after` when longer (capped at a minute). */
function retryDelay(state: LoopState, error: ModelCallError, attempt: number): number {
  const backoff = state.limits.retryDelayMs * 2 ** attempt;
  return Math.max(backoff, Math.min(error.retryAfterMs ?? 0, 60_000));
}

/**
 * The last error of a retried model call, saying how many attempts were made (`attempts`, and at
 * the end of the message) so a final 429 or 503 does not read like a first failure.
 */
function gaveUp(error: ModelCallError, attempts: number, state: LoopState): ModelCallError {
  Object.defineProperty(error, 'attempts', { value: attempts, enumerable: true, configurable: true });
  error.message = `${error.message} (gave up after ${attempts} attempt${attempts === 1 ? '' : 's'}; limits.maxRetriesPerCall is ${state.limits.maxRetriesPerCall})`;
  return error;
}

/**
 * Calls the model once, retrying retryable provider errors (`ModelCallError.isRetryable`) up to
 * `maxRetriesPerCall` times with exponential backoff (or the provider's `retry-after`, when longer) (each retry emits `model_retried`; retries do
 * not count as model calls). When `streaming`, visible text deltas go through the stream scrubber
 * (partial call openers are held back, call blocks removed) and are emitted as `model_delta`, and
 * native tool-call argument pieces as `tool_call_delta`.
 * @internal
 */
export async function callModel(
  state: LoopState,
  request: LanguageModelV1Request,
  modelCallId: string,
  streaming: boolean,
  tools: readonly ToolSchema[],
): Promise<LanguageModelV1Response> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      if (!streaming) return await raceRunStop(state, state.model.doGenerate(request));
      const streamed = async () => {
        const result = await state.model.doStream(request);
        return collectStream({ ...result, stream: tapTextDeltas(state, result.stream, modelCallId, tools) });
      };
      return await raceRunStop(state, streamed());
    } catch (error) {
      if (state.signal.aborted) throw runStopError(state);
      const retryable = ModelCallError.isInstance(error) && error.isRetryable;
      if (!retryable) throw error;
      if (attempt >= state.limits.maxRetriesPerCall) throw gaveUp(error as ModelCallError, attempt + 1, state);
      if (state.sink.active) {
        state.sink.emit({ type: 'model_retried', modelCallId, attempt: attempt + 1, error: (error as Error).message });
      }
      await sleep(retryDelay(state, error as ModelCallError, attempt), state.signal).catch(() => {
        throw runStopError(state);
      });
    }
  }
}

async function* tapTextDeltas(
  state: LoopState,
  stream: AsyncIterable<LanguageModelV1StreamPart>,
  modelCallId: string,
  tools: readonly ToolSchema[],
): AsyncGenerator<LanguageModelV1StreamPart> {
  // A native dialect reads text calls only in the model family's grammars; text dialects read all.
  // The grammars of the tools' own formats (`xml`, `ptype`) are read whatever the family's grammars are.
  const toolCallFormats = state.dialect.shouldSendToolSpecs
    ? withOwnFormatGrammars(state.model.profile.toolCallFormats, tools)
    : undefined;
  const scrubber = tools.length > 0 ? createStreamScrubber({ tools, toolCallFormats }) : undefined;
  const emit = (delta: string) => {
    if (delta !== '' && state.sink.active) state.sink.emit({ type: 'model_delta', modelCallId, delta });
  };
  const names = new Map<string, string>();
  // Argument text of a call the harness would run is tool input: streamed only with
  // `captureToolIo`, and never for a tool with sensitive fields. Calls to schemas of this request
  // that no tool backs (a structured-output tool added by middleware) always stream.
  // Keyed by call id, valued by the tool it was opened for: an id that restarts with another tool
  // is judged again (never streamed under the first tool's verdict).
  const visible = new Map<string, string>();
  for await (const part of stream) {
    if (part.type === 'text_delta') emit(scrubber ? scrubber.feed(part.delta).text : part.delta);
    else if (part.type === 'tool_call_start') {
      names.set(part.id, part.name);
      visible.delete(part.id);
      const entry = state.offered.get(part.name) ?? state.deferredTools.get(part.name);
      const bridge = state.discovery?.isBridgeCall(part.name) === true;
      const isTool = entry !== undefined || bridge;
      const schemaOnly = !isTool && tools.some((tool) => tool.name === part.name);
      // A bridge call (its arguments name another tool) and a name no tool has stream nothing: which
      // of their fields are sensitive is not known until the whole call is read.
      if (
        schemaOnly ||
        (state.policy.captureToolIo && !bridge && entry !== undefined && redactionOf(entry.tool) === undefined)
      )
        visible.set(part.id, part.name);
    } else if (
      part.type === 'tool_call_delta' &&
      state.sink.active &&
      part.argumentsDelta !== '' &&
      visible.get(part.id) === names.get(part.id) &&
      visible.has(part.id)
    ) {
      state.sink.emit({
        type: 'tool_call_delta',
        modelCallId,
        callId: part.id,
        toolName: names.get(part.id) ?? '',
        argumentsDelta: part.argumentsDelta,
      });
    }
    yield part;
  }
  if (scrubber) emit(scrubber.flush().text);
}

const wrapsModel = (middleware: AgentMiddleware): boolean => middleware.wrapModel !== undefined;

/**
 * {@link callModel} inside the `wrapModel` onion of the run's middleware (first registered is
 * outermost). Without wrapping middleware it is a plain call. The response the run gets is checked
 * against the provider contract ({@link checkModelResponse}) before anything reads it.
 * @internal
 */
export async function callModelThroughMiddleware(
  state: LoopState,
  request: LanguageModelV1Request,
  modelCallId: string,
  streaming: boolean,
  tools: readonly ToolSchema[],
  context: MiddlewareContext | undefined,
): Promise<LanguageModelV1Response> {
  // No `wrapModel` layer: the model call itself (it races the run's stop), with no closure per turn.
  if (context === undefined || !state.middleware.some(wrapsModel))
    return checkModelResponse(await callModel(state, request, modelCallId, streaming, tools), state.model.provider);
  let next: NextModel = (current) => callModel(state, current, modelCallId, streaming, tools);
  for (let index = state.middleware.length - 1; index >= 0; index -= 1) {
    const middleware = state.middleware[index] as AgentMiddleware;
    const wrap = middleware.wrapModel;
    if (!wrap) continue;
    const inner = next;
    next = async (current) => {
      try {
        return await wrap.call(middleware, current, inner, context);
      } catch (error) {
        if (isRunStop(error) || MiddlewareError.isInstance(error) || ModelCallError.isInstance(error)) throw error;
        throw new MiddlewareError({ middleware: middleware.name, hook: 'wrapModel', cause: error });
      }
    };
  }
  return checkModelResponse(await raceRunStop(state, next(request)), state.model.provider);
}
