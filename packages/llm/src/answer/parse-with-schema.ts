import { createValidator, InvalidInputError, type JsonSchema } from '@tiny/tools';
import { findNonFiniteNumber } from '../repair/find-non-finite-number.js';
import { type LenientJsonRepair, parseLenientJson } from '../repair/parse-lenient-json.js';
import { stripCodeFence } from '../repair/strip-code-fence.js';
import { answerCandidates } from './answer-candidates.js';
import { AnswerRepairs } from './answer-repairs.js';
import { acceptsString, answerTypes } from './answer-schema.js';
import { type AnswerCoercion, coerceAnswer } from './coerce-answer.js';
import { readAnswerValue } from './read-answer-value.js';

/** A final answer recovered by {@link parseWithSchema}: the value and every repair, in order. */
export interface SchemaAnswer {
  /** The value; it validates against the schema. */
  readonly value: unknown;
  /**
   * What was changed to get it, in order: `kind` or `kind at /json/pointer` (`code_fence`,
   * `extracted_from_prose`, `skipped_invalid_candidates`, `closed_truncated`,
   * `single_quoted_string at /name`, `unquoted_string at /city`, `coerced_to_number at /age`,
   * `matched_enum_case at /status`, `dropped_undeclared_key at /note`, ...). Empty when the text
   * was a valid answer as written.
   */
  readonly repairs: readonly string[];
}

/** Options of {@link parseWithSchema}. */
export interface ParseWithSchemaOptions {
  /**
   * Cross-type coercion. `'off'` (default): a value of another type than the schema asks (`123`
   * for a string, `"25"` for a number, `[1, 2]` for strings, one object for an array, an object
   * for a string, `12,111` for a number) is not recovered, so the caller's retry asks the model
   * again; repairs that keep the meaning (fences, prose, quotes, commas, truncation, enum case)
   * still apply. `'lenient'`: such values are converted and listed (`coerced_to_number at /age`,
   * `wrapped_in_array at /tags`, `removed_digit_grouping`, ...), as before 0.x of this option.
   */
  readonly coerce?: AnswerCoercion | undefined;
}

export type { AnswerCoercion };

/** The repair each rung of the ladder stands for (a `Map`: nothing is looked up on a prototype). */
const lenientRepairs: ReadonlyMap<LenientJsonRepair, string> = new Map([
  ['code_fence', 'code_fence'],
  ['slice', 'extracted_from_prose'],
  ['relaxed', 'relaxed_syntax'],
  ['closed', 'closed_truncated'],
]);

/**
 * Longest text given to {@link parseLenientJson} first. Its closing rung re-parses the text up to
 * 64 times, which costs seconds on a megabyte of adversarial nesting; longer answers go straight
 * to the one-pass reader, which covers the same repairs but the conservative object ladder's.
 */
const MAX_LADDER_TEXT = 100_000;
/**
 * Nesting past which `JSON.parse` is not even tried: V8 takes seconds to reject a megabyte of
 * `[`, and an answer nested this deep is not one a model meant (the reader refuses past 128).
 */
const MAX_NESTING = 512;
/** Enum members searched for in a bare-text answer at most. */
const MAX_ENUM_MEMBERS = 256;
/** Longest bare-text answer searched for an enum member (longer prose is not a safe recovery). */
const MAX_ENUM_TEXT = 4096;

/** Coerces `value`, validates it, and returns the answer with `prefix` repairs, or `undefined`. */
function settle(
  value: unknown,
  schema: JsonSchema,
  repairs: AnswerRepairs,
  policy: AnswerCoercion,
): SchemaAnswer | undefined {
  const coerced = coerceAnswer(value, schema, repairs, policy);
  // `1e999` parses as Infinity, which `integer` and `number` accept: no JSON answer means it.
  if (findNonFiniteNumber(coerced) !== undefined) return undefined;
  if (!createValidator(schema).test(coerced)) return undefined;
  return { value: coerced, repairs: repairs.list() };
}

