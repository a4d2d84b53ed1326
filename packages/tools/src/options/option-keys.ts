import { InvalidInputError } from '../errors/invalid-input-error.js';

/**
 * The members of `TOptions` missing from `TKeys`; `never` when the list is complete. A key list
 * built with {@link optionKeys} must leave this `never`, so an option type cannot gain a member
 * the run-time check does not know.
 */
export type MissingOptionKeys<TOptions, TKeys extends readonly PropertyKey[]> = Exclude<keyof TOptions, TKeys[number]>;

/** Compile-time marker: the key list passed to {@link optionKeys} misses members of the option type. */
export interface OptionKeyListIsIncomplete<TMissing> {
  readonly 'the key list misses these members of the option type': TMissing;
}

/**
 * The keys an options object may have, with what other libraries call some of them (a known
 * mistake maps to the replacement, written as the user should write it). Built with
 * {@link optionKeys}; checked with {@link checkOptionKeys}.
 */
export interface OptionKeys {
  readonly keys: ReadonlySet<string>;
  readonly mistakes: Readonly<Record<string, string>>;
}

/**
 * Declares every key of the option type `TOptions`, type-checked both ways: each listed key must be
 * a member (`satisfies`-style), and a member left out fails to compile
 * ({@link OptionKeyListIsIncomplete}). Curried so the option type is explicit and the keys inferred:
 *
 * ```ts
 * const HARNESS_KEYS = optionKeys<AgentHarnessOptions>()(['model', 'tools'], { maxSteps: 'limits.maxModelCalls' });
 * ```
 *
 * `mistakes` maps names users bring from other libraries (the AI SDK's `maxSteps`, `baseUrl`) to
 * what to write instead; a key that is also a real member is ignored there.
 */
export function optionKeys<TOptions>(): <const TKeys extends readonly (keyof TOptions & string)[]>(
  keys: TKeys &
    ([MissingOptionKeys<TOptions, TKeys>] extends [never]
      ? unknown
      : OptionKeyListIsIncomplete<MissingOptionKeys<TOptions, TKeys>>),
  mistakes?: Readonly<Record<string, string>>,
) => OptionKeys {
  return (keys, mistakes = {}) => ({ keys: new Set<string>(keys), mistakes });
}

/** Levenshtein distance, or 3 when it is surely more than 2. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The suggestion for an unknown key: a known mistake, else the closest known key within two edits
 * (case-insensitive), else `undefined`.
 */
export function suggestOptionKey(key: string, known: OptionKeys): string | undefined {
  if (Object.hasOwn(known.mistakes, key)) return known.mistakes[key];
  let best: string | undefined;
  let bestDistance = 3;
  const lower = key.toLowerCase();
  for (const candidate of known.keys) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** How {@link checkOptionKeys} words its error. */
export interface CheckOptionKeysOptions {
  /** Written before the key (`options.policy.`), so the message names the key as the user wrote it. */
  readonly prefix?: string | undefined;
  /** Opens the reason (`tool \`search\` has an`); default none (`unknown option …`). */
  readonly subject?: string | undefined;
}

/**
 * Refuses an options object with a key its type does not have: a mistyped or foreign option
 * (`needsApproval`, `maxSteps`) would otherwise be ignored without a word. Own enumerable string
 * keys only; a non-object `value` is left to the caller's shape check. One pass over the keys, so
 * call it once per options object (per harness, per run), not per model or tool call.
 * @throws {InvalidInputError} naming the key (with `prefix`) and, when one is found, the key or
 * replacement it probably meant.
 */
export function checkOptionKeys(
  entryPoint: string,
  value: unknown,
  known: OptionKeys,
  options: CheckOptionKeysOptions = {},
): void {
  if (typeof value !== 'object' || value === null) return;
  for (const key in value) {
    if (!Object.hasOwn(value, key) || known.keys.has(key)) continue;
    const suggestion = suggestOptionKey(key, known);
    const subject = options.subject === undefined ? '' : `${options.subject} `;
    throw new InvalidInputError({
      entryPoint,
      reason: `${subject}unknown option \`${options.prefix ?? ''}${key}\`${suggestion === undefined ? '' : `; did you mean \`${suggestion}\`?`}`,
    });
  }
}
