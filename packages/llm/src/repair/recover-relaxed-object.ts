import { isPlainObject } from './is-plain-object.js';
import { parseJson } from './parse-json.js';
import { peelRedundantBrace, trimBounds } from './peel-redundant-brace.js';
import { relaxObjectText } from './relax-object-text.js';
import { hasTypographicQuotes, straightenQuotes } from './straighten-quotes.js';
import { stripCodeFence } from './strip-code-fence.js';
import { replaceLeakedQuoteTokens } from './template-markers.js';

/** Redundant outer brace layers peeled at most. */
const MAX_LAYERS = 16;

function parseObject(text: string): Record<string, unknown> | undefined {
  const value = parseJson(text);
  return isPlainObject(value) ? value : undefined;
}

/**
 * Whether trimmed, non-empty `text` cannot be a JSON object, judged by its first characters: it
 * must open with `{` followed by `"` or `}`. Lets the ladder skip a strict parse that is bound to
 * fail (a failing `JSON.parse` costs an exception).
 */
function cannotBeObject(text: string, start = 0): boolean {
  if (text.charCodeAt(start) !== 123) return true;
  let index = start + 1;
  let code = text.charCodeAt(index);
  while (code === 32 || code === 10 || code === 13 || code === 9) code = text.charCodeAt(++index);
  return code !== 34 && code !== 125;
}

/**
 * The strict parses of R3 between brace peels, on text the relaxing pass produced.
 * `failed` is text already known not to parse as an object.
 */
function peelAndParse(candidate: string, failed: string): Record<string, unknown> | undefined {
  let bounds: [number, number] | undefined = trimBounds(candidate, 0, candidate.length);
  for (let layer = 0; bounds !== undefined; layer++) {
    const [start, end] = bounds;
    if (!cannotBeObject(candidate, start)) {
      const view = start === 0 && end === candidate.length ? candidate : candidate.slice(start, end);
      const value = view === failed ? undefined : parseObject(view);
      if (value !== undefined) return value;
    }
    if (layer === MAX_LAYERS) return undefined;
    bounds = peelRedundantBrace(candidate, start, end);
  }
  return undefined;
}

/**
 * Recovers a JSON object from slightly malformed model output, conservatively: the whole input
 * must be one object, and a repair is accepted only when the repaired text parses strictly and
 * yields an object. Rungs, in order:
 * - R0: trim, strict parse;
 * - R1: strip one surrounding code fence; remove chat-template markers (`<|tool_call_end|>`,
 *   `</tool_call>`, ...) outside string literals only; replace leaked quote tokens `<|"|>` and
 *   `<|">` with `"`;
 * - R2: escape raw control characters inside strings; drop commas before `}`/`]`; append missing
 *   closers, or trim up to 50 excess trailing closers;
 * - R3: quote bare keys (`{city: "Oslo"}`) and re-quote single- or mismatched-quote keys
 *   (`'city':`, `"city':`), only in object-key position; peel up to 16 redundant outer braces
 *   (`{{"a":1}}`). A `"`-opened key is read as written whenever its string closes and is followed
 *   by `:`; it is re-quoted only when its `"` is closed later in the text, because `{"a':1` could
 *   be valid JSON cut inside the key `a':1…`;
 * - R4: straighten typographic quotes outside string literals (“ ” „ ‟ → `"`, ‘ ’ → `'`) and
 *   retry; quotes inside well-formed strings are prose and stay.
 *
 * Refused (returns `undefined`): single-quoted values (`{'a':'b'}`: apostrophes are English),
 * unquoted array elements (`{tags:[hi,bye]}`), keyless nested objects (`{a:1,{b:2}}`), scalars and
 * arrays, text ending inside a string (a truncated value is never completed), trailing noise after
 * the object (`recoverLeadingObject` accepts that), and garbage. Python literals `True`, `False` and
 * `None` as values are refused too: rewriting them would mean guessing at non-JSON syntax.
 *
 * Input that already parses as an object is returned as parsed; every repair touches only text
 * strict JSON rejects, so no repair changes the meaning of valid JSON. Linear time; never throws.
 */
export function recoverRelaxedObject(raw: string): Record<string, unknown> | undefined {
  const trimmed = raw.trim();
  if (trimmed === '') return undefined;
  const strict = cannotBeObject(trimmed) ? undefined : parseObject(trimmed);
  if (strict !== undefined) return strict;
  const base = replaceLeakedQuoteTokens(stripCodeFence(trimmed));
  const relaxed = relaxObjectText(base);
  const value = relaxed === undefined ? undefined : peelAndParse(relaxed, trimmed);
  if (value !== undefined || !hasTypographicQuotes(base)) return value;
  // R4 works on the relaxed text when there is one: its repaired keys show where strings really are.
  const source = relaxed ?? base;
  const straightened = straightenQuotes(source);
  const again = straightened === source ? undefined : relaxObjectText(straightened);
  return again === undefined ? undefined : peelAndParse(again, trimmed);
}
