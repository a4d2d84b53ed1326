import {
  collectStream,
  collectStreamSettled,
  type LanguageModelV1,
  type LanguageModelV1Request,
  type LanguageModelV1Response,
  type LanguageModelV1StreamPart,
  ModelCallError,
} from '@tiny/llm';
import { describe, expect, it } from 'vitest';
import { partsOf, replayParts } from '../replay/stream-parts.js';
import {
  CONFORMANCE_CASES,
  type ConformanceCase,
  conformanceRequests,
  ERROR_ENVELOPE_SCRIPT,
  ERROR_MAPPING_SCRIPT,
  FIXTURE_ONLY_CASES,
  MID_STREAM_ERROR_MESSAGE,
  SPLICE_CLASSES,
} from './conformance-requests.js';
import { streamOrderViolations } from './stream-order-violations.js';

/** How the suite reaches the adapter under test. */
export interface ConformanceOptions {
  /** Names the `describe` block. */
  readonly name: string;
  /**
   * `fixture`: each case's model talks to a server replaying recorded traffic for that case;
   * `live`: a real endpoint (fixture-only cases are skipped, and parallel calls need only one call).
   */
  readonly mode: 'fixture' | 'live';
  /**
   * The model for one case, with the endpoint ready to answer it (a fixture harness loads the
   * case's recording here). For `prompt_guided`, a model whose tools go in the prompt: a profile
   * without tool calling, or a server that rejects native tools.
   */
  model(testCase: ConformanceCase): LanguageModelV1 | Promise<LanguageModelV1>;
  /**
   * Resolves once the endpoint has received `count` requests in the current case. The `abort` case
   * waits on it before aborting a call that is waiting for its response headers, so the abort
   * lands on a request in flight; without it the case aborts after 50 ms, when the request may not
   * have left yet. A fixture harness answers it from its replay server.
   */
  requestsReceived?(count: number): Promise<void>;
  /** Runs after each case's test, passed or not; a fixture harness checks every exchange was used. */
  afterCase?(testCase: ConformanceCase): void | Promise<void>;
  /** Cases to leave out, each with the reason (shown in the test name). */
  readonly skip?: Partial<Record<ConformanceCase, string>> | undefined;
  /** The API key the model was given; no error may contain it. */
  readonly secret?: string | undefined;
  /** Per-test timeout in milliseconds. Default 20 s for fixtures, 180 s live. */
  readonly timeoutMs?: number | undefined;
}

async function streamed(model: LanguageModelV1, request: LanguageModelV1Request) {
  const result = await model.doStream(request);
  const parts = await partsOf(result.stream);
  expect(streamOrderViolations(parts)).toEqual([]);
  const response = await collectStream({
    ...result,
    stream: (async function* () {
      yield* parts;
    })(),
  });
  return { parts, response };
}

