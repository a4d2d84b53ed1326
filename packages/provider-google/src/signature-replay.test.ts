// A model turn's parts come back on the next request exactly: in their order, each
// thoughtSignature on its own part (the providers3-google tester's signature cases; the part
// shapes follow the Gemini API's thought-signature guide: a signature may stand on a call, on
// text, on code, or alone). Served from 127.0.0.1, whole and streamed.
import { collectStream, type LanguageModelV1Request, type LanguageModelV1Response, type Message } from '@tiny/llm';
import { useLoopbackServer } from '@tiny/provider-tests';
import { describe, expect, it } from 'vitest';
import { createGoogle } from './create-google.js';
import { buildRequestBody } from './request/build-request-body.js';
import { encodeReplayParts } from './request/replay-parts.js';

const server = useLoopbackServer();
const model = () => createGoogle({ baseURL: `${server.url()}/v1beta`, apiKey: 'AIza-replay-key' })('gemini-2.5-flash');
const ask: LanguageModelV1Request = { messages: [{ role: 'user', content: 'go' }] };
const call = (path: string) => ({ functionCall: { name: 'delete_files', args: { path } } });

/** Serves `parts` as one answer, whole or one part per event. */
function serve(parts: unknown[], stream: boolean): void {
  server.handle((_request, response) => {
    const candidate = (of: unknown[], last: boolean) => ({
      candidates: [{ content: { role: 'model', parts: of }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
    });
    if (!stream) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(candidate(parts, true)));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.end(
      parts
        .map((part, index) => `data: ${JSON.stringify(candidate([part], index === parts.length - 1))}\r\n\r\n`)
        .join(''),
    );
  });
}

/** The model turn the next request sends for `response`, recorded as the harness records it. */
function replayed(response: LanguageModelV1Response): unknown[] {
  const assistant: Message = {
    role: 'assistant',
    content: [
      ...(response.reasoning === undefined && response.reasoningSignature === undefined
        ? []
        : [{ type: 'reasoning' as const, text: response.reasoning ?? '', signature: response.reasoningSignature }]),
      ...(response.content === '' ? [] : [{ type: 'text' as const, text: response.content }]),
    ],
    // the transcript holds each call's argument text
    toolCalls: response.toolCalls.map((made) => ({
      id: made.id,
      name: made.name,
      arguments: typeof made.arguments === 'string' ? made.arguments : JSON.stringify(made.arguments),
      ...(made.extraContent === undefined ? {} : { extraContent: made.extraContent }),
    })),
  };
  const { body } = buildRequestBody(
    { messages: [{ role: 'user', content: 'go' }, assistant] },
    {
      provider: 'google',
      profile: model().profile,
      schemaMode: 'json-schema',
      providerOptions: {},
    },
  );
  return (
    (body.contents as { role: string; parts: unknown[] }[]).find((content) => content.role === 'model')?.parts ?? []
  );
}

const CASES: ReadonlyArray<readonly [string, unknown[]]> = [
  // providers3-google-r2 a03: a signature on an inlineData part stays on that part
  [
    'a signed inlineData part before a call',
    [{ inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' }, thoughtSignature: 'SIG-IMG' }, call('/a')],
  ],
  ['a signature-only part before a call', [{ thoughtSignature: 'SIG4+/=' }, call('/a')]],
  [
    'a signed call, then signed text',
    [
      { ...call('/a'), thoughtSignature: 'SIG6+/=' },
      { text: 'Done?', thoughtSignature: 'SIG7+/=' },
    ],
  ],
  [
    'signed code, then a call',
    [{ executableCode: { language: 'PYTHON', code: 'print(1)' }, thoughtSignature: 'SIG8+/=' }, call('/a')],
  ],
  [
    'code, its result, text, a signed call, a signed thought',
    [
      { executableCode: { language: 'PYTHON', code: 'print(1)' } },
      { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1\n' } },
      { text: 'It printed 1.' },
      { ...call('/b'), thoughtSignature: 'SIG10' },
      { text: 'more thinking', thought: true, thoughtSignature: 'SIG11' },
    ],
  ],
];

describe.each([
  ['whole', false],
  ['streamed', true],
])('a %s answer', (_name, stream) => {
  const answer = async (): Promise<LanguageModelV1Response> =>
    stream ? collectStream(await model().doStream(ask)) : model().doGenerate(ask);

  it.each(CASES)('%s is replayed exactly, in order', async (_case, parts) => {
    serve(parts, stream);
    expect(replayed(await answer())).toEqual(parts);
  });

  it('a dropped exact-repeat copy keeps its signature in its place (the call itself is sent once)', async () => {
    serve([call('/a'), { ...call('/a'), thoughtSignature: 'SIG9+/=' }], stream);
    const response = await answer();
    expect(response.toolCalls).toHaveLength(1);
    expect(replayed(response)).toEqual([call('/a'), { thoughtSignature: 'SIG9+/=' }]);
  });
});

describe('a recorded envelope', () => {
  it('puts each call in its place and never makes a call the turn does not hold', () => {
    const assistant: Message = {
      role: 'assistant',
      content: [
        {
          type: 'reasoning',
          text: '',
          signature: encodeReplayParts([
            { tinyCall: 'c2' },
            { text: 'between', thoughtSignature: 'S1' },
            { tinyCall: 'nobody' },
            { tinyCall: 'c1' },
          ]),
        },
        { type: 'text', text: 'between' },
      ],
      toolCalls: [
        { id: 'c1', name: 'a', arguments: '{}' },
        { id: 'c2', name: 'b', arguments: '{}' },
        { id: 'c3', name: 'c', arguments: '{}' },
      ],
    };
    const { body } = buildRequestBody(
      { messages: [{ role: 'user', content: 'go' }, assistant] },
      { provider: 'google', profile: model().profile, schemaMode: 'json-schema', providerOptions: {} },
    );
    expect((body.contents as { parts: unknown[] }[])[1]?.parts).toEqual([
      { functionCall: { name: 'b', args: {} } },
      { text: 'between', thoughtSignature: 'S1' },
      { functionCall: { name: 'a', args: {} } },
      { functionCall: { name: 'c', args: {} } },
    ]);
  });
});
