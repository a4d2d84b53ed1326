import { type LanguageModelV1StreamPart, ModelCallError } from '@tiny/llm';
import { describe, expect, it } from 'vitest';
import { partsOf } from '../replay/stream-parts.js';
import { useAnswerServer } from './answer-server.js';
import type { SuiteModelFactory } from './describe-header-secrets.js';

/**
 * The adapter's wire encodings of the answer classes (issue 34, WIRE-3). The two 200 bodies every
 * adapter must refuse (an OpenAI-shaped error envelope a relay sends, `{}`) are built by the
 * suite; the rest are the adapter's own form, and a case runs only when its encoding is given.
 */
export interface AnswerClassesWire {
  /**
   * A whole (non-streamed) answer that is an empty assistant turn (no text, no calls, a normal
   * stop): it must read as content `''` with finish reason `stop`, not as an invalid response.
   */
  readonly emptyAnswer?: unknown;
  /**
   * A whole answer holding two calls under one id (`bash {cmd: "ls"}` and `bash {cmd: "rm"}`):
   * both must come back refused (`refused: true`, never repaired or run), the reason saying the id
   * `names two calls`.
   */
  readonly twoCallsOneId?: unknown;
  /**
   * A stream (a whole `text/event-stream` body) that starts as the provider's own and then
   * carries an OpenAI-shaped error event `{"error": {"type": "overloaded_error", "message": "Overloaded"}}`:
   * its last part must be an error of kind `overloaded`, retryable, `providerKind` kept.
   */
  readonly overloadedErrorEvent?: string;
}

/** Options of {@link describeAnswerClasses}. */
export interface AnswerClassesOptions {
  /** Names the `describe` block. */
  readonly name: string;
  /** The adapter under test. */
  readonly create: SuiteModelFactory;
  /** The adapter's encodings of the recorded cases (see {@link AnswerClassesWire}). */
  readonly wire?: AnswerClassesWire | undefined;
}

/**
 * Registers the answer-class tests (issue 34, WIRE-3), served over a real 127.0.0.1 server: a 200
 * OpenAI-shaped error envelope is that error by its inner type (`rate_limit`, retryable, the
 * inner message as `providerMessage`); a 200 `{}` is `invalid_chunk` / `invalid_response`, never
 * an empty final answer; then each case of {@link AnswerClassesWire} the adapter encodes.
 */
export function describeAnswerClasses(options: AnswerClassesOptions): void {
  const wire = options.wire ?? {};
  describe(options.name, () => {
    const server = useAnswerServer();
    const model = () => options.create({ baseURL: server.baseURL(), apiKey: 'sk-answers-0000' });
    const request = { messages: [{ role: 'user' as const, content: 'hi' }] };
    const generated = async (body: unknown) => {
      server.answer({ body: JSON.stringify(body) });
      try {
        return { response: await model().doGenerate(request) };
      } catch (error) {
        return { error };
      }
    };

    it('a 200 OpenAI-shaped error envelope is that error, by its inner type', async () => {
      const { error } = await generated({ error: { type: 'rate_limit_error', message: 'slow down' } });
      expect(ModelCallError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ kind: 'rate_limit', isRetryable: true, providerMessage: 'slow down' });
    });

    it('a 200 {} is an invalid response, not an empty final answer', async () => {
      const { error } = await generated({});
      expect(ModelCallError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ kind: 'invalid_chunk', providerKind: 'invalid_response' });
    });

    it.skipIf(wire.emptyAnswer === undefined)('an empty assistant turn is still an empty answer', async () => {
      const { response, error } = await generated(wire.emptyAnswer);
      expect(error).toBeUndefined();
      expect(response).toMatchObject({ content: '', finishReason: 'stop', toolCalls: [] });
    });

    it.skipIf(wire.twoCallsOneId === undefined)(
      'two calls under one id in a whole answer: every call refused',
      async () => {
        const { response, error } = await generated(wire.twoCallsOneId);
        expect(error).toBeUndefined();
        expect(response?.toolCalls).toHaveLength(2);
        for (const call of response?.toolCalls ?? []) {
          expect(call.invalid).toMatch(/names two calls/);
          expect(call.refused).toBe(true);
        }
      },
    );

    it.skipIf(wire.overloadedErrorEvent === undefined)(
      'an OpenAI-shaped error event in a stream keeps its inner type',
      async () => {
        server.answer({ type: 'text/event-stream', body: wire.overloadedErrorEvent ?? '' });
        const parts: LanguageModelV1StreamPart[] = await partsOf((await model().doStream(request)).stream);
        const last = parts.at(-1);
        expect(last?.type === 'error' ? last.error : undefined).toMatchObject({
          kind: 'overloaded',
          providerKind: 'overloaded_error',
          isRetryable: true,
        });
      },
    );
  });
}
