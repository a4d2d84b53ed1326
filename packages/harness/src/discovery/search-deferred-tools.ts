import { createBm25Ranker, type JsonSchema, type RankedCandidate, type ToolRanker, ToolResult } from '@tiny/tools';
import { resolveSearchLimits, type SearchLimits } from './bridge-schemas.js';
import type { DeferredCatalogue } from './deferred-catalogue.js';

/**
 * How a host ranker is used: `ranker` (default) serves its results and falls back to BM25 when it
 * throws or matches nothing; `bm25` ignores it; `compare` serves it (with the same fallback) and
 * reports what BM25 would have matched in `shadowMatched`.
 */
export type RankMode = 'ranker' | 'bm25' | 'compare';

/** Options for {@link searchDeferredTools}. */
export interface ToolSearchOptions {
  /** A host ranker; BM25 when absent. */
  readonly ranker?: ToolRanker | undefined;
  /** Default `ranker`. */
  readonly rankMode?: RankMode | undefined;
  readonly limits?: SearchLimits | undefined;
  /** Passed to the ranker's `rank` as its context. */
  readonly rankerContext?: unknown;
}

/** One match in a `tool_search` result. */
export interface ToolSearchMatch {
  readonly name: string;
  /** Cut to {@link SEARCH_DESCRIPTION_MAX_CHARS} characters plus `…`. */
  readonly description: string;
  /** The full model-facing schema. */
  readonly parameters: JsonSchema;
}

/** What a search did: the result for the model and the facts for the `tool_searched` event. */
export interface ToolSearchOutcome {
  readonly result: ToolResult;
  /** The query as sent (empty when missing). */
  readonly query: string;
  /** Matched names, best first; never padded to the limit. */
  readonly matched: readonly string[];
  /** The ranker that produced `matched` (`bm25` or the host's kind); `''` when rejected before ranking. */
  readonly ranker: string;
  readonly topConfidence?: number | undefined;
  /** Why the host ranker was not served: `ranker_error: …` or `ranker_empty`. */
  readonly fallback?: string | undefined;
  /** In `compare` mode: what BM25 matched. */
  readonly shadowMatched?: readonly string[] | undefined;
  readonly latencyMs: number;
}

/** Longest description in a search result, in characters. */
export const SEARCH_DESCRIPTION_MAX_CHARS = 500;

const bm25 = createBm25Ranker();
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Runs `tool_search {query, limit}` over the catalogue. An empty or missing query is answered with
 * a tool error before any ranking. `limit` is floored and clamped to `1..maxLimit`, default
 * `defaultLimit`. Ranker results naming unknown tools are dropped (as are unknown fields), duplicates
 * removed, and the list cut to the limit. Never throws for model input; a throwing host ranker falls back to BM25.
 */
export async function searchDeferredTools(
  catalogue: DeferredCatalogue,
  args: unknown,
  options: ToolSearchOptions = {},
): Promise<ToolSearchOutcome> {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const input = isObject(args) ? args : {};
  const query = typeof input.query === 'string' ? input.query : '';
  if (query.trim() === '') {
    return {
      result: ToolResult.error('tool_search needs a non-empty `query` describing the task'),
      query,
      matched: [],
      ranker: '',
      latencyMs: elapsed(),
    };
  }
  const limits = options.limits ?? resolveSearchLimits();
  const requested =
    typeof input.limit === 'number' && Number.isFinite(input.limit) ? Math.floor(input.limit) : undefined;
  const limit = Math.min(Math.max(requested ?? limits.defaultLimit, 1), limits.maxLimit);
  const mode = options.ranker === undefined ? 'bm25' : (options.rankMode ?? 'ranker');

  let ranked: readonly RankedCandidate[];
  let ranker = 'bm25';
  let fallback: string | undefined;
  let shadowMatched: readonly string[] | undefined;
  const runBm25 = () => keep(catalogue, bm25.rank(query, catalogue.candidates, limit) as RankedCandidate[], limit);
  if (mode === 'bm25' || options.ranker === undefined) {
    ranked = runBm25();
  } else {
    const host = options.ranker;
    try {
      ranked = keep(catalogue, await host.rank(query, catalogue.candidates, limit, options.rankerContext), limit);
      ranker = host.kind();
      if (ranked.length === 0) fallback = 'ranker_empty';
    } catch (error) {
      ranked = [];
      fallback = `ranker_error: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (fallback !== undefined) {
      ranked = runBm25();
      ranker = 'bm25';
    }
    if (mode === 'compare') shadowMatched = runBm25().map((item) => item.key);
  }

  const matched = ranked.map((item) => item.key);
  const topConfidence = ranked[0]?.confidence;
  return {
    result: renderResult(catalogue, query, matched),
    query,
    matched,
    ranker,
    ...(topConfidence === undefined ? {} : { topConfidence }),
    ...(fallback === undefined ? {} : { fallback }),
    ...(shadowMatched === undefined ? {} : { shadowMatched }),
    latencyMs: elapsed(),
  };
}

function keep(catalogue: DeferredCatalogue, ranked: readonly RankedCandidate[], limit: number): RankedCandidate[] {
  const seen = new Set<string>();
  const kept: RankedCandidate[] = [];
  for (const item of Array.isArray(ranked) ? ranked : []) {
    if (typeof item !== 'object' || item === null) continue;
    const { key, score, confidence } = item;
    if (typeof key !== 'string' || seen.has(key) || !catalogue.has(key)) continue;
    seen.add(key);
    // Only the known fields survive; a confidence outside 0..1 is dropped.
    const calibrated = typeof confidence === 'number' && confidence >= 0 && confidence <= 1;
    kept.push({ key, score: typeof score === 'number' ? score : 0, ...(calibrated ? { confidence } : {}) });
    if (kept.length >= limit) break;
  }
  return kept;
}

function renderResult(catalogue: DeferredCatalogue, query: string, matched: readonly string[]): ToolResult {
  if (matched.length === 0) {
    return ToolResult.success(
      `No deferred tool matches ${JSON.stringify(query)} (${catalogue.size} searchable). Try other words for the task.`,
    );
  }
  const matches: ToolSearchMatch[] = [];
  for (const name of matched) {
    const entry = catalogue.get(name);
    if (entry === undefined) continue;
    matches.push({ name, description: cut(entry.description), parameters: entry.parameters });
  }
  const count = `${matches.length} match${matches.length === 1 ? '' : 'es'} for ${JSON.stringify(query)}`;
  return ToolResult.success(
    `${count}. Call one by its name (or through tool_call) with arguments matching its parameters.\n${JSON.stringify(matches, null, 2)}`,
  );
}

function cut(text: string): string {
  const characters = [...text];
  return characters.length > SEARCH_DESCRIPTION_MAX_CHARS
    ? `${characters.slice(0, SEARCH_DESCRIPTION_MAX_CHARS).join('')}…`
    : text;
}
