import { RE2JS } from 're2js';

/** What ajv needs from a compiled pattern. */
interface RegExpLike {
  test(input: string): boolean;
  toString(): string;
}

const compiled = new Map<string, RegExpLike>();
const maxCached = 4096;

/**
 * Compiles a JSON Schema `pattern` (ECMA-262 syntax) with RE2JS, a linear-time engine: matching
 * time grows with the input's length only, whatever the pattern, so a third party's
 * `^(a+)+$` cannot stall the event loop. Patterns RE2 cannot run in linear time (lookaround,
 * backreferences) throw; callers turn that into a `SchemaCompileFailure` naming the pattern.
 *
 * Differences from JavaScript's engine that remain: `\s`, `\w`, `\d` and `\b` are ASCII-only in RE2.
 *
 * @internal
 */
export function compileLinearPattern(pattern: string): RegExpLike {
  let regExp = compiled.get(pattern);
  if (regExp) return regExp;
  const re2 = RE2JS.compile(RE2JS.translateRegExp(pattern));
  // ajv keys its per-schema cache of patterns by `toString()`: it must be unique per pattern.
  const key = `re2:${JSON.stringify(pattern)}`;
  regExp = { test: (input: string) => re2.test(input), toString: () => key };
  if (compiled.size >= maxCached) compiled.clear();
  compiled.set(pattern, regExp);
  return regExp;
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
    return `pattern ${JSON.stringify(pattern)} cannot run in linear time (${reason}); rewrite it without lookaround or backreferences`;
  }
}
