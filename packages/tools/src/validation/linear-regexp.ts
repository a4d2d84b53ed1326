import { RE2JS } from 're2js';

/** What ajv needs from a compiled pattern, and the size of its program (see {@link patternProgramSize}). */
interface RegExpLike {
  test(input: string): boolean;
  toString(): string;
  readonly programSize: number;
}

const compiled = new Map<string, RegExpLike>();
const maxCached = 4096;

/** Why a pattern cannot be compiled (the message names the pattern). */
class PatternProblem extends Error {}

/**
 * ECMA-262's `\s` (WhiteSpace and LineTerminator: tab, VT, FF, space, NBSP, ZWNBSP, every Zs
 * space and LF, CR, LS, PS) as inclusive code point ranges. RE2's `\s` is `[\t\n\f\r ]` only.
 */
const ECMA_SPACE: readonly (readonly [number, number])[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];

const MAX_CODE_POINT = 0x10ffff;
const hex = (code: number): string => `\\x{${code.toString(16)}}`;
const ranges = (list: readonly (readonly [number, number])[]): string =>
  list.map(([from, to]) => (from === to ? hex(from) : `${hex(from)}-${hex(to)}`)).join('');

/** The code points outside `list` (sorted, disjoint ranges) as ranges. */
function complement(list: readonly (readonly [number, number])[]): [number, number][] {
  const out: [number, number][] = [];
  let next = 0;
  for (const [from, to] of list) {
    if (from > next) out.push([next, from - 1]);
    next = to + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

/** Class contents (without brackets) for `\s` and `\S`, usable inside and outside a class. */
const SPACE_ITEMS = ranges(ECMA_SPACE);
const NON_SPACE_ITEMS = ranges(complement(ECMA_SPACE));
/** ECMA-262's `.` without the `s` flag: anything but a line terminator. */
const ECMA_DOT = `[^${ranges([
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
])}]`;

/** `\uXXXX` at `index` as a code unit, or undefined. */
function escapedUnit(pattern: string, index: number): number | undefined {
  if (pattern[index] !== '\\' || pattern[index + 1] !== 'u') return undefined;
  const digits = pattern.slice(index + 2, index + 6);
  return /^[0-9A-Fa-f]{4}$/.test(digits) ? Number.parseInt(digits, 16) : undefined;
}

/** The code point of an escaped surrogate pair (`\uD83D\uDE00`) at `index`, or undefined. */
function escapedPair(pattern: string, index: number): number | undefined {
  const high = escapedUnit(pattern, index);
  if (high === undefined || high < 0xd800 || high > 0xdbff) return undefined;
  const low = escapedUnit(pattern, index + 6);
  if (low === undefined || low < 0xdc00 || low > 0xdfff) return undefined;
  return 0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00);
}

/**
 * ECMA-262's long General_Category names (and `General_Category=`/`gc=`, `Script=`/`sc=` forms)
 * as RE2 spells them: RE2 knows the short categories and the scripts by their long names only.
 */
const CATEGORY_ALIASES: Readonly<Record<string, string>> = {
  Letter: 'L',
  Cased_Letter: 'LC',
  Uppercase_Letter: 'Lu',
  Lowercase_Letter: 'Ll',
  Titlecase_Letter: 'Lt',
  Modifier_Letter: 'Lm',
  Other_Letter: 'Lo',
  Mark: 'M',
  Combining_Mark: 'M',
  Nonspacing_Mark: 'Mn',
  Spacing_Mark: 'Mc',
  Enclosing_Mark: 'Me',
  Number: 'N',
  Decimal_Number: 'Nd',
  digit: 'Nd',
  Letter_Number: 'Nl',
  Other_Number: 'No',
  Punctuation: 'P',
  punct: 'P',
  Connector_Punctuation: 'Pc',
  Dash_Punctuation: 'Pd',
  Open_Punctuation: 'Ps',
  Close_Punctuation: 'Pe',
  Initial_Punctuation: 'Pi',
  Final_Punctuation: 'Pf',
  Other_Punctuation: 'Po',
  Symbol: 'S',
  Math_Symbol: 'Sm',
  Currency_Symbol: 'Sc',
  Modifier_Symbol: 'Sk',
  Other_Symbol: 'So',
  Separator: 'Z',
  Space_Separator: 'Zs',
  Line_Separator: 'Zl',
  Paragraph_Separator: 'Zp',
  Other: 'C',
  Control: 'Cc',
  cntrl: 'Cc',
  Format: 'Cf',
  Surrogate: 'Cs',
  Private_Use: 'Co',
  Unassigned: 'Cn',
};

/** The name RE2 knows for the Unicode property `name` of `\p{name}` (unchanged when it has none). */
function shortPropertyName(name: string): string {
  const equals = name.indexOf('=');
  if (equals >= 0) {
    const key = name.slice(0, equals);
    const value = name.slice(equals + 1);
    if (key === 'General_Category' || key === 'gc')
      return Object.hasOwn(CATEGORY_ALIASES, value) ? (CATEGORY_ALIASES[value] as string) : value;
    // Script_Extensions (scx) is a different set; RE2 lacks it, so it stays and is refused.
    if (key === 'Script' || key === 'sc') return value;
    return name;
  }
  return Object.hasOwn(CATEGORY_ALIASES, name) ? (CATEGORY_ALIASES[name] as string) : name;
}

/**
 * Rewrites an ECMA-262 pattern (already known to compile with the `u` flag) so RE2 gives it the
 * same meaning: `\s`/`\S` become ECMA's whitespace set (RE2's is ASCII), `.` excludes every line
 * terminator (RE2's only `\n`), a `[` inside a class is a literal (RE2 reads `[[:alpha:]]` as a
 * POSIX class), `[\b]` is a backspace. `\d`, `\w`, `\b`, `^` and `$` already agree (ASCII, and
 * `$` only at the end of the input). Backreferences (`\1`, `\k<name>`) are refused: RE2 cannot
 * run them. Everything else is left to RE2JS's own translation (`\u{...}`, `\cX`, `[^]`, named groups).
 */
function toRe2Semantics(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index] as string;
    if (char === '\\') {
      const next = pattern[index + 1] ?? '';
      const pair = escapedPair(pattern, index);
      if (pair !== undefined) {
        // `\uD83D\uDE00` is one code point with the `u` flag; RE2 would read two surrogates.
        out += hex(pair);
        index += 11;
        continue;
      }
      const property = next === 'p' || next === 'P' ? /^\{([^}]*)\}/.exec(pattern.slice(index + 2)) : null;
      if (property) {
        out += `\\${next}{${shortPropertyName(property[1] as string)}}`;
        index += 1 + property[0].length;
        continue;
      }
      index += 1;
      if (next === 's') out += inClass ? SPACE_ITEMS : `[${SPACE_ITEMS}]`;
      else if (next === 'S') out += inClass ? NON_SPACE_ITEMS : `[${NON_SPACE_ITEMS}]`;
      else if (next === 'b' && inClass) out += hex(8);
      else if (next === 'k' || (next >= '1' && next <= '9'))
        throw new PatternProblem('backreferences cannot run in linear time');
      else out += `\\${next}`;
    } else if (inClass) {
      if (char === ']') inClass = false;
      out += char === '[' ? '\\[' : char;
    } else if (char === '[') {
      inClass = true;
      out += char;
      // `[^]` and `[]` (RE2JS translates both) and a leading `^`: the next `]` may close the class.
      if (pattern[index + 1] === '^') {
        out += '^';
        index += 1;
      }
    } else out += char === '.' ? ECMA_DOT : char;
  }
  return out;
}

