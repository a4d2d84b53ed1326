import { describe, expect, it } from 'vitest';
import { InvalidRankingIntentError } from '../errors/invalid-ranking-intent-error.js';
import { TinyError } from '../errors/tiny-error.js';
import { createBm25Ranker, type RankCandidate, type RankedCandidate, tokenize } from './bm25-ranker.js';

const tools: ReadonlyArray<readonly [key: string, description: string, family: string | undefined]> = [
  ['github_create_issue', 'Create a new issue in a GitHub repository with a title and body', 'github'],
  ['github_list_pull_requests', 'List open pull requests in a GitHub repository', 'github'],
  ['github_merge_pull_request', 'Merge a pull request into its base branch', 'github'],
  ['github_search_code', 'Search source code across GitHub repositories', 'github'],
  ['slack_send_message', 'Send a message to a Slack channel or user', 'slack'],
  ['slack_list_channels', 'List the public channels in the Slack workspace', 'slack'],
  ['slack_search_messages', 'Search messages and threads in Slack', 'slack'],
  ['readFile', 'Read the contents of a text file from the local disk', 'filesystem'],
  ['writeFile', 'Write text to a file on the local disk, replacing its contents', 'filesystem'],
  ['listDirectory', 'List the files and folders inside a directory', 'filesystem'],
  ['send_email', 'Send an email to one or more recipients with a subject and body', 'gmail'],
  ['search_email', 'Search the mailbox for emails matching a query', 'gmail'],
  ['web_search', 'Search the web and return the top results with links', undefined],
  ['fetchURL', 'Fetch a web page by its URL and return the page text', undefined],
  ['run_shell_command', 'Run a shell command in the workspace and return its output', 'shell'],
];

/** A realistic catalogue: summaries are `name: description`, as discovery builds them. */
const catalogue: readonly RankCandidate[] = tools.map(([key, description, family]) => ({
  key,
  summary: `${key}: ${description}`,
  ...(family === undefined ? {} : { family }),
}));

/** Ranks synchronously; BM25 never returns a promise. */
function rank(intent: string, candidates: readonly RankCandidate[] = catalogue, limit = 5): RankedCandidate[] {
  const result = createBm25Ranker().rank(intent, candidates, limit);
  if (result instanceof Promise) {
    throw new Error('expected a synchronous result');
  }
  return result;
}

function keys(intent: string, candidates: readonly RankCandidate[] = catalogue, limit = 5): string[] {
  return rank(intent, candidates, limit).map((candidate) => candidate.key);
}

describe('tokenize', () => {
  it('splits on non-alphanumerics and lowercases', () => {
    expect(tokenize('Send_email: SEND-Email/now!')).toEqual(['send', 'email', 'send', 'email']);
  });

  it('splits camelCase humps and acronyms', () => {
    expect(tokenize('readFile')).toEqual(['read', 'file']);
    expect(tokenize('HTTPServer')).toEqual(['http', 'server']);
    expect(tokenize('getHTTPResponseCode')).toEqual(['get', 'http', 'response', 'code']);
    expect(tokenize('fetchURL')).toEqual(['fetch', 'url']);
    expect(tokenize('XMLHttpRequest')).toEqual(['xml', 'http', 'request']);
  });

  it('keeps digits with the letters before them', () => {
    expect(tokenize('base64Encode utf8 v2')).toEqual(['base64', 'encode', 'utf8', 'v2']);
  });

  it('drops English stopwords', () => {
    expect(tokenize('Read the contents of a file from the disk')).toEqual(['read', 'contents', 'file', 'disk']);
    expect(tokenize('What is it that you would do?')).toEqual([]);
  });

  it('keeps letters outside ASCII together', () => {
    expect(tokenize('Résumé über 東京')).toEqual(['résumé', 'über', '東京']);
  });

  it('returns no terms for blank or punctuation-only text', () => {
    expect(tokenize('')).toEqual([]);
    expect(tokenize('  -- __ !!')).toEqual([]);
  });
});

