import { needsIdna } from './idn-formats.js';
import { patternProgramSize } from './linear-regexp.js';

/**
 * What checking one string against a schema node's `format` and `pattern` costs, in visits (a
 * visit is about 0.5 µs: the 2,000,000-visit cap of a run is about a second), on top of the
 * length / 16 every string reader is charged: `base + min(length, maxChars) × perChar`.
 * @internal
 */
export interface StringReadCost {
  readonly base: number;
  readonly perChar: number;
  readonly maxChars: number;
  /** When set, strings it refuses take a linear path and cost only length / 16 (see {@link needsIdna}). */
  readonly onlyIf?: (value: string) => boolean;
}

/**
 * Character × program-instruction steps of RE2JS's matcher per visit. Its NFA (what runs when
 * the lazy DFA gives up) steps every live instruction for each character: measured on Node 20,
 * `^[ab]*a[ab]{k}$` on random `a`/`b` strings cost 100 ns per (character × instruction) at 17
 * instructions, 76 ns at 107 and 21 ns at 1,006, and through `validate` 110 to 125 ns at 107
 * (20,000 characters: 243 to 278 ms); so 4 steps (about 500 ns at the worst rate) a visit.
 * Ordinary patterns run on the DFA, 10 to 100 times faster than charged.
 */
export const PATTERN_STEPS_PER_VISIT = 4;

/** No cap on the characters charged. */
const ALL = Number.MAX_SAFE_INTEGER;

/**
 * Per-format costs beyond length / 16, measured once (Node 20, one core; the worst of inputs
 * shaped to stress each check: repeated `:`, letters, `é`, `%41`, `a.`, `a-`, digits, `/`, `{`,
 * long fractions; 2,000 to 80,000 characters, and short valid values for the per-call part).
 * Formats not listed cost under 0.5 µs a call and under 7 ns a character: length / 16 covers them.
 * - `idn-hostname`: 148 µs for an 11-character Arabic name (UTS #46 mapping, punycode, bidi and
 *   contextual rules), 1.65 µs a character at 1,000 `é`s; past 1,024 units it is refused unread.
 *   ASCII without an `xn--` label takes a linear LDH scan instead (0.2 µs for `example.com`), so
 *   only names that need IDNA are charged this (`onlyIf`), in these four formats.
 * - `idn-email`: its domain is an `idn-hostname` (at most 1,024 units) after a local part of at
 *   most 64 octets (longer ones are refused after a linear byte count).
 * - `iri`, `iri-reference`: RFC 3987's grammar on RE2JS: 7.7 µs a call, up to 1.67 µs a
 *   character ('http://' then colons).
 * - `regex`: compiling with `RegExp` is 8.9 µs for a short pattern, 3.5 ns a character.
 * - `url` (formats.ts): up to 40 ns a character (dotted names of 1 MB).
 * - `uri`, `uri-reference`, `uri-template` (formats.ts): the same grammar engine as `iri`.
 * - `email`, `hostname` (formats.ts): an `xn--` label takes the `idn-hostname` check; a host name
 *   has at most 253 characters (longer ones are refused after a linear scan), up to four such labels.
 * - `date-time`, `iso-date-time`, `byte`: up to 1.8 µs a call.
 */
const FORMAT_COSTS: Readonly<Record<string, StringReadCost>> = {
  'idn-hostname': { base: 300, perChar: 4, maxChars: 1024, onlyIf: needsIdna },
  'idn-email': { base: 300, perChar: 4, maxChars: 1024 + 65, onlyIf: needsIdna },
  email: { base: 300, perChar: 4, maxChars: 1024 + 65, onlyIf: needsIdna },
  hostname: { base: 300, perChar: 8, maxChars: 253, onlyIf: needsIdna },
  iri: { base: 16, perChar: 4, maxChars: ALL },
  uri: { base: 16, perChar: 4, maxChars: ALL },
  'uri-reference': { base: 16, perChar: 4, maxChars: ALL },
  'uri-template': { base: 16, perChar: 4, maxChars: ALL },
  'iri-reference': { base: 16, perChar: 4, maxChars: ALL },
  regex: { base: 18, perChar: 0, maxChars: ALL },
  url: { base: 1, perChar: 1 / 16, maxChars: ALL },
  'date-time': { base: 4, perChar: 0, maxChars: ALL },
  'iso-date-time': { base: 4, perChar: 0, maxChars: ALL },
  byte: { base: 3, perChar: 0, maxChars: ALL },
};

/**
 * The cost of checking a string against `node`'s `format` and `pattern`, or undefined when
 * length / 16 already covers it. A `pattern` costs its RE2JS program's size per character
 * ({@link PATTERN_STEPS_PER_VISIT} steps a visit): counted repetitions multiply it, so
 * `^[ab]*a[ab]{999}$` is about 200 visits a character. @internal
 */
export function stringReadCost(node: Readonly<Record<string, unknown>>): StringReadCost | undefined {
  const format = typeof node.format === 'string' && Object.hasOwn(FORMAT_COSTS, node.format) ? node.format : undefined;
  const formatCost = format === undefined ? undefined : FORMAT_COSTS[format];
  if (typeof node.pattern !== 'string') return formatCost;
  const perChar = patternProgramSize(node.pattern) / PATTERN_STEPS_PER_VISIT;
  if (formatCost === undefined) return { base: 1, perChar, maxChars: ALL };
  // The format's per-character part is capped, the pattern's is not: charge both in full.
  return { base: 1 + formatCost.base, perChar: perChar + formatCost.perChar, maxChars: ALL };
}

/**
 * The visits checking `value` against `node`'s `format` and `pattern` costs beyond length / 16
 * (see {@link stringReadCost}), as a function the compiled code calls with each string it reads;
 * undefined when nothing is charged beyond length / 16. @internal
 */
export function stringReadCharge(node: Readonly<Record<string, unknown>>): ((value: string) => number) | undefined {
  const cost = stringReadCost(node);
  if (cost === undefined) return undefined;
  const { base, perChar, maxChars, onlyIf } = cost;
  const full = (value: string): number => base + Math.ceil(Math.min(value.length, maxChars) * perChar);
  return onlyIf === undefined ? full : (value) => (onlyIf(value) ? full(value) : 0);
}

/**
 * The weight `node` adds to the schema weight the visit budget is multiplied by, so a value the
 * node can read within its size (each `nodeUnit` characters weigh one unit, and the budget gives
 * `visitsPerPair` visits per unit and schema weight) is not refused for its `format` or `pattern`
 * alone: the larger of the per-call cost and `nodeUnit` characters' cost, over `visitsPerPair`.
 * @internal
 */
export function stringReadWeight(
  node: Readonly<Record<string, unknown>>,
  nodeUnit: number,
  visitsPerPair: number,
): number {
  const cost = stringReadCost(node);
  if (cost === undefined) return 0;
  return Math.ceil(Math.max(cost.base, nodeUnit * cost.perChar) / visitsPerPair);
}

/**
 * What one `patternProperties` pattern costs per unit of an object's weight (each key's
 * characters are matched: {@link PATTERN_STEPS_PER_VISIT} program steps a visit), at least 1.
 * @internal
 */
export function keyPatternFactor(pattern: string, nodeUnit: number): number {
  return Math.max(1, Math.ceil((nodeUnit * patternProgramSize(pattern)) / PATTERN_STEPS_PER_VISIT));
}
