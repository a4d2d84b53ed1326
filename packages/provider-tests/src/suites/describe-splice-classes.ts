import { collectStreamSettled, type LanguageModelV1StreamPart } from '@tiny/llm';
import { describe, expect, it } from 'vitest';
import { partsOf } from '../replay/stream-parts.js';
import { useAnswerServer } from './answer-server.js';
import type { SuiteModelFactory } from './describe-header-secrets.js';

/** A stream the adapter must run: its SSE body and the calls it holds, in order. */
export interface CleanSplice {
  /** The whole `text/event-stream` body, in the provider's wire form. */
  readonly body: string;
  /** The calls it must deliver, valid, in order (matched as a subset: `id` may be left out). */
  readonly calls: readonly { readonly id?: string; readonly name: string; readonly arguments: unknown }[];
}

/**
 * The adapter's wire encodings of the splice classes (issue 34, WIRE-3): each a whole
 * `text/event-stream` body in the provider's own form, holding at least one tool call.
 */
export interface SpliceClassesWire {
  /** A call slot (a block index, a call index, a choice) taken again after it closed or restarted. */
  readonly slotReused: string;
  /** Two calls claiming one call id (two blocks, or fragments at two indexes, under one id). */
  readonly oneIdTwoCalls: string;
  /** A stream whose identity or order breaks (a completion id that changes, an index below one already started). */
  readonly identityBreak: string;
  /** More of the adapter's own splices that must fail closed, by name. */
  readonly moreViolations?: Readonly<Record<string, string>> | undefined;
  /** Look-alike streams that are no splice (a provider's quirk), by name: each must run its calls. */
  readonly clean: Readonly<Record<string, CleanSplice>>;
}

/** Options of {@link describeSpliceClasses}. */
export interface SpliceClassesOptions {
  /** Names the `describe` block. */
  readonly name: string;
  /** The adapter under test. */
  readonly create: SuiteModelFactory;
  /** The adapter's encodings of the recorded cases. */
  readonly wire: SpliceClassesWire;
}

/**
 * Registers the splice-class tests (issue 34, WIRE-3), served over a real 127.0.0.1 server: every
 * violation stream ends in a non-retryable `protocol_violation` error part, never a finish that
 * would let a call run (a finish with reason `error` is allowed), and every call it delivered
 * (at least one) is refused (`refused: true`: the harness never repairs or runs it) after
 * `collectStreamSettled`; every clean stream finishes with
 * `tool_calls` and delivers exactly its calls, none invalid.
 */
export function describeSpliceClasses(options: SpliceClassesOptions): void {
  const { wire } = options;
  const violations: [string, string][] = [
    ['a call slot reused', wire.slotReused],
    ['one id for two calls', wire.oneIdTwoCalls],
    ['identity or order broken', wire.identityBreak],
    ...Object.entries(wire.moreViolations ?? {}),
  ];
  describe(options.name, () => {
    const server = useAnswerServer();
    const streamed = async (body: string): Promise<LanguageModelV1StreamPart[]> => {
      server.answer({ type: 'text/event-stream', body });
      const model = options.create({ baseURL: server.baseURL(), apiKey: 'sk-splice-0000' });
      return partsOf((await model.doStream({ messages: [{ role: 'user', content: 'hi' }] })).stream);
    };
    const settle = (parts: readonly LanguageModelV1StreamPart[]) =>
      collectStreamSettled(
        (async function* () {
          yield* parts;
        })(),
      );

    it.each(violations)('%s: a protocol violation, every call refused', async (_name, body) => {
      const parts = await streamed(body);
      const last = parts.at(-1);
      expect(last?.type === 'error' ? last.error : undefined).toMatchObject({
        kind: 'protocol_violation',
        isRetryable: false,
      });
      for (const part of parts) if (part.type === 'finish') expect(part.finishReason).toBe('error');
      const settled = await settle(parts);
      expect(settled.response.toolCalls.length).toBeGreaterThan(0);
      for (const call of settled.response.toolCalls) {
        expect(call.invalid, call.id).toBeDefined();
        expect(call.refused, call.id).toBe(true);
      }
    });

    it.each(Object.entries(wire.clean))('%s: runs its calls', async (_name, clean) => {
      const parts = await streamed(clean.body);
      expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool_calls' });
      const settled = await settle(parts);
      expect(settled.response.toolCalls).toMatchObject(clean.calls);
      expect(settled.response.toolCalls).toHaveLength(clean.calls.length);
      for (const call of settled.response.toolCalls) {
        expect(call.invalid, call.id).toBeUndefined();
        expect(call.refused, call.id).toBeUndefined();
      }
    });
  });
}
