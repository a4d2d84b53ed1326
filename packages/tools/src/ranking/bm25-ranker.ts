import { InvalidRankingIntentError } from '../errors/invalid-ranking-intent-error.js';

/** A tool offered to a {@link ToolRanker}. */
export interface RankCandidate {
  /** Identifies the candidate in the results and breaks ties; usually the tool name. */
  key: string;
  /** Group the tool belongs to (`github`, `slack`); rankers may index it with the summary. */
  family?: string;
  /** Text the ranker matches the intent against, such as the tool's name and description. */
  summary: string;
}

/** A candidate that matched an intent, as returned by {@link ToolRanker.rank}. */
export interface RankedCandidate {
  /** The {@link RankCandidate.key} of the candidate. */
  key: string;
  /** How well the candidate matched; higher is better, only comparable within one call. */
  score: number;
  /** Calibrated probability in `[0, 1]` that the candidate fits, for rankers that know one. */
  confidence?: number;
}

/** Orders tools by how well they fit what the model or user is trying to do. */
export interface ToolRanker {
  /** Names the ranking method, such as `'bm25'`. */
  kind(): string;
  /**
   * Returns at most `limit` candidates that match `intent`, best first.
   * Candidates that do not match are left out rather than padded in, so fewer than `limit`
   * (or none) may come back. `context` carries ranker-specific extras and may be ignored.
   *
   * @throws {InvalidRankingIntentError} when `intent` is empty or only whitespace.
   */
  rank(
    intent: string,
    candidates: readonly RankCandidate[],
    limit: number,
    context?: unknown,
  ): RankedCandidate[] | Promise<RankedCandidate[]>;
}

/** Term-frequency saturation of BM25. */
const k1 = 1.2;
/** Document-length normalization of BM25. */
const b = 0.75;
/** Query terms found in at least this share of candidates (and in two or more) are dropped. */
const commonTermShare = 0.8;

/** Common English words that say nothing about which tool fits. */
const stopwords: ReadonlySet<string> = new Set(
  `
  a about above after again against all am an and any are as at be because been before
  being below between both but by can could did do does doing down during each few for
  from further had has have having he her here hers herself him himself his how i if in
  into is it its itself just me more most my myself no nor not now of off on once only or
  other our ours ourselves out over own please same she should so some such than that the
  their theirs them themselves then there these they this those through to too under until
  up very was we were what when where which while who whom why will with would you your
  yours yourself yourselves
  `
    .trim()
    .split(/\s+/),
);

/**
 * Splits text into lowercase search terms, as the BM25 ranker indexes it.
 * Splits on anything that is not a letter, mark or digit, then on camelCase humps
 * (`readFile` → `read`, `file`; `HTTPServer` → `http`, `server`); digits stay with the letters
 * before them (`base64`). Drops 127 common English stopwords (`the`, `to`, `with`, …).
 */
export function tokenize(text: string): string[] {
  const terms: string[] = [];
  for (const chunk of text.split(/[^\p{L}\p{M}\p{N}]+/u)) {
    const humps = chunk
      .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
      .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
      .split(' ');
    for (const hump of humps) {
      const term = hump.toLowerCase();
      if (term.length > 0 && !stopwords.has(term)) {
        terms.push(term);
      }
    }
  }
  return terms;
}

/**
 * Creates a ranker that scores candidates with Okapi BM25 (k1 = 1.2, b = 0.75,
 * IDF = ln((N − df + 0.5) / (df + 0.5) + 1)) over their summary followed by their family.
 *
 * Both sides go through {@link tokenize}; repeated intent terms count once. Intent terms found in
 * at least max(2, ⌈0.8·N⌉) of the N candidates are dropped, since they cannot tell tools apart.
 * Only candidates scoring above zero come back, highest score first, ties by `key` in code-unit
 * order, so equal input gives equal output. `limit` ≤ 0 returns `[]`; an intent made only of
 * stopwords or punctuation matches nothing and returns `[]`. Results carry no `confidence`, and
 * `rank` returns synchronously.
 *
 * @throws {InvalidRankingIntentError} from `rank` when the intent is empty or only whitespace.
 */
export function createBm25Ranker(): ToolRanker {
  return {
    kind: () => 'bm25',
    rank: (intent, candidates, limit) => rankBm25(intent, candidates, limit),
  };
}

/**
 * Tokenised documents per candidate list. Catalogues pass the same (immutable) array on every
 * search, so the corpus is indexed once instead of on every query.
 */
const indexed = new WeakMap<readonly RankCandidate[], ReturnType<typeof indexDocument>[]>();

function rankBm25(intent: string, candidates: readonly RankCandidate[], limit: number): RankedCandidate[] {
  if (typeof intent !== 'string' || intent.trim().length === 0) {
    throw new InvalidRankingIntentError({ intent: String(intent), rankerKind: 'bm25' });
  }
  if (!(limit > 0) || candidates.length === 0) {
    return [];
  }
  let documents = indexed.get(candidates);
  if (documents === undefined) {
    documents = candidates.map((candidate) => indexDocument(candidate));
    indexed.set(candidates, documents);
  }
  const count = documents.length;
  const averageLength = documents.reduce((total, document) => total + document.length, 0) / count;
  if (averageLength === 0) {
    return [];
  }

  const commonThreshold = Math.max(2, Math.ceil(commonTermShare * count));
  const weightedTerms: Array<{ term: string; idf: number }> = [];
  for (const term of new Set(tokenize(intent))) {
    const frequency = documents.filter((document) => document.termCounts.has(term)).length;
    if (frequency === 0 || frequency >= commonThreshold) {
      continue;
    }
    weightedTerms.push({ term, idf: Math.log((count - frequency + 0.5) / (frequency + 0.5) + 1) });
  }
  if (weightedTerms.length === 0) {
    return [];
  }

  const ranked: RankedCandidate[] = [];
  documents.forEach((document, index) => {
    const lengthFactor = k1 * (1 - b + (b * document.length) / averageLength);
    let score = 0;
    for (const { term, idf } of weightedTerms) {
      const termFrequency = document.termCounts.get(term) ?? 0;
      if (termFrequency > 0) {
        score += (idf * termFrequency * (k1 + 1)) / (termFrequency + lengthFactor);
      }
    }
    const candidate = candidates[index];
    if (score > 0 && candidate !== undefined) {
      ranked.push({ key: candidate.key, score });
    }
  });
  ranked.sort((left, right) => right.score - left.score || compareKeys(left.key, right.key));
  return ranked.slice(0, limit);
}

interface IndexedDocument {
  length: number;
  termCounts: Map<string, number>;
}

function indexDocument(candidate: RankCandidate): IndexedDocument {
  const text = candidate.family === undefined ? candidate.summary : `${candidate.summary} ${candidate.family}`;
  const terms = tokenize(text);
  const termCounts = new Map<string, number>();
  for (const term of terms) {
    termCounts.set(term, (termCounts.get(term) ?? 0) + 1);
  }
  return { length: terms.length, termCounts };
}

function compareKeys(left: string, right: string): number {
  if (left < right) {
    return -1;
  }
  return left > right ? 1 : 0;
}
