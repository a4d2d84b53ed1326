import { afterAll, afterEach, beforeAll } from 'vitest';
import { loadReplayFixture } from './replay-fixture.js';
import { type ReplayServer, startReplayServer } from './replay-server.js';

/** A replay server shared by the tests of one file (see {@link useReplayServer}). */
export interface ReplayServerHandle {
  /** The running server. @throws {Error} before `beforeAll` has started it. */
  server(): ReplayServer;
  /** Loads the fixture at `path` (relative to the fixtures folder) and returns the API root (`…/v1`). */
  load(path: string): string;
}

/**
 * Starts one replay server for a test file (call it at the top level): started before the file's
 * tests, closed after them, and checked after each test (`assertDone`: every recorded exchange
 * was requested, and as recorded).
 *
 * @param fixtures - the folder the fixture paths are relative to, e.g.
 *   `new URL('./__fixtures__/', import.meta.url)` (keep the trailing slash).
 */
export function useReplayServer(fixtures: URL): ReplayServerHandle {
  let server: ReplayServer | undefined;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(() => {
    server?.assertDone();
  });
  const current = () => {
    if (server === undefined) throw new Error('replay server not started');
    return server;
  };
  return {
    server: current,
    load(path) {
      current().load(loadReplayFixture(new URL(path, fixtures)));
      return `${current().url}/v1`;
    },
  };
}
