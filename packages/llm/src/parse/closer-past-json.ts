import { scanJsonValue } from './scan-json-value.js';

/**
 * @internal The closer that really ends a body holding JSON: when the body's first `{` or `[` comes
 * before its first closer, the value is scanned from there, so a closer written inside a JSON string
 * (`"note": "<|tool_call_end|>"`) is content and the closer after the value is returned. The value
 * is scanned to its own end (strings with their escapes), never a fixed number of closers, so any
 * number of closers inside its strings are content; a value still open at the end of a stream
 * gives -1 (wait for more). Otherwise, and in a complete text whose
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
  // The value is scanned once, to its own end: a closer written inside a JSON string is content
  // however many times it repeats. The scan reads the value and nothing past it (linear).
  const scan = scanJsonValue(text, valueStart, text.length);
  if (scan.kind === 'complete') return scan.end > first ? nextCloser(scan.end) : first;
  if (scan.kind === 'incomplete' && stream) return -1;
  return first;
}