describe('createBm25Ranker', () => {
  it('has kind bm25', () => {
    expect(createBm25Ranker().kind()).toBe('bm25');
  });

  it('ranks the tool that fits an intent first', () => {
    expect(keys('send a slack message to the team channel')).toEqual([
      'slack_send_message',
      'send_email',
      'slack_search_messages',
      'slack_list_channels',
    ]);
    expect(keys('merge the pull request')).toEqual(['github_merge_pull_request', 'github_list_pull_requests']);
    expect(keys('open pull requests on github')[0]).toBe('github_list_pull_requests');
    expect(keys('search for emails from Ada')[0]).toBe('search_email');
    expect(keys('run ls in the shell')).toEqual(['run_shell_command']);
    expect(keys('read the contents of config.json')).toEqual(['readFile', 'writeFile']);
  });

  it('matches camelCase tool names by their words', () => {
    expect(keys('readFile')).toEqual(['readFile', 'writeFile']);
    expect(keys('fetch a URL')).toEqual(['fetchURL']);
    expect(keys('HTTPServer fetchUrl')).toEqual(['fetchURL']);
  });

  it('indexes the family along with the summary', () => {
    // Only the family says "filesystem" or "gmail"; shorter documents score higher.
    expect(keys('filesystem')).toEqual(['listDirectory', 'readFile', 'writeFile']);
    expect(keys('gmail')).toEqual(['search_email', 'send_email']);
  });

  it('returns scores sorted from best to worst, without confidence', () => {
    const results = rank('send a slack message to the team channel', catalogue, 15);
    for (let index = 1; index < results.length; index += 1) {
      expect(results[index - 1]?.score).toBeGreaterThanOrEqual(results[index]?.score ?? 0);
    }
    for (const result of results) {
      expect(result.score).toBeGreaterThan(0);
      expect(result).not.toHaveProperty('confidence');
    }
  });

  it('breaks ties by key in ascending order', () => {
    const results = rank('search', catalogue, 15);
    expect(results.map((result) => result.key)).toEqual([
      'search_email',
      'slack_search_messages',
      'web_search',
      'github_search_code',
    ]);
    expect(results[0]?.score).toBe(results[1]?.score);
    expect(results[1]?.score).toBe(results[2]?.score);
  });

  it('gives the same order whatever the order of the candidates', () => {
    const twins: RankCandidate[] = ['zeta', 'alpha', 'mike', 'bravo'].map((key) => ({
      key,
      summary: 'Upload an image to the CDN',
    }));
    const filler: RankCandidate[] = [
      { key: 'other', summary: 'Delete a calendar event' },
      { key: 'another', summary: 'Translate text' },
    ];
    const expected = ['alpha', 'bravo', 'mike', 'zeta'];
    expect(keys('upload image', [...twins, ...filler], 10)).toEqual(expected);
    expect(keys('upload image', [...filler, ...twins].reverse(), 10)).toEqual(expected);
  });

  it('never pads the results to the limit', () => {
    expect(rank('run ls in the shell', catalogue, 10)).toHaveLength(1);
    expect(rank('quantum entanglement', catalogue, 10)).toEqual([]);
  });

  it('truncates to the limit after sorting', () => {
    expect(keys('search', catalogue, 2)).toEqual(['search_email', 'slack_search_messages']);
    expect(keys('send a slack message to the team channel', catalogue, 1)).toEqual(['slack_send_message']);
  });

  it('returns nothing for a limit of zero or less', () => {
    expect(rank('search', catalogue, 0)).toEqual([]);
    expect(rank('search', catalogue, -3)).toEqual([]);
    expect(rank('search', catalogue, Number.NaN)).toEqual([]);
  });

  it('returns nothing for no candidates', () => {
    expect(rank('search', [], 5)).toEqual([]);
  });

  it('returns nothing for an intent of only stopwords or punctuation', () => {
    expect(rank('the with of', catalogue, 5)).toEqual([]);
    expect(rank('?!', catalogue, 5)).toEqual([]);
  });

  it('ignores stopwords in the intent', () => {
    expect(rank('send a slack message to the team channel')).toEqual(rank('send slack message team channel'));
  });

  it('drops intent terms found in at least 80% of the candidates', () => {
    const candidates: RankCandidate[] = [
      { key: 'a_tool', summary: 'tool that creates invoices' },
      { key: 'b_tool', summary: 'tool that refunds payments' },
      { key: 'c_tool', summary: 'tool that lists customers' },
      { key: 'd_tool', summary: 'tool that lists invoices' },
      { key: 'e_tool', summary: 'sends receipts' },
    ];
    // "tool" is in 4 of 5 documents (threshold ceil(0.8 * 5) = 4): it cannot tell them apart.
    expect(rank('tool', candidates)).toEqual([]);
    expect(keys('tool for invoices', candidates)).toEqual(['a_tool', 'd_tool']);
    expect(rank('tool for invoices', candidates)).toEqual(rank('invoices', candidates));
    // "lists" is in 2 of 5, below the threshold, so it still counts.
    expect(keys('lists', candidates)).toEqual(['c_tool', 'd_tool']);
  });

  it('never drops a term from fewer than two candidates', () => {
    expect(keys('invoices', [{ key: 'only', summary: 'invoices' }])).toEqual(['only']);
    const pair: RankCandidate[] = [
      { key: 'one', summary: 'invoices create' },
      { key: 'two', summary: 'invoices refund' },
    ];
    expect(rank('invoices', pair)).toEqual([]);
    expect(keys('invoices refund', pair)).toEqual(['two']);
  });

  it('counts a family shared by most candidates as a common term', () => {
    const candidates: RankCandidate[] = [
      { key: 'x1', summary: 'create issue', family: 'github' },
      { key: 'x2', summary: 'close issue', family: 'github' },
      { key: 'x3', summary: 'list repositories', family: 'github' },
    ];
    expect(rank('github', candidates)).toEqual([]);
    expect(keys('github issue', candidates)).toEqual(['x1', 'x2']);
  });

  it('computes Okapi BM25 with k1 = 1.2, b = 0.75 and the +1 IDF', () => {
    const candidates: RankCandidate[] = [
      { key: 'a', summary: 'apple banana' },
      { key: 'b', summary: 'apple cherry cherry' },
      { key: 'c', summary: 'date' },
    ];
    const count = 3;
    const averageLength = (2 + 3 + 1) / count;
    const idf = (documentFrequency: number) =>
      Math.log((count - documentFrequency + 0.5) / (documentFrequency + 0.5) + 1);
    const termScore = (termFrequency: number, length: number, documentFrequency: number) =>
      (idf(documentFrequency) * termFrequency * 2.2) / (termFrequency + 1.2 * (0.25 + (0.75 * length) / averageLength));

    const results = rank('banana cherry apple', candidates);
    expect(results.map((result) => result.key)).toEqual(['b', 'a']);
    expect(results[0]?.score).toBeCloseTo(termScore(2, 3, 1) + termScore(1, 3, 2), 12);
    expect(results[1]?.score).toBeCloseTo(termScore(1, 2, 1) + termScore(1, 2, 2), 12);
  });

  it('counts a repeated intent term once', () => {
    expect(rank('slack slack slack message')).toEqual(rank('slack message'));
  });

  it('prefers the shorter summary when term counts are equal', () => {
    const candidates: RankCandidate[] = [
      { key: 'long', summary: 'Export a report as a spreadsheet with charts, filters, pivots and notes' },
      { key: 'short', summary: 'Export a report' },
      { key: 'unrelated', summary: 'Restart the server' },
    ];
    expect(keys('export', candidates)).toEqual(['short', 'long']);
  });

  it('rejects an empty or whitespace-only intent with a typed error', () => {
    const ranker = createBm25Ranker();
    for (const intent of ['', '   ', '\n\t ']) {
      let thrown: unknown;
      try {
        ranker.rank(intent, catalogue, 5);
      } catch (error) {
        thrown = error;
      }
      expect(InvalidRankingIntentError.isInstance(thrown)).toBe(true);
      expect(TinyError.isInstance(thrown)).toBe(true);
      expect(thrown).not.toBeInstanceOf(TypeError);
      expect((thrown as InvalidRankingIntentError).intent).toBe(intent);
      expect((thrown as InvalidRankingIntentError).rankerKind).toBe('bm25');
      expect((thrown as InvalidRankingIntentError).name).toBe('InvalidRankingIntentError');
    }
  });

  it('rejects an empty intent even when the limit is zero', () => {
    expect(() => createBm25Ranker().rank(' ', catalogue, 0)).toThrow(InvalidRankingIntentError);
  });
});
