import type { AgentHarness, RunContext } from '@tiny/harness';
import type { Message } from '@tiny/llm';
import type { ResponseFormat } from '../format/response-format.js';
import { createPartialJsonParser, type PartialJsonParser } from '../partial/create-partial-json-parser.js';
import type { OutputTarget } from '../strategy/output-plan.js';
import { runStructured, type StructuredOptions } from './run-structured.js';
import type { StructuredRun } from './structured-attempt.js';

/** A value still being written: every property optional, recursively. */
export type DeepPartial<T> = T extends readonly (infer TItem)[]
  ? DeepPartial<TItem>[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/**
 * One part of a structured stream.
 * - `partial`: the value read so far from the current model call's text (a live view: copy it to
 *   keep it). A new `modelCallId` (a retry, or the turn after tools) starts over from nothing.
 *   Values are as written on the wire: under strict mode, left-out optional fields show as `null`.
 * - `final`: the validated value and the whole structured run.
 */
export type StructuredStreamPart<TOutput> =
  | { readonly type: 'partial'; readonly value: DeepPartial<TOutput>; readonly modelCallId: string }
  | { readonly type: 'final'; readonly value: TOutput; readonly run: StructuredRun<TOutput> };

/**
 * The parts of a structured run as an async iterable, plus `result`. Iterate it once; when the run
 * fails, iteration throws the run's error after the parts received so far.
 */
export interface StructuredStream<TOutput> extends AsyncIterable<StructuredStreamPart<TOutput>> {
  /** Resolves to the structured run; rejects like `invokeStructured`. */
  readonly result: Promise<StructuredRun<TOutput>>;
}

/** An output-tool call's streamed arguments, held until its model call ends. */
interface HeldCall {
  readonly parser: PartialJsonParser;
  readonly target: OutputTarget;
  /** The argument text so far, and its length after each delta. */
  text: string;
  readonly cuts: number[];
}

/** The most partials a held call is replayed as (evenly spaced over its deltas, the last one always). */
const MAX_HELD_PARTIALS = 32;

/**
 * The partial values of a held call, replayed from its argument text at (at most
 * {@link MAX_HELD_PARTIALS}) delta boundaries, each a copy (so the sequence grows as it streamed).
 */
function* heldPartials<TOutput>(held: HeldCall): Generator<DeepPartial<TOutput>> {
  const step = Math.max(1, Math.ceil(held.cuts.length / MAX_HELD_PARTIALS));
  const parser = createPartialJsonParser();
  let from = 0;
  for (let index = 0; index < held.cuts.length; index += 1) {
    if ((index + 1) % step !== 0 && index !== held.cuts.length - 1) continue;
    const cut = held.cuts[index] as number;
    parser.push(held.text.slice(from, cut));
    from = cut;
    if (parser.error !== undefined) return;
    let value: unknown = parser.value;
    if (held.target.wrapped) value = (value as Record<string, unknown> | undefined)?.value;
    if (value !== undefined) yield structuredClone(value) as DeepPartial<TOutput>;
  }
}

/**
 * Like `invokeStructured`, but streams the model calls and yields progressively more complete
 * partial values, then the final validated value. Partials are read incrementally (each delta
 * costs time proportional to its length) from the text of the provider and prompted strategies,
 * and from the streamed arguments of the output tool's call (`tool_call_delta`) for the tool
 * strategy: those once the model call has ended, and never for a call the adapter refused (its
 * arguments are no answer, as `invokeStructured` reads it). Under strict mode, partials show the wire's `null`s for omitted optional fields.
 */
export function streamStructured<TOutput>(
  harness: AgentHarness,
  context: RunContext,
  messages: readonly Message[],
  format: ResponseFormat<TOutput>,
  options: StructuredOptions<TOutput> = {},
): StructuredStream<TOutput> {
  const buffer: StructuredStreamPart<TOutput>[] = [];
  let done = false;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  const push = (part: StructuredStreamPart<TOutput>) => {
    buffer.push(part);
    wake?.();
  };
  const result = runStructured(harness, format, options, async (invokeOptions, plan) => {
    const target = plan.targets[0] as OutputTarget;
    const textual = plan.strategy !== 'tool';
    const byTool = new Map(plan.targets.map((entry) => [entry.toolName, entry]));
    let parser: PartialJsonParser | undefined;
    let seeking = true;
    let modelCallId = '';
    // Tool strategy: one parser per output-tool call, fed from the streamed argument pieces.
    const toolParsers = new Map<string, HeldCall>();
    const emitPartial = (source: PartialJsonParser, of: OutputTarget, callId: string) => {
      let value = source.value;
      if (of.wrapped) value = (value as Record<string, unknown> | undefined)?.value;
      if (value !== undefined) push({ type: 'partial', value: value as DeepPartial<TOutput>, modelCallId: callId });
    };
    const stream = harness.stream(context, messages, invokeOptions);
    for await (const event of stream) {
      if (event.type === 'model_started') {
        parser = createPartialJsonParser();
        seeking = true;
        modelCallId = event.modelCallId;
        toolParsers.clear();
      } else if (!textual && event.type === 'tool_call_delta') {
        const of = byTool.get(event.toolName);
        if (of === undefined) continue;
        let entry = toolParsers.get(event.callId);
        if (entry === undefined) {
          entry = { parser: createPartialJsonParser(), target: of, text: '', cuts: [] };
          toolParsers.set(event.callId, entry);
        }
        if (entry.parser.error !== undefined) continue;
        // Held until the model call ends: an adapter may refuse the call up to the stream's end
        // (a repeated id, a cut-off), and a refused call's arguments are never an answer.
        entry.parser.push(event.argumentsDelta);
        entry.text += event.argumentsDelta;
        entry.cuts.push(entry.text.length);
      } else if (!textual && event.type === 'model_completed') {
        const refused = new Set(event.refusedCallIds ?? []);
        for (const [callId, entry] of toolParsers) {
          if (refused.has(callId)) continue;
          for (const value of heldPartials<TOutput>(entry))
            push({ type: 'partial', value, modelCallId: event.modelCallId });
        }
        toolParsers.clear();
      } else if (textual && event.type === 'model_delta' && parser !== undefined && parser.error === undefined) {
        let delta = event.delta;
        if (seeking) {
          // Prose or a code fence may precede the value: start at the first `{` or `[`.
          const start = delta.search(/[{[]/);
          if (start < 0) continue;
          seeking = false;
          delta = delta.slice(start);
        }
        parser.push(delta);
        emitPartial(parser, target, modelCallId);
      }
    }
    return stream.result;
  });
  result.then(
    (run) => {
      push({ type: 'final', value: run.parsed, run });
      done = true;
      wake?.();
    },
    (error: unknown) => {
      failure = { error };
      done = true;
      wake?.();
    },
  );
  result.catch(() => undefined);
  return {
    result,
    async *[Symbol.asyncIterator]() {
      let read = 0;
      for (;;) {
        while (read < buffer.length) {
          yield buffer[read] as StructuredStreamPart<TOutput>;
          read += 1;
        }
        if (done) {
          if (failure) throw failure.error;
          return;
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
    },
  };
}
