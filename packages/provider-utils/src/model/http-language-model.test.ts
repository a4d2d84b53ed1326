import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LanguageModelV1Request } from '@tiny/llm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpFailure } from '../errors/http-failure.js';
import { HttpLanguageModel, type ModelCallErrors, type ModelErrorContext } from './http-language-model.js';

class CallError extends Error {
  constructor(
    message: string,
    readonly context: ModelErrorContext,
    readonly status?: number,
  ) {
    super(message);
  }
}

const errors: ModelCallErrors<CallError> = {
  transport: (what, _cause, context) => new CallError(`${context.kind ?? 'transport'}: ${what}`, context),
  refused: (failure: HttpFailure, context) => new CallError(`refused: ${failure.kind}`, context),
  answer: async (response, context) =>
    new CallError(`answer ${response.status}: ${await response.text()}`, context, response.status),
};

/** The smallest adapter: its own key header and a version header, the base does the rest. */
class TinyModel extends HttpLanguageModel<CallError> {
  constructor(url: string, apiKey: string | undefined, headers: Record<string, string>, providerOptions?: unknown) {
    super(
      {
        provider: 'tiny',
        modelId: 'm1',
        apiKey,
        headers,
        providerOptions,
        fetch: (input, init) => globalThis.fetch(input, init),
      },
      errors,
    );
    this.url = url;
  }
  private readonly url: string;

  async call(request: LanguageModelV1Request, header?: string) {
    const context = this.errorContext(request);
    const sent = await this.send(
      request,
      { url: this.url, body: { hi: 1 }, stream: false, headers: { 'x-version': '1', ...this.keyHeader(header) } },
      context,
    );
    if ('error' in sent) return sent.error;
    return this.readJson(sent.response, request.abortSignal, context);
  }
}

let server: Server;
let url = '';
const seen: IncomingHttpHeaders[] = [];
let answer: { status: number; body: string } = { status: 200, body: '{"ok":true}' };

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push(request.headers);
    request.resume();
    request.on('end', () => response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/tiny`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('HttpLanguageModel', () => {
  it('sends adapter, model and request headers in that order, the key in the header asked for', async () => {
    answer = { status: 200, body: '{"ok":true}' };
    seen.length = 0;
    const model = new TinyModel(url, 'sk-tiny-secret', { 'x-version': '2', 'x-team': 'a' });
    expect(model).toMatchObject({ specificationVersion: 'v1', provider: 'tiny', modelId: 'm1' });
    expect(await model.call({ messages: [], headers: { 'x-team': 'b' } })).toEqual({
      raw: '{"ok":true}',
      json: { ok: true },
    });
    await model.call({ messages: [] }, 'x-api-key');
    expect(seen[0]).toMatchObject({ 'x-version': '2', 'x-team': 'b', authorization: 'Bearer sk-tiny-secret' });
    expect(seen[0]?.['content-type']).toBe('application/json');
    expect(seen[1]).toMatchObject({ 'x-api-key': 'sk-tiny-secret' });
    expect(seen[1]?.authorization).toBeUndefined();
    await new TinyModel(url, '', {}).call({ messages: [] });
    expect(seen[2]?.authorization).toBeUndefined();
  });

  it("returns an error status as the adapter's error, with every secret of the request in its context", async () => {
    answer = { status: 429, body: '{"error":"slow down"}' };
    const model = new TinyModel(url, 'sk-tiny-secret', { 'x-relay': 'relay-token-123' });
    const error = await model.call({ messages: [], headers: { 'x-user': 'user-token-456' } });
    expect(error).toBeInstanceOf(CallError);
    expect((error as CallError).status).toBe(429);
    expect((error as CallError).context.secret).toEqual(
      expect.arrayContaining(['sk-tiny-secret', 'relay-token-123', 'user-token-456']),
    );
  });

  it("holds the credential-like values of the model's and the request's provider options in its context", async () => {
    answer = { status: 400, body: '{"error":"bad"}' };
    const model = new TinyModel(url, undefined, {}, { tiny: { accessToken: 'model-token-789', region: 'eu-west-1' } });
    const error = (await model.call({
      messages: [],
      providerOptions: { tiny: { extraBody: { api_key: 'request-key-012' } } },
    })) as CallError;
    expect(error.context.secret).toEqual(expect.arrayContaining(['model-token-789', 'request-key-012']));
    expect(error.context.secret).not.toContain('eu-west-1');
  });

  it('reads the secrets afresh for every request: a header rotated in place is kept out too', async () => {
    answer = { status: 401, body: '{"error":"expired"}' };
    const headers: Record<string, string> = { 'x-proxy-token': 'old-token-0a1b2c3d' };
    const model = new TinyModel(url, undefined, headers);
    await model.call({ messages: [] });
    headers['x-proxy-token'] = 'new-token-4e5f6a7b';
    const error = (await model.call({ messages: [] })) as CallError;
    expect(error.context.secret).toContain('new-token-4e5f6a7b');
  });

  it("reads a body that is not JSON as the adapter's invalid_chunk_json error", async () => {
    answer = { status: 200, body: 'not json' };
    await expect(new TinyModel(url, undefined, {}).call({ messages: [] })).rejects.toThrow(
      /^invalid_chunk_json: sent a body that is not JSON/,
    );
  });
});
