// After the finish the stream must end cleanly: further content, an unreadable event, an error
// event (whatever its data), an oversized event or a read failure breaks the turn and no call runs.
// Cases from the providers3-google-r2 tester (a01, a02, a05, a07, a08), served from 127.0.0.1 in
// Gemini's wire form.
import { collectStreamSettled, type LanguageModelV1Request, type LanguageModelV1Response } from '@tiny/llm';
import { useLoopbackServer } from '@tiny/provider-tests';
import { describe, expect, it } from 'vitest';
import { createGoogle } from './create-google.js';
import { GoogleCallError } from './errors/google-call-error.js';

const server = useLoopbackServer();
const model = (limits?: { maxEventBytes?: number }) =>
  createGoogle({ baseURL: `${server.url()}/v1beta`, apiKey: 'AIza-after-finish', ...(limits ? { limits } : {}) })(
    'gemini-2.5-flash',
  );
const ask: LanguageModelV1Request = { messages: [{ role: 'user', content: 'go' }] };
const call = { functionCall: { name: 'delete_files', args: { path: '/' } } };
const chunk = (parts: unknown[], finishReason?: unknown, extra: Record<string, unknown> = {}) => ({
  responseId: 'r1',
  candidates: [{ content: { role: 'model', parts }, ...(finishReason === undefined ? {} : { finishReason }) }],
  ...extra,
});
const data = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;

/** Serves `raw` as an SSE body (or as `type`), whole. */
function serve(raw: string, type = 'text/event-stream'): void {
  server.handle((_request, response) => {
    response.writeHead(200, { 'content-type': type });
    response.end(raw);
  });
}

async function streamed(limits?: {
  maxEventBytes?: number;
}): Promise<{ response: LanguageModelV1Response; error: unknown }> {
  const settled = await collectStreamSettled(await model(limits).doStream(ask));
  return { response: settled.response, error: settled.error };
}

/** The turn is broken: an error, and the call (when the stream got that far) refused. */
async function expectBroken(kind?: string, limits?: { maxEventBytes?: number }): Promise<void> {
  const { response, error } = await streamed(limits);
  expect(GoogleCallError.isInstance(error)).toBe(true);
  if (kind !== undefined) expect((error as GoogleCallError).kind).toBe(kind);
  for (const made of response.toolCalls) expect(made.refused).toBe(true);
  expect(response.toolCalls.some((made) => made.refused !== true)).toBe(false);
}

describe('after STOP, the stream must end cleanly', () => {
  it('a clean end after STOP (and empty text parts) finishes the turn normally', async () => {
    serve(
      data(chunk([call], 'STOP')) + data(chunk([{ text: '' }], undefined, { usageMetadata: { totalTokenCount: 3 } })),
    );
    const { response, error } = await streamed();
    expect(error).toBeUndefined();
    expect(response.finishReason).toBe('tool_calls');
    expect(response.toolCalls[0]?.refused).toBeUndefined();
  });

  it('a call in a part that also has text:"" is content (1)', async () => {
    serve(data(chunk([{ text: 'ok' }], 'STOP')) + data(chunk([{ text: '', ...call }])));
    await expectBroken('protocol_violation');
    serve(
      data(chunk([{ text: 'ok' }], 'STOP')) + data(chunk([{ text: '', inlineData: { mimeType: 'a/b', data: '' } }])),
    );
    await expectBroken('protocol_violation');
  });

  it.each([
    ['an error', { error: { code: 500, message: 'boom', status: 'INTERNAL' } }, undefined],
    ['a SAFETY finish', chunk([], 'SAFETY'), 'protocol_violation'],
    ['another responseId', { ...chunk([{ text: '' }]), responseId: 'r2' }, 'protocol_violation'],
  ])('every element of an array event is read: %s after the STOP element (2)', async (_name, second, kind) => {
    serve(data([chunk([call], 'STOP'), second]));
    await expectBroken(kind);
  });

  it('an array event whose element is a list or no object is invalid_chunk (2)', async () => {
    serve(data([chunk([call], 'STOP'), [chunk([], 'SAFETY')]]));
    await expectBroken('invalid_chunk');
    serve(data([chunk([call], 'STOP'), 7]));
    await expectBroken('invalid_chunk');
  });

  it('a JSON-array body with a nested list is invalid_chunk; its flat elements are each read (2)', async () => {
    serve(JSON.stringify([chunk([call], 'STOP'), [{ error: { code: 500, message: 'x' } }]]), 'application/json');
    await expectBroken('invalid_chunk');
    serve(JSON.stringify([chunk([call], 'STOP'), chunk([], 'SAFETY')]), 'application/json');
    await expectBroken('protocol_violation');
  });

  it('a non-JSON event after STOP, last in the body, is invalid_chunk (3)', async () => {
    serve(`${data(chunk([call], 'STOP'))}data: garbage\n\n`);
    await expectBroken('invalid_chunk');
  });

  it.each([['[DONE]'], [' '], ['not json'], ['{"cut": ']])(
    'an event named error is an error whatever its data (%j), before or after STOP (4)',
    async (payload) => {
      serve(`${data(chunk([call]))}event: error\ndata: ${payload}\n\n${data(chunk([], 'STOP'))}`);
      await expectBroken();
      serve(`${data(chunk([call], 'STOP'))}event: ERROR\ndata: ${payload}\n\n`);
      await expectBroken();
    },
  );

  it('an event past maxEventBytes after STOP is the size refusal, not a benign end (5)', async () => {
    serve(data(chunk([call], 'STOP')) + data(chunk([{ text: 'x'.repeat(4096) }], 'SAFETY')));
    await expectBroken('response_too_large', { maxEventBytes: 1024 });
  });

  it('a connection dropped after STOP breaks the turn (5)', async () => {
    server.handle((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(data(chunk([call], 'STOP')));
      response.write('data: {"candi');
      setImmediate(() => response.socket?.destroy());
    });
    const { response, error } = await streamed();
    expect(GoogleCallError.isInstance(error)).toBe(true);
    expect(response.toolCalls.every((made) => made.refused === true)).toBe(true);
  });

  it.each([[3], ['SAFETY'], ['STOP']])('any finishReason after the finish is a violation (%j) (11)', async (reason) => {
    serve(data(chunk([call], 'STOP')) + data(chunk([], reason)));
    await expectBroken('protocol_violation');
  });
});

