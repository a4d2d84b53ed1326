import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  collectStreamSettled,
  type LanguageModelV1,
  type LanguageModelV1Request,
  type LanguageModelV1StreamPart,
} from '@tiny/llm';
import {
  type ReplayExchange,
  type ReplayFixture,
  type ReplayServer,
  startReplayServer,
  streamOrderViolations,
  weatherTool,
} from '@tiny/provider-tests';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAICompatible } from './create-openai-compatible.js';
import { llamacpp } from './presets/llamacpp.js';
import { lmstudio } from './presets/lmstudio.js';
import { ollama } from './presets/ollama.js';
import { openai } from './presets/openai.js';
import { vllm } from './presets/vllm.js';

/** How one recorded exchange is requested and what the adapter must make of it. */
interface QuirkExchange extends ReplayExchange {
  /** Absent for an exchange the adapter itself sends as part of the previous call (a re-send). */
  readonly call?: {
    readonly mode: 'generate' | 'stream';
    readonly tools?: boolean | undefined;
    readonly providerOptions?: Record<string, unknown> | undefined;
  };
  readonly expect?: {
    /** Matched as a subset (`toMatchObject`) of the response (streams: as collected, partial on error). */
    readonly response?: Record<string, unknown> | undefined;
    /** The call's error (generate: thrown; stream: the `error` part), as a subset. Absent: no error. */
    readonly error?: Record<string, unknown> | undefined;
    /** A substring of the error's message. */
    readonly errorMessage?: string | undefined;
    /** Part types the stream must contain. */
    readonly parts?: readonly string[] | undefined;
    /** Fields the response must not have. */
    readonly absent?: readonly string[] | undefined;
    /** What `model.capabilities()` reports after the exchange, as a subset. */
    readonly capabilities?: Record<string, unknown> | undefined;
  };
}

interface QuirkFixture extends ReplayFixture {
  /** A class the adapter does not handle yet, and why: the test is expected to fail (`it.fails`). */
  readonly knownGap?: string | undefined;
  readonly provider: {
    readonly preset: 'openai' | 'vllm' | 'ollama' | 'lmstudio' | 'llamacpp' | 'generic';
    readonly model: string;
    readonly name?: string | undefined;
    readonly extractThinking?: boolean | undefined;
  };
  readonly exchanges: readonly QuirkExchange[];
}

function modelFor(fixture: QuirkFixture, baseURL: string) {
  const { preset, model, name, extractThinking } = fixture.provider;
  const options = { baseURL, apiKey: 'sk-quirk-0000', ...(extractThinking === undefined ? {} : { extractThinking }) };
  const presets = { openai, vllm, ollama, lmstudio, llamacpp } as const;
  const provider =
    preset === 'generic' ? createOpenAICompatible({ ...options, name: name ?? 'compat' }) : presets[preset](options);
  return provider(model);
}

async function run(model: LanguageModelV1, exchange: QuirkExchange & { call: NonNullable<QuirkExchange['call']> }) {
  const request: LanguageModelV1Request = {
    messages: [{ role: 'user', content: 'hi' }],
    ...(exchange.call.tools ? { tools: [weatherTool] } : {}),
    ...(exchange.call.providerOptions === undefined ? {} : { providerOptions: exchange.call.providerOptions }),
  };
  if (exchange.call.mode === 'generate') {
    try {
      return { response: await model.doGenerate(request), error: undefined, parts: [] };
    } catch (error) {
      return { response: undefined, error, parts: [] };
    }
  }
  let result: Awaited<ReturnType<LanguageModelV1['doStream']>>;
  try {
    result = await model.doStream(request);
  } catch (error) {
    return { response: undefined, error, parts: [] };
  }
  const parts: LanguageModelV1StreamPart[] = [];
  for await (const part of result.stream) parts.push(part);
  expect(streamOrderViolations(parts)).toEqual([]);
  const settled = await collectStreamSettled({
    ...result,
    stream: (async function* () {
      yield* parts;
    })(),
  });
  return { response: settled.response, error: settled.error, parts };
}

/** Every `bytes` bytes: splits `data:` lines and multi-byte characters across writes. */
function rechunked(fixture: QuirkFixture, bytes: number): QuirkFixture {
  return {
    ...fixture,
    exchanges: fixture.exchanges.map((exchange) => {
      const type = exchange.response.headers?.['content-type'] ?? '';
      return type.includes('event-stream')
        ? { ...exchange, response: { ...exchange.response, chunking: { bytes } } }
        : exchange;
    }),
  };
}

/**
 * Declares one test per recorded exchange of every fixture in `folder` (a folder under
 * `__fixtures__/`), replayed over HTTP on 127.0.0.1: as recorded (one write per SSE event), and
 * re-chunked every 5 and every 1 bytes. Each fixture names its source.
 */
export function describeQuirkFixtures(folder: string): void {
  const dir = new URL(`./__fixtures__/${folder}/`, import.meta.url);
  const files = readdirSync(fileURLToPath(dir))
    .filter((file) => file.endsWith('.json'))
    .sort();
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(async () => {
    await server.close();
  });
  for (const file of files) {
    const fixture = JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as QuirkFixture;
    describe(`${folder}/${file}: ${fixture.source ?? 'no source'}`, () => {
      expect(fixture.source, `${file} names its source`).toBeTruthy();
      for (const split of [undefined, 5, 1]) {
        const declare = fixture.knownGap === undefined ? it : it.fails;
        const title = split === undefined ? 'as recorded' : `re-chunked every ${split} bytes`;
        declare(fixture.knownGap === undefined ? title : `${title} (known gap: ${fixture.knownGap})`, async () => {
          const replay = split === undefined ? fixture : rechunked(fixture, split);
          server.load(replay, fileURLToPath(dir));
          const model = modelFor(fixture, `${server.url}/v1`);
          for (const [position, exchange] of replay.exchanges.entries()) {
            const label = `${file} exchange ${position + 1}: ${exchange.note ?? ''}`;
            if (exchange.call === undefined) continue;
            const outcome = await run(model, { ...exchange, call: exchange.call });
            const wanted = exchange.expect ?? {};
            if (wanted.error === undefined && wanted.errorMessage === undefined) {
              expect(outcome.error, label).toBeUndefined();
            } else {
              expect(outcome.error, label).toBeDefined();
              if (wanted.error !== undefined) expect(outcome.error, label).toMatchObject(wanted.error);
              if (wanted.errorMessage !== undefined) {
                expect(String((outcome.error as Error).message), label).toContain(wanted.errorMessage);
              }
            }
            if (wanted.response !== undefined) expect(outcome.response, label).toMatchObject(wanted.response);
            for (const field of wanted.absent ?? []) {
              expect(
                (outcome.response as Record<string, unknown> | undefined)?.[field],
                `${label}: ${field}`,
              ).toBeUndefined();
            }
            const types = new Set(outcome.parts.map((part) => part.type));
            for (const type of wanted.parts ?? [])
              expect(types.has(type as never), `${label}: part ${type}`).toBe(true);
            if (wanted.capabilities !== undefined) {
              expect((model as unknown as { capabilities(): unknown }).capabilities(), label).toMatchObject(
                wanted.capabilities,
              );
            }
          }
          server.assertDone();
        });
      }
    });
  }
}