/** Whether brackets outside double-quoted strings nest deeper than `limit` anywhere in `text`. One pass. */
function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (escaped) escaped = false;
      else if (code === 92) escaped = true;
      else if (code === 34) inString = false;
    } else if (code === 34) {
      inString = true;
    } else if (code === 123 || code === 91) {
      if (++depth > limit) return true;
    } else if ((code === 125 || code === 93) && depth > 0) {
      depth--;
    }
  }
  return false;
}

/** Whether the ladder's `repair` read the answer from its first character (so nothing came before). */
function readsFromTheStart(repair: LenientJsonRepair, text: string): boolean {
  if (repair === 'strict' || repair === 'code_fence') return true;
  if (repair !== 'relaxed') return false;
  const first = text.trimStart().charCodeAt(0);
  return first === 123 || first === 91;
}

function strictJson(text: string): { value: unknown; repair: LenientJsonRepair } | undefined {
  try {
    return { value: JSON.parse(text) as unknown, repair: 'strict' };
  } catch {
    return undefined;
  }
}

/** Whether `text` is a JSON number, literal (or Python's), object or array as a whole. */
function writtenAsJsonValue(text: string): boolean {
  if (/^(?:true|false|null)$/.test(text)) return true;
  if (/^[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$/.test(text)) return true;
  if (/^[-+]?[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?$/.test(text)) return true;
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(text.length - 1);
  return (first === 123 && last === 125) || (first === 91 && last === 93);
}

/**
 * The values a root string schema allows, when it lists them: its `enum`, its `const` (a literal
 * is a one-member enum), or those of a union of such members; `undefined` otherwise.
 */
function stringMembers(schema: JsonSchema, depth = 0): readonly unknown[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum;
  if ('const' in schema) return [schema.const];
  const union = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  // Unions nested past 32 levels (not something a schema writes) list nothing.
  if (union === undefined || union.length === 0 || depth > 32) return undefined;
  const members: unknown[] = [];
  for (const member of union) {
    if (typeof member !== 'object' || member === null) return undefined;
    const inner = stringMembers(member as JsonSchema, depth + 1);
    if (inner === undefined) return undefined;
    members.push(...inner);
  }
  return members;
}

/**
 * A root string enum (or const) answered without quotes: the member the text is, once the
 * punctuation, quotes and emphasis around it are dropped (`Positive.`, `"two"`, `**NEGATIVE**`),
 * spelled as declared or, when that names none, in any case. A member named once inside a short
 * sentence that does not hedge is taken too (`The answer is TWO`); a sentence that negates,
 * refuses or doubts (`not positive`, `I cannot tell whether it is positive`), or names two
 * members, is refused: a retry is the honest answer.
 */
function enumFromText(text: string, members: readonly unknown[]): string | undefined {
  if (members.length > MAX_ENUM_MEMBERS || text.length > MAX_ENUM_TEXT) return undefined;
  const word = text.replace(/^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu, '');
  if (word === '') return undefined;
  const strings = members.filter((member): member is string => typeof member === 'string');
  if (strings.includes(word)) return word;
  // A member that itself starts or ends with punctuation is compared with the text as written.
  const trimmed = text.trim();
  if (strings.includes(trimmed)) return trimmed;
  const lowered = word.toLowerCase();
  const anyCase = strings.filter((member) => member.toLowerCase() === lowered);
  if (anyCase.length === 1) return anyCase[0];
  return memberNamedInSentence(text, strings);
}

/**
 * Words that make a sentence naming a member not an answer: negation, refusal, doubt, a choice
 * left open (`not positive`, `I cannot tell whether it is positive`, `maybe yes`).
 */
const HEDGES =
  /\b(?:not|no|never|neither|nor|none|cannot|can't|won't|isn't|aren't|wasn't|weren't|don't|doesn't|didn't|unsure|uncertain|unclear|unknown|whether|if|refuse|refuses|unable|maybe|perhaps|possibly|might|could|either|or|instead|rather|unless|except|than)\b|n't\b/iu;

/**
 * A member named once in a short sentence with no hedge (`The answer is TWO`, `"two" is the
 * answer`): taken when exactly one member is named — quoted or emphasised first, then as
 * declared, then in any case. Anything that hedges, or names two members, is refused.
 */
function memberNamedInSentence(text: string, members: readonly string[]): string | undefined {
  if (HEDGES.test(text)) return undefined;
  const named = (member: string, flags: string, around = ['', '']) => {
    const escaped = member.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(`(?<![\\p{L}\\p{N}_])${around[0]}${escaped}${around[1]}(?![\\p{L}\\p{N}_])`, `u${flags}`).test(
      text,
    );
  };
  const candidates = members.filter((member) => /[\p{L}\p{N}]/u.test(member));
  const quoted = candidates.filter((member) => named(member, 'i', ['["“\'*`]', '["”\'*`]']));
  if (quoted.length === 1) return quoted[0];
  const exact = candidates.filter((member) => named(member, ''));
  if (exact.length === 1) return exact[0];
  const anyCase = candidates.filter((member) => named(member, 'i'));
  return exact.length === 0 && anyCase.length === 1 ? anyCase[0] : undefined;
}

/**
 * Recovers a final structured answer (never tool arguments: those fail closed) from a model's
 * text, guided by its JSON Schema, and validates it with ajv. Tried in order, the first value
 * that validates wins:
 * 1. {@link parseLenientJson} (strict JSON, one code fence, the slice from the first bracket,
 *    the conservative object ladder; for texts over 100 000 characters only `JSON.parse`), then
 *    fitted to the schema; only a reading that starts at the answer's first character is taken
 *    here (strict, a whole fence, a relaxed `{…}`): its slice and its closing of a cut answer
 *    are tried last, after step 2;
 * 2. the whole text, then the fenced blocks and the top-level `{…}`/`[…]` spans outside code in
 *    the order they start, then the spans inside `` `inline code` `` or a fence (examples the
 *    answer quotes): a complete candidate that comes first outside code wins over an example
 *    quoted after it. The first that validates is taken; earlier ones that did not are reported
 *    as `skipped_invalid_candidates`. Each is read
 *    leniently with the schema as a guide: single-quoted and unquoted strings only where the
 *    schema says string, `` `backtick` ``, `"""triple-quoted"""` and fenced values (info string
 *    dropped, body dedented, brackets inside are content), unquoted keys, comments, extra or
 *    missing commas, Python literals, inner quotes that do not end a value, a missing opening or
 *    closing quote, stray words and ellipses, mismatched closers, an answer cut at the end closed
 *    (a cut string keeps its trailing spaces; a never-closed object ends where prose starts); a
 *    key written twice keeps its first value (`dropped_duplicate_key at /key`);
 * 3. for a root that accepts a string: the bare text (fence removed), or for a string enum or
 *    const the member the text is once punctuation, quotes and emphasis around it are dropped
 *    (or named once in a sentence that does not negate, refuse or doubt it; listed as
 *    `enum_from_text`).
 *
 * Fitting to the schema always matches enum values case-insensitively, picks the union member
 * the value validates against, and drops undeclared keys only under `additionalProperties:
 * false`. Cross-type coercion (numeric and boolean strings, numbers to strings, digit grouping,
 * one value wrapped into a one-item array and back, an object's text for a string) happens only
 * with `coerce: 'lenient'`; by default such an answer is refused.
 *
 * Returns `undefined` when nothing validates, so a retry policy can ask the model again. Time is
 * linear in the text (a bounded number of candidates, each read in one pass).
 *
 * @throws {InvalidInputError} when `text` is not a string, or `options.coerce` is neither `'off'`
 * nor `'lenient'`.
 * @throws {SchemaCompileFailure} when ajv cannot compile `schema`.
 */
export function parseWithSchema(
  text: string,
  schema: JsonSchema,
  options: ParseWithSchemaOptions = {},
): SchemaAnswer | undefined {
  if (typeof text !== 'string') {
    throw new InvalidInputError({
      entryPoint: 'parseWithSchema',
      reason: `the answer must be a string, got ${text === null ? 'null' : typeof text}`,
    });
  }
  const policy = options.coerce ?? 'off';
  if (policy !== 'off' && policy !== 'lenient') {
    throw new InvalidInputError({
      entryPoint: 'parseWithSchema',
      reason: `\`coerce\` must be 'off' or 'lenient', got ${String(policy)}`,
    });
  }
  createValidator(schema);
  const lenient = nestsDeeperThan(text, MAX_NESTING)
    ? undefined
    : text.length <= MAX_LADDER_TEXT
      ? parseLenientJson(text)
      : strictJson(text);
  let deferred: SchemaAnswer | undefined;
  if (lenient !== undefined) {
    const repairs = new AnswerRepairs();
    const label = lenientRepairs.get(lenient.repair);
    if (label !== undefined) repairs.add(label);
    const settled = settle(lenient.value, schema, repairs, policy);
    // The ladder closes a cut answer by dropping up to 64 trailing characters, which can lose a
    // value the reader below keeps (`{a: Ada` → `{}`): its closing is the last resort. Its slice
    // (and a relaxed reading of text that does not start with the value) takes the first bracket
    // even inside `inline code`: the candidates below are ordered by structure, so it waits too.
    // `JSON.parse` rounds an integer past 2^53 silently; the reader keeps its text where a string
    // may stand and refuses it where only a number may, so a text with such digits is left to it.
    const exact = !/[0-9]{16}/.test(text);
    if (settled !== undefined && exact && readsFromTheStart(lenient.repair, text)) return settled;
    deferred = exact ? settled : undefined;
  }
  // Only leading whitespace goes: an answer cut inside a string keeps its trailing spaces.
  const whole = text.trimStart();
  let skipped = 0;
  const candidates = [{ text: whole, origin: 'whole' as const }, ...answerCandidates(text)];
  for (const candidate of candidates) {
    const repairs = new AnswerRepairs();
    if (candidate.origin === 'fence') repairs.add('code_fence');
    if (candidate.origin === 'span') repairs.add('extracted_from_prose');
    if (skipped > 0) repairs.add(`skipped_invalid_candidates (${skipped})`);
    const read = readAnswerValue(candidate.text.trimStart(), schema, repairs, policy === 'lenient');
    if (read === undefined) continue;
    if (read.truncated) repairs.add('closed_truncated');
    const settled = settle(read.value, schema, repairs, policy);
    if (settled !== undefined) return settled;
    skipped += 1;
  }
  if (deferred !== undefined) return deferred;
  if (!acceptsString(schema, schema)) return undefined;
  const bare = stripCodeFence(whole.trimEnd());
  const repairs = new AnswerRepairs();
  if (bare !== whole) repairs.add('code_fence');
  // A number, literal, object or array written whole is that value, not its text: another type.
  if (policy !== 'lenient' && writtenAsJsonValue(bare)) return undefined;
  const types = answerTypes(schema, schema) ?? [];
  const members = stringMembers(schema);
  if (members !== undefined && types.every((type) => type === 'string')) {
    const named = enumFromText(bare, members);
    if (named === undefined) return undefined;
    repairs.add('unquoted_string');
    if (named.toLowerCase() !== bare.toLowerCase()) repairs.add('enum_from_text');
    else if (named !== bare) repairs.add('matched_enum_case');
    return settle(named, schema, repairs, policy);
  }
  if (bare === '') return undefined;
  repairs.add('unquoted_string');
  return settle(bare, schema, repairs, policy);
}