/**
 * Compiles a JSON Schema `pattern` (ECMA-262 syntax, as JavaScript reads it with the `u` flag)
 * with RE2JS, a linear-time engine: matching time grows with the input's length only, whatever
 * the pattern, so a third party's `^(a+)+$` cannot stall the event loop. The pattern is first
 * rewritten to keep ECMA-262's meaning on RE2 (see {@link toRe2Semantics}). A pattern JavaScript
 * refuses (`(?i)`, `\Q`, `a{,3}` in `u` mode) throws; so does one RE2 cannot run in linear time
 * (lookaround, backreferences). Callers turn that into a `SchemaCompileFailure` naming the pattern.
 *
 * An escaped surrogate pair (`\ud83d\ude00`) is the one code point it names, in a class too, and
 * long Unicode property names (`\p{Letter}`, `\p{Script=Greek}`) become the ones RE2 knows.
 *
 * @internal
 */
export function compileLinearPattern(pattern: string): RegExpLike {
  let regExp = compiled.get(pattern);
  if (regExp) return regExp;
  try {
    new RegExp(pattern, 'u');
  } catch (error) {
    throw new PatternProblem(
      `is not an ECMA-262 regular expression (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  let re2: RE2JS;
  try {
    re2 = RE2JS.compile(RE2JS.translateRegExp(toRe2Semantics(pattern)));
  } catch (error) {
    if (error instanceof PatternProblem) throw new PatternProblem(`cannot run in linear time (${error.message})`);
    const reason = error instanceof Error ? error.message : String(error);
    throw new PatternProblem(`cannot run in linear time (${reason}); rewrite it without lookaround or backreferences`);
  }
  // ajv keys its per-schema cache of patterns by `toString()`: it must be unique per pattern.
  const key = `re2:${JSON.stringify(pattern)}`;
  regExp = { test: (input: string) => re2.test(input), toString: () => key, programSize: programSizeOf(re2, pattern) };
  if (compiled.size >= maxCached) compiled.clear();
  compiled.set(pattern, regExp);
  return regExp;
}

/**
 * The instructions of RE2JS's compiled program (what its NFA steps through for each input
 * character: counted repetitions are expanded, so `[ab]{999}` is about 1,000); the pattern's
 * length when RE2JS does not expose it.
 */
function programSizeOf(re2: RE2JS, pattern: string): number {
  const program = (re2 as unknown as { re2Input?: { prog?: { inst?: unknown[] } } }).re2Input?.prog?.inst;
  return Math.max(1, Array.isArray(program) ? program.length : pattern.length);
}

/**
 * The size of the linear-time program of `pattern` (see {@link compileLinearPattern}): matching a
 * string costs up to its length times this. 1 when the pattern does not compile (it is refused).
 * @internal
 */
export function patternProgramSize(pattern: string): number {
  try {
    return compileLinearPattern(pattern).programSize;
  } catch {
    return 1;
  }
}

/**
 * ajv's `code.regExp` engine: every `pattern` and `patternProperties` key runs through RE2JS.
 *
 * @internal
 */
export const linearRegExpEngine = Object.assign(
  (pattern: string, _flags: string): RegExpLike => {
    try {
      return compileLinearPattern(pattern);
    } catch {
      throw new Error(linearPatternProblem(pattern));
    }
  },
  { code: 'require("re2js").RE2JS' },
);

/** Describes why `pattern` cannot be compiled, or `undefined` when it can. @internal */
export function linearPatternProblem(pattern: string): string | undefined {
  try {
    compileLinearPattern(pattern);
    return undefined;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return `pattern ${JSON.stringify(pattern)} ${reason}`;
  }
}