describe('streamed call parts', () => {
  const open = { functionCall: { name: 'delete_files', willContinue: true } };
  const piece = (path: string) => ({ jsonPath: '$.path', stringValue: path });

  it('a continuation part carrying args instead of partialArgs refuses the call (7)', async () => {
    serve(
      data(chunk([open])) +
        data(chunk([{ functionCall: { args: { path: '/' }, willContinue: true } }])) +
        data(chunk([{ functionCall: {} }], 'STOP')),
    );
    const { response } = await streamed();
    expect(response.finishReason).toBe('error');
    expect(response.toolCalls[0]?.refused).toBe(true);
    expect(response.toolCalls[0]?.invalid).toContain('args');
  });

  it('a value at a path that earlier entries built a list under refuses the call (8)', async () => {
    serve(
      data(chunk([open])) +
        data(
          chunk([
            { functionCall: { partialArgs: [{ jsonPath: '$.path[0]', stringValue: '/tmp/a' }], willContinue: true } },
          ]),
        ) +
        data(chunk([{ functionCall: { partialArgs: [piece('/')] } }], 'STOP')),
    );
    const { response } = await streamed();
    expect(response.toolCalls[0]?.refused).toBe(true);
  });

  it('signatures on continuation and closing parts are kept (9)', async () => {
    serve(
      data(chunk([{ ...open, thoughtSignature: 'SIG-FIRST' }])) +
        data(
          chunk([{ functionCall: { partialArgs: [piece('/tmp')], willContinue: true }, thoughtSignature: 'SIG-2' }]),
        ) +
        data(chunk([{ functionCall: {}, thoughtSignature: 'SIG-3' }], 'STOP')),
    );
    const { response } = await streamed();
    expect(response.toolCalls[0]?.extraContent).toEqual({ google: { thoughtSignature: 'SIG-FIRST' } });
    const kept = JSON.parse(
      Buffer.from((response.reasoningSignature as string).split(':')[1] as string, 'base64').toString('utf8'),
    );
    expect(kept).toEqual([
      { tinyCall: 'delete_files_0' },
      { thoughtSignature: 'SIG-2' },
      { thoughtSignature: 'SIG-3' },
    ]);
    // a call whose first part had none takes the first later signature
    serve(
      data(chunk([open])) +
        data(chunk([{ functionCall: { partialArgs: [piece('/tmp')] }, thoughtSignature: 'SIG-CONT' }], 'STOP')),
    );
    const later = await streamed();
    expect(later.response.toolCalls[0]?.extraContent).toEqual({ google: { thoughtSignature: 'SIG-CONT' } });
  });
});

describe('a whole response with streamed arguments (6)', () => {
  it.each([
    [
      'partialArgs and no args',
      [{ functionCall: { name: 'delete_files', partialArgs: [{ jsonPath: '$.path', stringValue: '/' }] } }],
    ],
    [
      'willContinue then a continuation part',
      [
        { functionCall: { name: 'delete_files', willContinue: true } },
        { functionCall: { partialArgs: [{ jsonPath: '$.path', stringValue: '/' }] } },
      ],
    ],
  ])('%s: every call refused, the turn finishes error, never run with {}', async (_name, parts) => {
    serve(JSON.stringify(chunk(parts, 'STOP')), 'application/json');
    const response = await model().doGenerate(ask);
    expect(response.finishReason).toBe('error');
    expect(response.toolCalls).toHaveLength(1);
    expect(response.toolCalls[0]?.refused).toBe(true);
  });
});
