/**
 * @internal The outcome of reading one strict JSON container.
 * - `complete`: a value ends at `end` (exclusive).
 * - `invalid`: strict JSON breaks at `at`.
 * - `incomplete`: the text ran out first (a stream may still complete it).
 * `completed` lists, for the two failures, the outermost containers inside that did close (each is
 * valid JSON on its own), in order.
 */
export type JsonScan =
  | { readonly kind: 'complete'; readonly end: number }
  | { readonly kind: 'invalid'; readonly at: number; readonly completed: ReadonlyArray<readonly [number, number]> }
  | { readonly kind: 'incomplete'; readonly completed: ReadonlyArray<readonly [number, number]> };

const VALUE = 0;
const ARRAY_VALUE_OR_END = 1;
const KEY_OR_END = 2;
const KEY = 3;
const COLON = 4;
const AFTER_VALUE = 5;
const OBJECT = 1;
const ARRAY = 2;

/**
 * @internal Reads the strict JSON object or array opening at `start` (`{` or `[`), without
 * recursion and in time linear in what it reads. Accepts exactly what `JSON.parse` accepts.
 */
export function scanJsonValue(text: string, start: number, limit: number = text.length): JsonScan {
  const kinds: number[] = [];
  const starts: number[] = [];
  const completed: Array<readonly [number, number]> = [];
  let state = VALUE;
  let index = start;
  const first = text.charCodeAt(start);
  if (first !== 123 && first !== 91) return { kind: 'invalid', at: start, completed };
  for (;;) {
    while (index < limit) {
      const code = text.charCodeAt(index);
      if (code !== 32 && code !== 10 && code !== 13 && code !== 9) break;
      index++;
    }
    if (index >= limit) return { kind: 'incomplete', completed };
    const code = text.charCodeAt(index);
    if (state === VALUE || state === ARRAY_VALUE_OR_END) {
      if (code === 93 && state === ARRAY_VALUE_OR_END) {
        index = close(index);
        if (kinds.length === 0) return { kind: 'complete', end: index };
        state = AFTER_VALUE;
        continue;
      }
      if (code === 123) {
        kinds.push(OBJECT);
        starts.push(index);
        state = KEY_OR_END;
        index++;
        continue;
      }
      if (code === 91) {
        kinds.push(ARRAY);
        starts.push(index);
        state = ARRAY_VALUE_OR_END;
        index++;
        continue;
      }
      const end = scanPrimitive(text, index, limit);
      if (end === -1) return { kind: 'incomplete', completed };
      if (end < 0) return { kind: 'invalid', at: -end - 2, completed };
      index = end;
      state = AFTER_VALUE;
      continue;
    }
    if (state === KEY_OR_END || state === KEY) {
      if (code === 125 && state === KEY_OR_END) {
        index = close(index);
        if (kinds.length === 0) return { kind: 'complete', end: index };
        state = AFTER_VALUE;
        continue;
      }
      if (code !== 34) return { kind: 'invalid', at: index, completed };
      const end = scanString(text, index, limit);
      if (end === -1) return { kind: 'incomplete', completed };
      if (end < 0) return { kind: 'invalid', at: -end - 2, completed };
      index = end;
      state = COLON;
      continue;
    }
    if (state === COLON) {
      if (code !== 58) return { kind: 'invalid', at: index, completed };
      index++;
      state = VALUE;
      continue;
    }
    const top = kinds[kinds.length - 1];
    if (code === 44) {
      index++;
      state = top === OBJECT ? KEY : VALUE;
      continue;
    }
    if ((code === 125 && top === OBJECT) || (code === 93 && top === ARRAY)) {
      index = close(index);
      if (kinds.length === 0) return { kind: 'complete', end: index };
      continue;
    }
    return { kind: 'invalid', at: index, completed };
  }

  function close(at: number): number {
    kinds.pop();
    const opened = starts.pop() ?? start;
    while (completed.length > 0 && (completed[completed.length - 1]?.[0] ?? -1) > opened) completed.pop();
    completed.push([opened, at + 1]);
    return at + 1;
  }
}

/**
 * Reads a string, number or literal at `index`. Returns the end index, -1 when the text ends
 * first, or `-(position + 2)` when it is invalid at `position`.
 */
function scanPrimitive(text: string, index: number, limit: number): number {
  const code = text.charCodeAt(index);
  if (code === 34) return scanString(text, index, limit);
  if (code === 45 || (code >= 48 && code <= 57)) return scanNumber(text, index, limit);
  if (code === 116) return scanLiteral(text, index, limit, 'true');
  if (code === 102) return scanLiteral(text, index, limit, 'false');
  if (code === 110) return scanLiteral(text, index, limit, 'null');
  return -(index + 2);
}

/** @internal Reads a JSON string opening at `index` (a `"`); same return convention as above. */
export function scanString(text: string, index: number, limit: number): number {
  let position = index + 1;
  while (position < limit) {
    const code = text.charCodeAt(position);
    if (code === 34) return position + 1;
    if (code < 32) return -(position + 2);
    if (code === 92) {
      if (position + 1 >= limit) return -1;
      const escaped = text.charCodeAt(position + 1);
      if (escaped === 117) {
        for (let digit = 2; digit < 6; digit++) {
          if (position + digit >= limit) return -1;
          if (!isHex(text.charCodeAt(position + digit))) return -(position + digit + 2);
        }
        position += 6;
        continue;
      }
      if (
        escaped !== 34 &&
        escaped !== 92 &&
        escaped !== 47 &&
        escaped !== 98 &&
        escaped !== 102 &&
        escaped !== 110 &&
        escaped !== 114 &&
        escaped !== 116
      ) {
        return -(position + 3);
      }
      position += 2;
      continue;
    }
    position++;
  }
  return -1;
}

function scanNumber(text: string, index: number, limit: number): number {
  let position = index;
  if (text.charCodeAt(position) === 45) position++;
  if (position >= limit) return -1;
  const lead = text.charCodeAt(position);
  if (lead === 48) position++;
  else if (lead >= 49 && lead <= 57) position = digits(text, position, limit);
  else return -(position + 2);
  if (position >= limit) return -1;
  if (text.charCodeAt(position) === 46) {
    const after = digits(text, position + 1, limit);
    if (after >= limit) return -1;
    if (after === position + 1) return -(after + 2);
    position = after;
  }
  const exponent = text.charCodeAt(position);
  if (exponent === 101 || exponent === 69) {
    position++;
    const sign = text.charCodeAt(position);
    if (sign === 43 || sign === 45) position++;
    const after = digits(text, position, limit);
    if (after >= limit) return -1;
    if (after === position) return -(after + 2);
    position = after;
  }
  return position;
}

function digits(text: string, index: number, limit: number): number {
  let position = index;
  while (position < limit) {
    const code = text.charCodeAt(position);
    if (code < 48 || code > 57) break;
    position++;
  }
  return position;
}

function scanLiteral(text: string, index: number, limit: number, literal: string): number {
  for (let offset = 0; offset < literal.length; offset++) {
    if (index + offset >= limit) return -1;
    if (text.charCodeAt(index + offset) !== literal.charCodeAt(offset)) return -(index + offset + 2);
  }
  return index + literal.length;
}

function isHex(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}
