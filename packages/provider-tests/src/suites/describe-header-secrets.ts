import type { LanguageModelV1 } from '@tiny/llm';
import { describe, expect, it } from 'vitest';
import { type ServedAnswer, useAnswerServer } from './answer-server.js';

/** The settings every shared suite gives an adapter's factory. */
export interface SuiteAdapterSettings {
  /** The API root of the loopback server (`http://127.0.0.1:<port>/v1`), or a URL under test. */
  readonly baseURL: string;
  /** An API key the suite chose. */
  readonly apiKey: string;
  /** Extra headers for every request, when the case gives some. */
  readonly headers?: Record<string, string> | undefined;
}

/** Builds a model of the adapter under test (its factory, then a model id). */
export type SuiteModelFactory = (settings: SuiteAdapterSettings) => LanguageModelV1;

/** Options of {@link describeHeaderSecrets}. */
export interface HeaderSecretsOptions {
  /** Names the `describe` block. */
  readonly name: string;
  /** The adapter under test; must throw at creation for a base URL carrying credentials. */
  readonly create: SuiteModelFactory;
  /**
   * The adapter's wire encoder for a rejected credential: the HTTP answer (status 401 and the
   * provider's own error body) whose message is `message`. The suite puts the secret in it, as a
   * server or relay that echoes the credential it refused. Default: a 401 with an OpenAI-shaped
   * body, `{"error": {"type": "authentication_error", "message": …}}`.
   */
  readonly authError?: ((message: string) => ServedAnswer) | undefined;
}

const SECRET = 'HDRSECRET-9f8e7d6c5b4a';
const URL_SECRET = 'URLSECRET-123';
const OPTION_SECRET = 'OPTSECRET-0a1b2c3d4e';
const OPTION_TOKEN = 'OPTTOKEN-5f6e7d8c9b';

/** The OpenAI-shaped 401 both native adapters read. */
export function openAIShapedAuthError(message: string): ServedAnswer {
  return {
    status: 401,
    body: JSON.stringify({ error: { type: 'authentication_error', message } }),
  };
}

/** Every string an error holds: its own properties (message and stack included), its cause's and details', deeply. */
function stringsOf(value: unknown, depth = 0, seen = new Set<unknown>()): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object' || value === null || seen.has(value) || depth > 8) return [];
  seen.add(value);
  return Object.getOwnPropertyNames(value).flatMap((name) => [
    name,
    ...stringsOf((value as Record<string, unknown>)[name], depth + 1, seen),
  ]);
}

/** `text` with every character as a JSON `\uXXXX` escape: what a server's JSON may spell a secret as. */
function unicodeEscaped(text: string): string {
  return [...text].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
}

async function caught(run: () => Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await run();
  } catch (error) {
    return error as Record<string, unknown>;
  }
  throw new Error('expected the call to fail');
}

/**
 * Registers the header-secret tests (issue 34, WIRE-3): a secret given through `headers` (the
 * factory's or one request's) and echoed back by the server in a 401 body never appears in the
 * error's message, `providerMessage` or `responseBody` (the message says `[redacted]`), the error
 * is kind `auth`; nor does a credential-like value of a request's provider options (`optionSecrets`), and a base URL carrying credentials is refused at creation without showing
 * them. The API key echoed with JSON `\uXXXX` escapes, or in a refused redirect's `Location`,
 * is in no string of the error at all (its cause and details included). Served over a real
 * 127.0.0.1 server.
 */
