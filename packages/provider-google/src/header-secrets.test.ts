import { inspect } from 'node:util';
import { describeHeaderSecrets } from '@tiny/provider-tests';
import { describe, expect, it } from 'vitest';
import { createGoogle, createVertex } from './create-google.js';
import { GoogleCallError } from './errors/google-call-error.js';

// Secrets given through `headers` (issue 34, WIRE-3): a server or relay that echoes the credential
// it rejected must not put it in any error text. Gemini's own 401 body is the google.rpc Status
// envelope `{"error": {"code": 401, "message": …, "status": "UNAUTHENTICATED"}}` (the API's error reference).
const authError = (message: string) => ({
  status: 401,
  body: JSON.stringify({ error: { code: 401, message, status: 'UNAUTHENTICATED' } }),
});

describeHeaderSecrets({
  name: 'Gemini API: header secrets never reach an error',
  create: (settings) => createGoogle(settings)('gemini-2.5-flash'),
  authError,
});

describeHeaderSecrets({
  name: 'Vertex AI: header secrets never reach an error',
  create: ({ apiKey, ...settings }) =>
    createVertex({ ...settings, project: 'tiny-test', location: 'us-central1', accessToken: apiKey })(
      'gemini-2.5-flash',
    ),
  authError,
});

// providers3-google-r2 a04/a04b/a04c: a key with a CR, LF or NUL is refused before sending (fetch
// trims a trailing newline and sends the key anyway, or rejects it quoting the value), and a
// custom fetch's error that quotes the request keeps no secret anywhere in its cause chain.
describe('header values and transport causes', () => {
  const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };
  let sent = 0;
  const fetchSpy: typeof fetch = async () => {
    sent += 1;
    return new Response('{}', { status: 500 });
  };

  it.each([
    ['a trailing LF', 'AIzaSyNEWLINE0123456789\n'],
    ['a CR LF and an injected header', 'AIzaSyINJECT\r\nX-Evil: 1'],
    ['a NUL', 'AIzaSyNUL\u0000abc'],
  ])('an API key with %s is refused, naming the header, not the value', async (_name, key) => {
    sent = 0;
    const error = await createGoogle({ apiKey: key, baseURL: 'http://127.0.0.1:9/v1beta', fetch: fetchSpy })(
      'gemini-2.5-flash',
    )
      .doGenerate(ask)
      .then(
        () => undefined,
        (failure: unknown) => failure,
      );
    expect(GoogleCallError.isInstance(error)).toBe(true);
    expect((error as GoogleCallError).kind).toBe('invalid_request');
    expect((error as GoogleCallError).message).toContain('x-goog-api-key');
    expect(inspect(error, { depth: 20 })).not.toContain(key.slice(0, 10));
    expect(sent).toBe(0);
  });

  it('a header given per request with a LF is refused too; a Vertex token function with one as well', async () => {
    const model = createGoogle({ apiKey: 'AIzaSyOK', baseURL: 'http://127.0.0.1:9/v1beta', fetch: fetchSpy })(
      'gemini-2.5-flash',
    );
    await expect(model.doGenerate({ ...ask, headers: { 'x-proxy': 'PROXYSECRET\nx' } })).rejects.toThrow(/`x-proxy`/);
    const vertex = createVertex({
      project: 'p',
      location: 'us-central1',
      baseURL: 'http://127.0.0.1:9/v1',
      accessToken: async () => 'ya29.FNSECRET\nx',
      fetch: fetchSpy,
    })('gemini-2.5-flash');
    const error = await vertex.doGenerate(ask).catch((failure: unknown) => failure);
    expect((error as GoogleCallError).kind).toBe('invalid_request');
    expect(inspect(error, { depth: 20 })).not.toContain('ya29.FNSECRET');
  });

  it("a custom fetch's error quoting the key keeps it out of the message and every cause", async () => {
    const key = 'AIzaSyCAUSESECRET0123456789';
    const quoting: typeof fetch = async (_url, init) => {
      const headers = JSON.stringify(init?.headers);
      throw new Error(`proxy refused ${headers}`, { cause: new Error(`inner ${headers}`) });
    };
    const error = await createGoogle({ apiKey: key, baseURL: 'http://127.0.0.1:9/v1beta', fetch: quoting })(
      'gemini-2.5-flash',
    )
      .doGenerate(ask)
      .catch((failure: unknown) => failure);
    expect(GoogleCallError.isInstance(error)).toBe(true);
    const seen = `${inspect(error, { depth: 20, showHidden: true })}${JSON.stringify(error)}`;
    expect(seen).toContain('proxy refused');
    expect(seen).not.toContain(key);
  });
});
