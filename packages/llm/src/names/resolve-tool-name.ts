import { boundedLevenshtein } from './bounded-levenshtein.js';
import { normalizeToolName } from './normalize-tool-name.js';

/** How {@link resolveToolNameDetailed} matched a name. */
export type ToolNameStatus = 'exact' | 'repaired' | 'unknown';

/** A resolved tool name and how it was found. */
export interface ResolvedToolName {
  /** A known tool's name, or the junk-trimmed input when no tool matched. */
  readonly name: string;
  readonly status: ToolNameStatus;
}

const NAMESPACE_PREFIXES = ['functions.', 'functions/', 'tools.', 'tools/', 'tool.'];
const CLASS_SUFFIXES = ['_tool', '-tool', 'Tool', 'tool'];

function isJunk(code: number): boolean {
  return (
    code === 34 || // "
    code === 39 || // '
    code === 60 || // <
    code === 62 || // >
    code === 40 || // (
    code === 41 || // )
    code === 10 || // newline
    code === 13 ||
    code === 58 || // :
    code === 61 || // =
    code === 123 || // {
    code === 91 // [
  );
}

/**
 * Cuts leaked syntax off a tool name: the name ends at the first `"`, `'`, `<`, `>`, `(`, `)`,
 * newline, `:`, `=`, `{` or `[` (`terminal" parameter="command"` → `terminal`, `read_file(` →
 * `read_file`, `lookup:0` → `lookup`). Surrounding whitespace and quotes wrapping the whole name are
 * removed first. When nothing would be left, the whitespace-trimmed input is returned.
 */
export function trimToolNameJunk(raw: string): string {
  const trimmed = raw.trim();
  let start = 0;
  while (start < trimmed.length && (trimmed.charCodeAt(start) === 34 || trimmed.charCodeAt(start) === 39)) start++;
  let end = start;
  while (end < trimmed.length && !isJunk(trimmed.charCodeAt(end))) end++;
  const name = trimmed.slice(start, end).trim();
  return name === '' ? trimmed : name;
}

function dropNamespace(name: string): string {
  const lower = name.slice(0, 10).toLowerCase();
  const prefix = NAMESPACE_PREFIXES.find((candidate) => lower.startsWith(candidate));
  return prefix === undefined || prefix.length === name.length ? name : name.slice(prefix.length);
}

function stripClassSuffix(name: string): string | undefined {
  const suffix = CLASS_SUFFIXES.find((candidate) => name.endsWith(candidate) && name.length > candidate.length);
  return suffix === undefined ? undefined : name.slice(0, -suffix.length);
}

type Lookup = { kind: 'none' } | { kind: 'ambiguous' } | { kind: 'found'; name: string };

/** Known names grouped by their normalized form. */
function indexKnown(known: readonly string[]): Map<string, Set<string>> {
  const index = new Map<string, Set<string>>();
  for (const name of known) {
    const key = normalizeToolName(name);
    let names = index.get(key);
    if (names === undefined) {
      names = new Set();
      index.set(key, names);
    }
    names.add(name);
  }
  return index;
}

function lookupNormalized(index: Map<string, Set<string>>, needle: string): Lookup {
  const names = index.get(needle);
  if (names === undefined) return { kind: 'none' };
  if (names.size > 1) return { kind: 'ambiguous' };
  const [only] = names;
  return only === undefined ? { kind: 'none' } : { kind: 'found', name: only };
}

function lookupNearest(index: Map<string, Set<string>>, needle: string): Lookup {
  if (needle.length < 4) return { kind: 'none' };
  const budget = Math.min(2, Math.floor(needle.length / 3));
  let best = budget + 1;
  let matches: string[] = [];
  for (const [key, names] of index) {
    const distance = boundedLevenshtein(needle, key, Math.min(budget, best));
    if (distance > budget || distance > best) continue;
    if (distance < best) {
      best = distance;
      matches = [];
    }
    matches.push(...names);
  }
  if (matches.length === 0) return { kind: 'none' };
  const [only] = matches;
  return matches.length > 1 || only === undefined ? { kind: 'ambiguous' } : { kind: 'found', name: only };
}

/**
 * Resolves a tool name a model wrote to one of the `known` names, reporting how. Stops at the first
 * step that matches:
 * 1. exact match (`exact`);
 * 2. the junk-trimmed name ({@link trimToolNameJunk});
 * 3. without a namespace prefix (`functions.`, `functions/`, `tools.`, `tools/`, `tool.`);
 * 4. normalized match (case, `-`/space/`.`/`/` separators, camelCase: `Read File`, `ReadFile` →
 *    `read_file`);
 * 5. after stripping a class suffix (`_tool`, `-tool`, `Tool`, `tool`; up to twice) and normalizing;
 * 6. a Levenshtein match on the normalized name (at least 4 characters; distance at most
 *    min(2, floor(length / 3))).
 *
 * Every step must single out one known tool: two known names that normalize alike, or two at the
 * same best edit distance, are ambiguous, and an ambiguous step ends the search with `unknown`, so
 * a name is never guessed and never invented. With no match, or with an empty `known` list, the
 * result is the junk-trimmed name with status `unknown` (compare `name` with `raw` to see whether
 * junk was cut). Linear in the input; a megabyte-long name costs one scan.
 */
export function resolveToolNameDetailed(raw: string, known: readonly string[]): ResolvedToolName {
  const knownNames = new Set(known);
  if (knownNames.has(raw)) return { name: raw, status: 'exact' };
  const trimmed = trimToolNameJunk(raw);
  const unknown: ResolvedToolName = { name: trimmed, status: 'unknown' };
  if (knownNames.size === 0) return unknown;
  if (knownNames.has(trimmed)) return { name: trimmed, status: 'repaired' };
  const base = dropNamespace(trimmed);
  if (knownNames.has(base)) return { name: base, status: 'repaired' };

  const index = indexKnown(known);
  let needle = normalizeToolName(base);
  let lookup = lookupNormalized(index, needle);
  let stripped = base;
  for (let round = 0; lookup.kind === 'none' && round < 2; round++) {
    const next = stripClassSuffix(stripped);
    if (next === undefined) break;
    stripped = next;
    needle = normalizeToolName(stripped);
    lookup = lookupNormalized(index, needle);
  }
  if (lookup.kind === 'none') lookup = lookupNearest(index, needle);
  return lookup.kind === 'found' ? { name: lookup.name, status: 'repaired' } : unknown;
}

/**
 * Resolves a tool name a model wrote to one of the `known` names; see
 * {@link resolveToolNameDetailed} for the steps. Returns the known name, or the junk-trimmed input
 * when no known tool matches uniquely (for the unknown-tool policy to report).
 */
export function resolveToolName(raw: string, known: readonly string[]): string {
  return resolveToolNameDetailed(raw, known).name;
}