function expectWeatherCall(response: LanguageModelV1Response, cities?: readonly string[]): void {
  expect(response.toolCalls.length).toBeGreaterThanOrEqual(1);
  for (const call of response.toolCalls) {
    expect(call.invalid).toBeUndefined();
    expect(call.name).toBe('get_weather');
    expect(typeof (call.arguments as { city?: unknown }).city).toBe('string');
  }
  if (cities !== undefined) {
    const seen = response.toolCalls.map((call) => String((call.arguments as { city: string }).city).toLowerCase());
    for (const city of cities) expect(seen).toContain(city.toLowerCase());
  }
  const ids = response.toolCalls.map((call) => call.id);
  expect(ids.every((id) => id !== '')).toBe(true);
  expect(new Set(ids).size).toBe(ids.length);
  expect(response.finishReason).toBe('tool_calls');
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

function expectSecretKept(error: unknown, secret: string | undefined): void {
  if (secret === undefined) return;
  const record = error as Record<string, unknown>;
  const text = [String(record.message), String(record.responseBody ?? ''), JSON.stringify(record)].join('\n');
  expect(text).not.toContain(secret);
}

type Check = (model: LanguageModelV1, options: ConformanceOptions) => Promise<void>;

const checks: Readonly<Record<ConformanceCase, Check>> = {
  async text(model) {
    const response = await model.doGenerate(conformanceRequests.text);
    expect(response.content.trim()).not.toBe('');
    expect(response.toolCalls).toEqual([]);
    expect(['stop', 'length']).toContain(response.finishReason);
    for (const count of [response.usage.inputTokens, response.usage.outputTokens]) {
      if (count !== undefined) expect(count).toBeGreaterThanOrEqual(0);
    }
  },

  async stream_order(model) {
    const { parts, response } = await streamed(model, conformanceRequests.text);
    expect(parts.some((part) => part.type === 'text_delta')).toBe(true);
    expect(parts.filter((part) => part.type === 'finish')).toHaveLength(1);
    expect(parts[parts.length - 1]?.type).toBe('finish');
    expect(response.content.trim()).not.toBe('');
  },

  async tool_call(model) {
    expectWeatherCall(await model.doGenerate(conformanceRequests.tool_call), ['Paris']);
    expectWeatherCall((await streamed(model, conformanceRequests.tool_call)).response, ['Paris']);
  },

  async parallel_tool_calls(model, options) {
    const cities = options.mode === 'fixture' ? ['Paris', 'Oslo'] : undefined;
    const generated = await model.doGenerate(conformanceRequests.parallel_tool_calls);
    expectWeatherCall(generated, cities);
    const { response } = await streamed(model, conformanceRequests.parallel_tool_calls);
    expectWeatherCall(response, cities);
  },

  async repaired_arguments(model) {
    const check = (response: LanguageModelV1Response, context: string) => {
      const [repaired, broken] = response.toolCalls;
      expect(repaired?.invalid).toBeUndefined();
      expect(repaired?.arguments).toEqual({ city: 'Paris', unit: 'c' });
      expect(broken?.invalid).toMatch(
        new RegExp(
          `^${context} contained invalid JSON arguments for tool call \`[^\`]+\` \\(\`get_weather\`\\): .+; raw arguments: \\{"city": "Os$`,
        ),
      );
      expect(broken?.arguments).toBe('{"city": "Os');
      // Unreadable text alone: the harness may repair it, so it is not refused.
      expect(broken?.refused).toBeUndefined();
    };
    check(await model.doGenerate(conformanceRequests.tool_call), 'response');
    check((await streamed(model, conformanceRequests.tool_call)).response, 'stream');
  },

  async zero_argument_tool(model) {
    for (const response of [
      await model.doGenerate(conformanceRequests.zero_argument_tool),
      (await streamed(model, conformanceRequests.zero_argument_tool)).response,
    ]) {
      expect(response.toolCalls).toHaveLength(1);
      expect(response.toolCalls[0]).toMatchObject({ name: 'get_time', arguments: {} });
      expect(response.toolCalls[0]?.invalid).toBeUndefined();
    }
  },

  async tool_choice(model) {
    const response = await model.doGenerate(conformanceRequests.tool_choice);
    expect(response.toolCalls.length).toBeGreaterThanOrEqual(1);
    expect(response.toolCalls.map((call) => call.name)).toEqual(response.toolCalls.map(() => 'get_time'));
  },

  async structured_output(model) {
    const response = await model.doGenerate(conformanceRequests.structured_output);
    const value = JSON.parse(response.content) as Record<string, unknown>;
    expect(typeof value.city).toBe('string');
    expect(typeof value.temperature_c).toBe('number');
    expect(value.summary === undefined || value.summary === null || typeof value.summary === 'string').toBe(true);
  },

  async prompt_guided(model) {
    const generated = await model.doGenerate(conformanceRequests.tool_call);
    expectWeatherCall(generated, ['Paris']);
    expect(generated.content).not.toContain('<tool_call');
    const { parts, response } = await streamed(model, conformanceRequests.tool_call);
    expectWeatherCall(response, ['Paris']);
    for (const part of parts) if (part.type === 'text_delta') expect(part.delta).not.toContain('<tool_call');
  },

  async abort(model, options) {
    const controller = new AbortController();
    const reason = new Error('conformance: stop');
    const result = await model.doStream({ ...conformanceRequests.abort, abortSignal: controller.signal });
    const seen: LanguageModelV1StreamPart[] = [];
    const iteration = (async () => {
      for await (const part of result.stream) {
        seen.push(part);
        if (part.type === 'text_delta') controller.abort(reason);
      }
    })();
    expect(await caught(iteration)).toBe(reason);
    expect(seen.some((part) => part.type === 'finish')).toBe(false);

    const waiting = new AbortController();
    const pending = model.doGenerate({ ...conformanceRequests.text, abortSignal: waiting.signal });
    pending.catch(() => {});
    if (options.requestsReceived === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    else await options.requestsReceived(2);
    waiting.abort(reason);
    expect(await caught(pending)).toBe(reason);

    const early = new AbortController();
    early.abort(reason);
    expect(await caught(model.doGenerate({ ...conformanceRequests.text, abortSignal: early.signal }))).toBe(reason);
  },

  async error_mapping(model, options) {
    for (const expected of ERROR_MAPPING_SCRIPT) {
      const error = await caught(model.doGenerate(conformanceRequests.text));
      expect(ModelCallError.isInstance(error), String(error)).toBe(true);
      const typed = error as ModelCallError & { retryAfterMs?: number };
      expect(typed.statusCode).toBe(expected.status);
      expect(typed.isRetryable).toBe(expected.retryable);
      expect(typed.message).toContain(expected.message);
      if ('retryAfterMs' in expected && 'retryAfterMs' in typed) expect(typed.retryAfterMs).toBe(expected.retryAfterMs);
      expectSecretKept(error, options.secret);
    }
    const result = await model.doStream(conformanceRequests.text);
    const parts = await partsOf(result.stream);
    expect(streamOrderViolations(parts)).toEqual([]);
    const last = parts[parts.length - 1];
    expect(last?.type).toBe('error');
    const error = last?.type === 'error' ? last.error : undefined;
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect((error as ModelCallError).message).toContain(MID_STREAM_ERROR_MESSAGE);
    expectSecretKept(error, options.secret);
    const streamedText = parts.map((part) => (part.type === 'text_delta' ? part.delta : '')).join('');
    const settled = await collectStreamSettled(replayParts(parts));
    expect(settled.error).toBe(error);
    expect(settled.response.content).toBe(streamedText);
  },

  async stream_endings(model) {
    const cut = await partsOf((await model.doStream(conformanceRequests.text)).stream);
    expect(streamOrderViolations(cut)).toEqual([]);
    expect(cut.some((part) => part.type === 'finish')).toBe(false);
    const last = cut[cut.length - 1];
    expect(last?.type).toBe('error');
    const error = last?.type === 'error' ? last.error : undefined;
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect((error as ModelCallError).isRetryable).toBe(true);
    const settled = await collectStreamSettled(replayParts(cut));
    expect(settled.response.content).not.toBe('');

    // The body ended after the finish reason without the end marker: a normal finish.
    const ended = await partsOf((await model.doStream(conformanceRequests.text)).stream);
    expect(streamOrderViolations(ended)).toEqual([]);
    const finish = ended[ended.length - 1];
    expect(finish?.type).toBe('finish');
    expect(ended.some((part) => part.type === 'error')).toBe(false);
    if (finish?.type === 'finish') expect(['stop', 'length']).toContain(finish.finishReason);

    // The connection dropped after the finish reason and usage: a normal finish keeping the usage
    // only when the drop came after the terminal event (Responses, Gemini); before it (chat
    // completions' `[DONE]`, Anthropic's `message_stop`) a retryable error, never a finish.
    const dropped = await partsOf((await model.doStream(conformanceRequests.text)).stream);
    expect(streamOrderViolations(dropped)).toEqual([]);
    const end = dropped[dropped.length - 1];
    if (end?.type === 'finish') {
      expect(dropped.some((part) => part.type === 'error')).toBe(false);
      expect(['stop', 'length']).toContain(end.finishReason);
      expect(end.usage.outputTokens).toBeGreaterThan(0);
    } else {
      expect(dropped.some((part) => part.type === 'finish')).toBe(false);
      const failure = end?.type === 'error' ? end.error : undefined;
      expect(ModelCallError.isInstance(failure), String(failure)).toBe(true);
      expect(failure).toMatchObject({ kind: 'incomplete_stream', isRetryable: true });
    }
  },

  async spliced_stream(model) {
    const parts = await partsOf((await model.doStream(conformanceRequests.tool_call)).stream);
    const settled = await collectStreamSettled(replayParts(parts));
    for (const call of settled.response.toolCalls) {
      expect(call.invalid, `call ${call.id}`).toBeDefined();
      expect(call.refused, `call ${call.id}`).toBe(true);
    }
    const last = parts[parts.length - 1];
    if (last?.type === 'finish') expect(last.finishReason).toBe('error');
    else {
      expect(last?.type).toBe('error');
      const error = last?.type === 'error' ? last.error : undefined;
      expect(ModelCallError.isInstance(error), String(error)).toBe(true);
      expect(error).toMatchObject({ kind: 'protocol_violation', isRetryable: false });
    }
  },

  async splice_classes(model) {
    for (let splice = 0; splice < SPLICE_CLASSES; splice += 1) {
      const parts = await partsOf((await model.doStream(conformanceRequests.tool_call)).stream);
      const settled = await collectStreamSettled(replayParts(parts));
      for (const call of settled.response.toolCalls) {
        expect(call.invalid, `splice ${splice}: call ${call.id}`).toBeDefined();
        expect(call.refused, `splice ${splice}: call ${call.id}`).toBe(true);
      }
      const last = parts[parts.length - 1];
      if (last?.type === 'finish') expect(last.finishReason, `splice ${splice}`).toBe('error');
      else {
        expect(last?.type, `splice ${splice}`).toBe('error');
        const error = last?.type === 'error' ? last.error : undefined;
        expect(ModelCallError.isInstance(error), String(error)).toBe(true);
        expect(error, `splice ${splice}`).toMatchObject({ kind: 'protocol_violation', isRetryable: false });
      }
    }
  },

  async error_envelopes(model, options) {
    for (const expected of ERROR_ENVELOPE_SCRIPT) {
      let error: unknown;
      if (expected.mode === 'generate') error = await caught(model.doGenerate(conformanceRequests.text));
      else {
        const parts = await partsOf((await model.doStream(conformanceRequests.text)).stream);
        const last = parts[parts.length - 1];
        expect(last?.type).toBe('error');
        error = last?.type === 'error' ? last.error : undefined;
      }
      expect(ModelCallError.isInstance(error), String(error)).toBe(true);
      expect(error, expected.message).toMatchObject({ kind: expected.kind, isRetryable: expected.retryable });
      expect((error as ModelCallError).message).toContain(expected.message);
      expectSecretKept(error, options.secret);
    }
  },

  async context_overflow(model) {
    for (const _status of [400, 500]) {
      const error = await caught(model.doGenerate(conformanceRequests.text));
      expect(ModelCallError.isInstance(error), String(error)).toBe(true);
      expect(error).toMatchObject({ kind: 'context_overflow', isRetryable: false });
    }
    const parts = await partsOf((await model.doStream(conformanceRequests.text)).stream);
    const last = parts[parts.length - 1];
    expect(last?.type).toBe('error');
    expect(last?.type === 'error' ? last.error : undefined).toMatchObject({
      kind: 'context_overflow',
      isRetryable: false,
    });
  },

  async refusal(model) {
    const generated = await model.doGenerate(conformanceRequests.structured_output);
    const { parts, response } = await streamed(model, conformanceRequests.structured_output);
    for (const answer of [generated, response]) {
      expect(answer.refusal?.trim()).toBeTruthy();
      expect(answer.content.trim()).toBe('');
      expect(answer.finishReason).toBe('content_filter');
    }
    expect(parts.some((part) => part.type === 'refusal_delta')).toBe(true);
  },
};

/**
 * Declares the standard conformance tests for a `LanguageModelV1` adapter, one vitest test per
 * case (see `ConformanceCase`), in the spirit of LangChain's standard tests. Call it at the top
 * level of a test file. Skipped cases show their reason; fixture-only cases are skipped in live
 * mode.
 */
export function describeConformance(options: ConformanceOptions): void {
  const timeout = options.timeoutMs ?? (options.mode === 'live' ? 180_000 : 20_000);
  describe(`${options.name} conformance`, () => {
    for (const testCase of CONFORMANCE_CASES) {
      const reason =
        options.skip?.[testCase] ??
        (options.mode === 'live' && FIXTURE_ONLY_CASES.includes(testCase) ? 'needs recorded traffic' : undefined);
      if (reason !== undefined) {
        it.skip(`${testCase} (skipped: ${reason})`, () => {});
        continue;
      }
      it(
        testCase,
        async () => {
          let failure: { error: unknown } | undefined;
          try {
            await checks[testCase](await options.model(testCase), options);
          } catch (error) {
            failure = { error };
          }
          try {
            await options.afterCase?.(testCase);
          } catch (error) {
            // The case's own failure explains more than the fixture check it caused; keep both.
            if (failure === undefined) throw error;
            if (failure.error instanceof Error && failure.error.cause === undefined) failure.error.cause = error;
          }
          if (failure !== undefined) throw failure.error;
        },
        timeout,
      );
    }
  });
}
