import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { subsetMismatches } from './match-subset.js';
import type { LoadedReplayFixture, ReplayExchange, ReplayFixture, ReplayResponse } from './replay-fixture.js';

/** A request the server received. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body parsed as JSON, or the raw text when it is not JSON. */
  readonly body: unknown;
}

/** A local HTTP server on 127.0.0.1 that answers requests from a recorded fixture. */
export interface ReplayServer {
  /** `http://127.0.0.1:<port>`; append the API root (`/v1`). */
  readonly url: string;
  /** Requests received since the last `load`, in order. */
  readonly requests: readonly RecordedRequest[];
  /** Expectation mismatches and requests beyond the script, since the last `load`. */
  readonly problems: readonly string[];
  /** Replaces the script; the next request gets the first exchange. */
  load(fixture: ReplayFixture | LoadedReplayFixture, baseDir?: string): void;
  /**
   * Checks the script ran as recorded.
   *
   * @throws {Error} listing the mismatches and the exchanges no request used.
   */
  assertDone(): void;
  /**
   * Resolves once `count` requests have been received since the last `load` (their bodies read),
   * so a test can act on a call that is known to be in flight.
   *
   * @throws {Error} when they have not arrived within `timeoutMs` (default 10 s).
   */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  /** Stops the server and drops open connections. */
  close(): Promise<void>;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function bodyOf(response: ReplayResponse, baseDir: string): { bytes: Buffer; kind: 'json' | 'text' | 'sse' } {
  if (response.file !== undefined) {
    const bytes = readFileSync(join(baseDir, response.file));
    return { bytes, kind: response.file.endsWith('.sse') ? 'sse' : 'text' };
  }
  if (response.json !== undefined) return { bytes: Buffer.from(JSON.stringify(response.json), 'utf8'), kind: 'json' };
  return { bytes: Buffer.from(response.text ?? '', 'utf8'), kind: 'text' };
}

/** Splits a body into writes: whole, per SSE event (each ending at a blank line), or every n bytes. */
function writesOf(bytes: Buffer, chunking: ReplayResponse['chunking'], kind: string): Buffer[] {
  const mode = chunking ?? (kind === 'sse' ? 'events' : 'whole');
  if (mode === 'whole') return [bytes];
  if (mode === 'events') {
    const text = bytes.toString('utf8');
    const pieces = text.split(/(?<=\n\n)/);
    return pieces.filter((piece) => piece !== '').map((piece) => Buffer.from(piece, 'utf8'));
  }
  const size = Math.max(1, mode.bytes);
  const writes: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) writes.push(bytes.subarray(at, at + size));
  return writes;
}

const contentTypes = { json: 'application/json', text: 'text/plain; charset=utf-8', sse: 'text/event-stream' } as const;

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function headerRecord(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function checkRequest(exchange: ReplayExchange, recorded: RecordedRequest, label: string): string[] {
  const expected = exchange.request;
  if (expected === undefined) return [];
  const problems: string[] = [];
  const method = expected.method ?? 'POST';
  if (recorded.method !== method) problems.push(`${label}: method ${recorded.method}, expected ${method}`);
  if (expected.path !== undefined && recorded.path !== expected.path) {
    problems.push(`${label}: path ${recorded.path}, expected ${expected.path}`);
  }
  for (const [name, value] of Object.entries(expected.headers ?? {})) {
    const actual = recorded.headers[name.toLowerCase()];
    if (value === null ? actual !== undefined : actual !== value) {
      problems.push(
        `${label}: header ${name} is ${actual === undefined ? 'absent' : JSON.stringify(actual)}, expected ${value === null ? 'absent' : JSON.stringify(value)}`,
      );
    }
  }
  if (expected.body !== undefined) {
    problems.push(...subsetMismatches(expected.body, recorded.body).map((problem) => `${label}: body ${problem}`));
  }
  return problems;
}

/**
 * Starts a replay server on `127.0.0.1` (a free port). Each request is checked against the next
 * exchange's expectation and answered with its recorded response, written with the recorded
 * chunking and delays (or cut off, for a dropped stream). A mismatch is recorded in `problems`
 * and answered with HTTP 418 and an OpenAI-style error body naming it, so the client fails
 * loudly instead of reading the wrong answer.
 */
export async function startReplayServer(initial?: ReplayFixture | LoadedReplayFixture): Promise<ReplayServer> {
  let exchanges: readonly ReplayExchange[] = [];
  let baseDir = process.cwd();
  let next = 0;
  const requests: RecordedRequest[] = [];
  const problems: string[] = [];
  const sockets = new Set<Socket>();
  const waiters = new Set<{ count: number; resolve(): void }>();

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let gone = false;
    response.on('close', () => {
      gone = true;
    });
    const recorded: RecordedRequest = {
      method: request.method ?? 'GET',
      path: (request.url ?? '/').split('?')[0] ?? '/',
      headers: headerRecord(request),
      body: await readBody(request),
    };
    requests.push(recorded);
    for (const waiter of waiters) if (requests.length >= waiter.count) waiter.resolve();
    const position = next++;
    const exchange = exchanges[position];
    const label = `request ${position + 1}`;
    const found =
      exchange === undefined ? [`${label}: no exchange left in the script`] : checkRequest(exchange, recorded, label);
    if (exchange === undefined || found.length > 0) {
      problems.push(...found);
      response.writeHead(418, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ error: { message: `replay mismatch: ${found.join('; ')}`, type: 'replay_mismatch' } }),
      );
      return;
    }
    const recordedResponse = exchange.response;
    if (recordedResponse.headersDelayMs !== undefined) await sleep(recordedResponse.headersDelayMs);
    if (gone) return;
    const { bytes, kind } = bodyOf(recordedResponse, baseDir);
    const headers: Record<string, string> = { 'content-type': contentTypes[kind], ...recordedResponse.headers };
    response.writeHead(recordedResponse.status ?? 200, headers);
    const writes = writesOf(bytes, recordedResponse.chunking, kind);
    for (const [index, chunk] of writes.entries()) {
      if (gone) return;
      if (index > 0 && recordedResponse.delayMs !== undefined) await sleep(recordedResponse.delayMs);
      if (recordedResponse.dropAfterWrites !== undefined && index >= recordedResponse.dropAfterWrites) {
        response.destroy();
        return;
      }
      await new Promise<void>((resolve) => response.write(chunk, () => resolve()));
    }
    response.end();
  }

  const server = createServer((request, response) => {
    answer(request, response).catch((error: unknown) => {
      problems.push(`server error: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const replay: ReplayServer = {
    url: `http://127.0.0.1:${port}`,
    requests,
    problems,
    load(fixture, dir) {
      const loaded = 'fixture' in fixture ? fixture : { fixture, baseDir: dir ?? process.cwd() };
      exchanges = loaded.fixture.exchanges;
      baseDir = dir ?? loaded.baseDir;
      next = 0;
      requests.length = 0;
      problems.length = 0;
    },
    assertDone() {
      const unused = exchanges.length - Math.min(next, exchanges.length);
      const all = [...problems, ...(unused > 0 ? [`${unused} recorded exchange(s) were never requested`] : [])];
      if (all.length > 0) throw new Error(`replay server:\n  ${all.join('\n  ')}`);
    },
    waitForRequests(count, timeoutMs = 10_000) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const waiter = {
          count,
          resolve() {
            clearTimeout(timer);
            waiters.delete(waiter);
            resolve();
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`replay server: ${requests.length} of ${count} request(s) received after ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
  if (initial !== undefined) replay.load(initial);
  return replay;
}
