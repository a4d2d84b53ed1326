import type { ToolSchema } from '../../spec/tool-schema.js';
import { createStreamScrubber, type StreamScrubberOptions } from '../create-stream-scrubber.js';
import { parseCompleteText } from '../parse-complete-text.js';
import type { ParsedCall, ParseDiagnostic } from '../parse-types.js';
import { createToolKnowledge } from '../scan-context.js';

/** What a stream released, fragment by fragment, and what a complete parse of the same text gives. */
export interface StreamComparison {
  readonly streamedText: string;
  readonly streamedCalls: ParsedCall[];
  readonly streamedDiagnostics: ParseDiagnostic[];
  /** For every fragment: the visible text so far was a prefix of the final narrative. */
  readonly alwaysPrefix: boolean;
  readonly batchText: string;
  readonly batchCalls: ParsedCall[];
  readonly batchDiagnostics: ParseDiagnostic[];
}

/**
 * Feeds `fragments` to a scrubber and parses their concatenation as `parseToolCalls` does, every
 * whole-reply reading included (bare and embedded JSON, pythonic lists, Functionary recipients, a
 * Command R+ action fence, a fence around Hermes blocks); only GLM lines are left out (never streamed).
 */
export function compareStream(fragments: readonly string[], tools?: readonly ToolSchema[]): StreamComparison {
  const text = fragments.join('');
  const knowledge = createToolKnowledge(tools);
  const whole = parseCompleteText(text, knowledge, { allowBareJson: true, allowGlmLines: false });
  const streamable = parseCompleteText(text, knowledge, { allowBareJson: false, allowGlmLines: false });
  // A whole-reply reading that gives the scan's narrative and as many calls is the scan's reading
  // (as the stream's guard takes it: the calls it released stand).
  const same = whole.text === streamable.text && whole.calls.length === streamable.calls.length;
  const batch = same ? streamable : whole;
  const scrubber = createStreamScrubber({ tools });
  let streamedText = '';
  const streamedCalls: ParsedCall[] = [];
  const streamedDiagnostics: ParseDiagnostic[] = [];
  let alwaysPrefix = true;
  for (const fragment of fragments) {
    const step = scrubber.feed(fragment);
    streamedText += step.text;
    streamedCalls.push(...step.calls);
    streamedDiagnostics.push(...step.diagnostics);
    if (!batch.text.startsWith(streamedText)) alwaysPrefix = false;
  }
  const last = scrubber.flush();
  streamedText += last.text;
  streamedCalls.push(...last.calls);
  streamedDiagnostics.push(...last.diagnostics);
  return {
    streamedText,
    streamedCalls,
    streamedDiagnostics,
    alwaysPrefix,
    batchText: batch.text,
    batchCalls: batch.calls,
    batchDiagnostics: batch.diagnostics,
  };
}

/** `whole` cut at the given points (each taken modulo its length + 1; repeats and order do not matter). */
export function cutAt(whole: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((cut) => cut % (whole.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const point of points) {
    pieces.push(whole.slice(from, point));
    from = point;
  }
  pieces.push(whole.slice(from));
  return pieces;
}

/** Feeds `fragments` through one fresh scrubber and flushes it: everything it showed, and every call it released. */
export function feedAll(
  fragments: readonly string[],
  options: StreamScrubberOptions,
): { text: string; calls: unknown[] } {
  const scrubber = createStreamScrubber(options);
  let released = '';
  const calls: unknown[] = [];
  for (const fragment of fragments) {
    const step = scrubber.feed(fragment);
    released += step.text;
    calls.push(...step.calls);
  }
  const last = scrubber.flush();
  return { text: released + last.text, calls: [...calls, ...last.calls] };
}
