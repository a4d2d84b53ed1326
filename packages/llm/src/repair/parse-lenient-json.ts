import { closeTruncatedJson } from './close-truncated-json.js';
import { parseJson } from './parse-json.js';
import { recoverRelaxedObject } from './recover-relaxed-object.js';
import { stripCodeFence } from './strip-code-fence.js';

/** Which rung of the structured-output ladder produced a value. */
export type LenientJsonRepair = 'strict' | 'code_fence' | 'slice' | 'relaxed' | 'closed';

/** A value read by {@link parseLenientJson}, with the rung that produced it. */
export interface LenientJson {
  readonly value: unknown;
  readonly repair: LenientJsonRepair;
}

/** From the first `{` or `[` to the last `}` or `]`, or `undefined` when there is no such span. */
function sliceComposite(text: string): string | undefined {
  const brace = text.indexOf('{');
  const bracket = text.indexOf('[');
  const start = brace < 0 ? bracket : bracket < 0 ? brace : Math.min(brace, bracket);
  const end = Math.max(text.lastIndexOf('}'), text.lastIndexOf(']'));
  return start >= 0 && end > start ? text.slice(start, end + 1) : undefined;
}

/**
 * Reads a JSON value from a model's structured-output text, trying each rung in order and
 * reporting the first that worked:
 * - `strict`: `JSON.parse` of the text;
 * - `code_fence`: the text with one surrounding code fence removed (only when there was one);
 * - `slice`: from the first `{`/`[` to the last `}`/`]` (only when that differs from the text);
 * - `relaxed`: the conservative object ladder ({@link recoverRelaxedObject}) on the text, then on
 *   the slice; objects only;
 * - `closed`: closes a truncated value from the first `{`/`[`: an open string gets its `"`, then
 *   the owed `}`/`]` are appended; if that does not parse, up to 64 trailing characters are dropped
 *   one at a time. A stray closer refuses, and so does text that owes nothing (complete but
 *   invalid text such as `{'a':'b'}` is not truncated, and cutting it down would only lose data).
 *
 * Unlike the tool-argument ladder this one does complete truncated strings, and its earlier rungs
 * return arrays and scalars too. Record the label: a `closed` value may be missing data.
 * Returns `undefined` when no rung yields a value; never throws.
 */
export function parseLenientJson(text: string): LenientJson | undefined {
  const strict = parseJson(text);
  if (strict !== undefined) return { value: strict, repair: 'strict' };
  let base = text.trim();
  const unfenced = stripCodeFence(base);
  if (unfenced !== base) {
    base = unfenced;
    const fenced = parseJson(base);
    if (fenced !== undefined) return { value: fenced, repair: 'code_fence' };
  }
  const slice = sliceComposite(base);
  const distinctSlice = slice !== undefined && slice !== base ? slice : undefined;
  if (distinctSlice !== undefined) {
    const sliced = parseJson(distinctSlice);
    if (sliced !== undefined) return { value: sliced, repair: 'slice' };
  }
  const relaxed =
    recoverRelaxedObject(base) ?? (distinctSlice === undefined ? undefined : recoverRelaxedObject(distinctSlice));
  if (relaxed !== undefined) return { value: relaxed, repair: 'relaxed' };
  // An answer cut inside a string keeps its trailing whitespace: it is part of the string.
  const closed =
    unfenced !== text.trim()
      ? closeTruncatedJson(base)
      : closeTruncatedJson(text.trimStart(), { keepTrailingSpace: true });
  return closed === undefined ? undefined : { value: closed, repair: 'closed' };
}