export function describeHeaderSecrets(options: HeaderSecretsOptions): void {
  const authError = options.authError ?? openAIShapedAuthError;
  describe(options.name, () => {
    const server = useAnswerServer();
    const texts = (error: Record<string, unknown>) =>
      [error.message, error.providerMessage, error.responseBody].map((text) =>
        text === undefined ? '' : String(text),
      );

    it.each([
      ['x-api-key', { 'x-api-key': SECRET }, SECRET],
      ['Authorization', { Authorization: `Token ${SECRET}` }, `Token ${SECRET}`],
      ['Cookie', { Cookie: `sid=${SECRET}; theme=dark` }, `sid=${SECRET}`],
      ['a custom header', { 'X-Custom-Auth': SECRET }, SECRET],
    ])('%s echoed by the server is redacted', async (_name, headers, echo) => {
      server.answer(authError(`bad credential ${echo}`));
      const error = await caught(() =>
        options
          .create({ baseURL: server.baseURL(), apiKey: 'sk-other-key', headers })
          .doGenerate({ messages: [{ role: 'user', content: 'x' }] }),
      );
      expect(error.kind).toBe('auth');
      for (const text of texts(error)) expect(text).not.toContain('HDRSECRET');
      expect(String(error.message)).toContain('[redacted]');
    });

    it("a secret given in one request's headers is redacted too", async () => {
      server.answer(authError(`bad credential Bearer ${SECRET}`));
      const error = await caught(() =>
        options.create({ baseURL: server.baseURL(), apiKey: 'sk-other-key' }).doGenerate({
          messages: [{ role: 'user', content: 'x' }],
          headers: { Authorization: `Bearer ${SECRET}` },
        }),
      );
      expect(error.kind).toBe('auth');
      for (const text of texts(error)) expect(text).not.toContain('HDRSECRET');
      expect(String(error.message)).toContain('[redacted]');
    });

    it("a credential in one request's provider options, echoed by the server, is redacted", async () => {
      server.answer(authError(`bad api_key ${OPTION_SECRET} and token ${OPTION_TOKEN}`));
      const error = await caught(() =>
        options.create({ baseURL: server.baseURL(), apiKey: 'sk-other-key' }).doGenerate({
          messages: [{ role: 'user', content: 'x' }],
          // Under any provider's name, at any depth: a body field an adapter passes through.
          providerOptions: { anyProvider: { extraBody: { api_key: OPTION_SECRET }, session: [{ id: OPTION_TOKEN }] } },
        }),
      );
      expect(error.kind).toBe('auth');
      for (const text of stringsOf(error)) expect(text).not.toMatch(/OPTSECRET|OPTTOKEN/);
      expect(String(error.message)).toContain('[redacted]');
    });

    const API_KEY = 'sk-suite-apikey-7a6b5c4d3e';
    const leaks = (error: Record<string, unknown>) =>
      stringsOf(error).filter((text) => text.includes(API_KEY) || text.includes('sk-suite-apikey'));

    it('the API key echoed with every character a JSON \\uXXXX escape is redacted, in every string of the error', async () => {
      const answer = authError('bad key MARKER-0');
      expect(answer.body).toContain('MARKER-0');
      server.answer({ ...answer, body: answer.body.replace('MARKER-0', unicodeEscaped(API_KEY)) });
      const error = await caught(() =>
        options
          .create({ baseURL: server.baseURL(), apiKey: API_KEY })
          .doGenerate({ messages: [{ role: 'user', content: 'x' }] }),
      );
      expect(error.kind).toBe('auth');
      expect(leaks(error)).toEqual([]);
      for (const text of stringsOf(error)) expect(text).not.toContain(unicodeEscaped(API_KEY).slice(0, 36));
    });

    it('an API key given with whitespace around it (a key file with a line end) and echoed as sent is redacted', async () => {
      server.answer(authError(`Incorrect API key provided: ${API_KEY}`));
      const error = await caught(() =>
        options
          .create({ baseURL: server.baseURL(), apiKey: ` ${API_KEY}\t ` })
          .doGenerate({ messages: [{ role: 'user', content: 'x' }] }),
      );
      expect(leaks(error)).toEqual([]);
    });

    it('a refused redirect whose Location echoes the API key keeps it out of the error and its cause', async () => {
      server.answer({ status: 302, body: '', headers: { location: `http://evil.example/v1?k=${API_KEY}` } });
      const error = await caught(() =>
        options
          .create({ baseURL: server.baseURL(), apiKey: API_KEY })
          .doGenerate({ messages: [{ role: 'user', content: 'x' }] }),
      );
      expect(error.kind).toBe('redirect');
      expect(String(error.message)).toContain('[redacted]');
      expect(leaks(error)).toEqual([]);
    });

    it('a base URL with credentials is refused at creation, the credentials not shown', () => {
      const create = () => options.create({ baseURL: `http://user:${URL_SECRET}@127.0.0.1:1/v1`, apiKey: 'sk-x' });
      expect(create).toThrow(/must not carry credentials/);
      let error: unknown;
      try {
        create();
      } catch (thrown) {
        error = thrown;
      }
      expect(String((error as Error).message)).not.toContain('URLSECRET');
    });
  });
}
