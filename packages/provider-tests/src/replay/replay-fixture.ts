import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What a request must look like. `body` is matched as a subset: objects need only the keys given,
 * arrays match element by element and by length, and three markers loosen a value:
 * `"$any"` (any value, present), `{"$contains": "text"}` (a string holding the text) and
 * `{"$absent": true}` (the key must not be there).
 */
export interface ReplayRequestExpectation {
  /** Default `POST`. */
  readonly method?: string | undefined;
  /** The path, `/v1/chat/completions` say; not checked when absent. */
  readonly path?: string | undefined;
  /** Header values to require (names in any case); `null` requires the header to be absent. */
  readonly headers?: Readonly<Record<string, string | null>> | undefined;
  readonly body?: unknown;
}

/** The answer to one request, as the server sent it. */
export interface ReplayResponse {
  /** Default 200. */
  readonly status?: number | undefined;
  /** Response headers; `content-type` defaults from the body kind. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** A JSON body (written compactly). */
  readonly json?: unknown;
  /** A raw text body. */
  readonly text?: string | undefined;
  /** A raw body file beside the fixture, byte for byte (an `.sse` recording, say). */
  readonly file?: string | undefined;
  /**
   * How the body is written: `whole` (one write; the default for `json` and `text`), `events`
   * (one write per SSE event; the default for `.sse` files) or every `bytes` bytes (which splits
   * lines and multi-byte characters across writes).
   */
  readonly chunking?: 'whole' | 'events' | { readonly bytes: number } | undefined;
  /** Milliseconds between writes. */
  readonly delayMs?: number | undefined;
  /** Milliseconds to wait before the status line. */
  readonly headersDelayMs?: number | undefined;
  /** Destroy the connection after this many writes, leaving the body unfinished. */
  readonly dropAfterWrites?: number | undefined;
}

/** One recorded request and its answer. */
export interface ReplayExchange {
  /** What the exchange shows (for people reading the fixture). */
  readonly note?: string | undefined;
  readonly request?: ReplayRequestExpectation | undefined;
  readonly response: ReplayResponse;
}

/** A recorded conversation with a server: the n-th request gets the n-th exchange. */
export interface ReplayFixture {
  readonly description?: string | undefined;
  /** Where the wire shapes come from (docs, test suites, captures). */
  readonly source?: string | undefined;
  readonly exchanges: readonly ReplayExchange[];
}

/** A fixture and the folder its `file` references are relative to. */
export interface LoadedReplayFixture {
  readonly fixture: ReplayFixture;
  readonly baseDir: string;
}

/**
 * Reads a fixture JSON file; `file` bodies are resolved beside it.
 *
 * @throws {Error} when the file is missing, not JSON, or has no `exchanges` array.
 */
export function loadReplayFixture(path: string | URL): LoadedReplayFixture {
  const file = typeof path === 'string' ? path : fileURLToPath(path);
  const fixture = JSON.parse(readFileSync(file, 'utf8')) as ReplayFixture;
  if (!Array.isArray(fixture.exchanges)) throw new Error(`replay fixture ${file} has no "exchanges" array`);
  return { fixture, baseDir: dirname(file) };
}
