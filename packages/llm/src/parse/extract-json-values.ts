import { scanJsonValue } from './scan-json-value.js';

/** @internal A JSON value found in text, with its span. */
export interface JsonValueSpan {
  readonly value: unknown;
  readonly start: number;
  readonly end: number;
}

/**
 * @internal Every JSON object or array in `text[start..end)`, in order. Values are read strictly
 * from each `{` or `[`; when one breaks, the containers that did close inside it are kept and the
 * search resumes where it broke, so the whole pass stays linear. Stops after `max` values.
 * Only run this on text the model marked as a call (a tag body), never on free prose.
 */
export function extractJsonValues(
  text: string,
  start = 0,
  end: number = text.length,
  max = Number.POSITIVE_INFINITY,
): JsonValueSpan[] {
  const values: JsonValueSpan[] = [];
  let index = start;
  while (index < end && values.length < max) {
    const open = nextContainer(text, index, end);
    if (open < 0) break;
    const scan = scanJsonValue(text, open, end);
    if (scan.kind === 'complete') {
      push(values, text, open, scan.end);
      index = scan.end;
      continue;
    }
    for (const [spanStart, spanEnd] of scan.completed) {
      if (values.length >= max) break;
      push(values, text, spanStart, spanEnd);
    }
    if (scan.kind === 'incomplete') break;
    index = scan.at > open ? scan.at : open + 1;
  }
  return values;
}

/** @internal Parses `text` strictly as JSON, or `undefined`. Never throws. */
export function parseJsonStrict(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

function nextContainer(text: string, from: number, end: number): number {
  for (let index = from; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code === 123 || code === 91) return index;
  }
  return -1;
}

function push(values: JsonValueSpan[], text: string, start: number, end: number): void {
  const parsed = parseJsonStrict(text.slice(start, end));
  if (parsed !== undefined) values.push({ value: parsed.value, start, end });
}
