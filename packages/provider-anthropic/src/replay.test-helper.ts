import type { LanguageModelV1StreamPart } from '@tiny/llm';
import { loadReplayFixture, type ReplayServer, startReplayServer } from '@tiny/provider-tests';
import { afterAll, afterEach, beforeAll } from 'vitest';

/** Starts one replay server for a test file; `load` points it at a fixture under `__fixtures__/`. */
export function useReplayServer(): { readonly server: () => ReplayServer; load(path: string): string } {
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
      current().load(loadReplayFixture(new URL(`./__fixtures__/${path}`, import.meta.url)));
      return `${current().url}/v1`;
    },
  };
}

/** Every part of a stream, in order. */
export async function partsOf(stream: AsyncIterable<LanguageModelV1StreamPart>): Promise<LanguageModelV1StreamPart[]> {
  const parts: LanguageModelV1StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

/** Replays collected parts as a stream, for `collectStream`. */
export async function* replayParts(
  parts: readonly LanguageModelV1StreamPart[],
): AsyncGenerator<LanguageModelV1StreamPart> {
  yield* parts;
}
