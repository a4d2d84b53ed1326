import { scanJsonValue } from './scan-json-value.js';

/** How many further closers a JSON body is scanned past, as closers written inside its strings. */
const MAX_CLOSERS_IN_VALUE = 8;

/**
 * @internal The closer that really ends a body holding JSON: when the body's first `{` or `[` comes
 * before its first closer, the value is scanned from there, so a closer written inside a JSON string
 * (`"note": "<|tool_call_end|>"`) is content and the closer after the value is returned. A value
 * cut by a closer is scanned on past a bounded number of further closers (linear time); one still
 * open at the end of a stream gives -1 (wait for more). Otherwise, and in a complete text whose
 * value never closes, the first closer. `nextCloser(from)` finds a closer at or after `from`.
 */
export function closerPastJson(
  text: string,
  bodyStart: number,
  nextCloser: (from: number) => number,
  stream: boolean,
): number {
  const first = nextCloser(bodyStart);
  if (first < 0) return first;
  const brace = text.indexOf('{', bodyStart);
  const bracket = text.indexOf('[', bodyStart);
  const valueStart = brace < 0 ? bracket : bracket < 0 ? brace : Math.min(brace, bracket);
  if (valueStart < 0 || valueStart >= first) return first;
  let close = first;
  for (let extended = 0; extended <= MAX_CLOSERS_IN_VALUE; extended++) {
    const scan = scanJsonValue(text, valueStart, close);
    if (scan.kind === 'complete') return scan.end > first ? nextCloser(scan.end) : first;
    if (scan.kind !== 'incomplete') return first;
    const later = nextCloser(close + 1);
    if (later < 0) return stream ? -1 : first;
    close = later;
  }
  return first;
}
