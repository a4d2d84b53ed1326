import { fileURLToPath } from 'node:url';
import { type LoadedReplayFixture, loadReplayFixture } from '@tiny/provider-tests';

/**
 * Loads a recorded fixture of one of the native adapters (`provider-openai`, `provider-anthropic`)
 * so a real AI SDK provider can be pointed at the very same traffic. Request expectations keep only
 * `keep` of each body (the AI SDK builds its own bodies; what it sends is checked in the bridge's
 * own tests) and the headers named in `headers`.
 */
export function loadNativeFixture(
  adapter: 'provider-openai' | 'provider-anthropic',
  path: string,
  keep: readonly string[] = ['model', 'stream'],
  headers: readonly string[] = [],
): LoadedReplayFixture {
  const file = fileURLToPath(new URL(`../../${adapter}/src/__fixtures__/${path}`, import.meta.url));
  const loaded = loadReplayFixture(file);
  const exchanges = loaded.fixture.exchanges.map((exchange) => {
    const body = (exchange.request?.body ?? {}) as Record<string, unknown>;
    const wanted = Object.fromEntries(keep.filter((key) => key in body).map((key) => [key, body[key]]));
    const sent = exchange.request?.headers ?? {};
    const wantedHeaders = Object.fromEntries(Object.entries(sent).filter(([name]) => headers.includes(name)));
    return { ...exchange, request: { ...exchange.request, body: wanted, headers: wantedHeaders } };
  });
  return { fixture: { ...loaded.fixture, exchanges }, baseDir: loaded.baseDir };
}
