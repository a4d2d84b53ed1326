import { describeHostileServer, type HostileServerWire } from '@tiny/provider-tests';
import { createGoogle } from './create-google.js';
import { GoogleCallError } from './errors/google-call-error.js';

// Hostile servers (issue 34's breakers), run by the shared suite over real 127.0.0.1 servers, in
// Gemini's wire form (generateContent and streamGenerateContent?alt=sse). The suite answers a
// request JSON unless its body says `stream: true`, which Gemini's never does (the method is in the
// path): the streamed half reads a JSON answer to a streamed request, which the adapter accepts.

const response = (raw: string, withCall: boolean) => ({
  candidates: [
    {
      content: {
        role: 'model',
        parts: withCall ? [{ functionCall: { name: 'write_file', args: { path: 'a' } } }] : [{ text: 'done' }],
      },
      finishReason: raw,
      index: 0,
    },
  ],
  usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
  modelVersion: 'gemini-2.5-flash',
  responseId: 'hostileLacKqGqH0xs0P0O776As',
});

const wire: HostileServerWire = {
  path: '/v1/models/gemini-2.5-flash:generateContent',
  keyHeader: 'x-goog-api-key',
  turn: (raw, withCall) => ({
    json: response(raw, withCall),
    sse: `data: ${JSON.stringify(response(raw, withCall))}\r\n\r\n`,
  }),
  brokenEndings: [
    ['MAX_TOKENS', 'length'],
    ['SAFETY', 'content_filter'],
    ['RECITATION', 'content_filter'],
    ['MALFORMED_FUNCTION_CALL', 'error'],
    ['UNEXPECTED_TOOL_CALL', 'error'],
    ['OTHER', 'error'],
    ['something_new', 'error'],
  ],
  giantEventOpening: 'data: {"candidates":[{"content":{"parts":[{"text":"',
  keepAlives: [': keep-alive\r\n\r\n'],
};

describeHostileServer({
  name: 'Gemini against a hostile server',
  create: (settings) => createGoogle(settings)('gemini-2.5-flash'),
  errorClass: GoogleCallError,
  wire,
});
