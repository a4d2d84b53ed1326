import { describeSpliceClasses } from '@tiny/provider-tests';
import { createGoogle } from './create-google.js';

// Splice classes (issue 34, WIRE-3), run by the shared suite over a real 127.0.0.1 server, in
// Gemini's own stream grammar: every event is a whole GenerateContentResponse of one responseId and
// modelVersion; a call is one functionCall part, or (Vertex streamFunctionCallArguments, as the AI
// SDK's recorded google-stream-tool-call-arguments.chunks.txt shows) a part with willContinue whose
// partialArgs follow until a part without willContinue or an empty functionCall closes it.

const event = (parts: unknown[], extra: Record<string, unknown> = {}, finish?: string) =>
  `data: ${JSON.stringify({
    candidates: [
      { content: { role: 'model', parts }, index: 0, ...(finish === undefined ? {} : { finishReason: finish }) },
    ],
    modelVersion: 'gemini-2.5-flash',
    responseId: 'dqHOab6xGLzWodAPkPuViA4',
    ...extra,
  })}\r\n\r\n`;
const call = (args: unknown, id?: string) => ({
  functionCall: { ...(id === undefined ? {} : { id }), name: 'bash', args },
});
const open = { functionCall: { name: 'bash', willContinue: true } };
const piece = (value: string, more = true) => ({
  functionCall: { partialArgs: [{ jsonPath: '$.cmd', stringValue: value }], ...(more ? { willContinue: true } : {}) },
});
const stop = event([{ text: '' }], {}, 'STOP');

describeSpliceClasses({
  name: 'Gemini splice classes fail closed',
  create: (settings) => createGoogle(settings)('gemini-2.5-flash'),
  wire: {
    // Arguments again after the streamed call closed.
    slotReused: event([open]) + event([piece('ls', false)]) + event([piece('rm -rf ~', false)]) + stop,
    // Two calls under one API id.
    oneIdTwoCalls: event([call({ cmd: 'ls' }, 'c1')]) + event([call({ cmd: 'rm' }, 'c1')]) + stop,
    // A second response spliced in: the responseId changes.
    identityBreak: event([call({ cmd: 'ls' })]) + event([call({ cmd: 'rm' })], { responseId: 'another' }) + stop,
    moreViolations: {
      'the model changes mid-stream':
        event([call({ cmd: 'ls' })]) + event([], { modelVersion: 'gemini-2.5-pro' }, 'STOP'),
      'a candidate other than 0':
        event([call({ cmd: 'ls' })]) +
        event([call({ cmd: 'rm' })], { candidates: [{ index: 1, content: { parts: [call({ cmd: 'rm' })] } }] }) +
        stop,
      'a call begun while a streamed one is open':
        event([open]) + event([piece('ls')]) + event([call({ cmd: 'rm' })]) + stop,
      'a call after the finish reason': event([call({ cmd: 'ls' })], {}, 'STOP') + event([call({ cmd: 'rm' })]),
    },
    clean: {
      'two calls of one function with different arguments, no ids': {
        body: event([call({ cmd: 'ls' })]) + event([call({ cmd: 'pwd' })]) + stop,
        calls: [
          { name: 'bash', arguments: { cmd: 'ls' } },
          { name: 'bash', arguments: { cmd: 'pwd' } },
        ],
      },
      'one call sent again exactly: the same call, run once': {
        body: event([call({ cmd: 'ls' })]) + event([call({ cmd: 'ls' })]) + stop,
        calls: [{ name: 'bash', arguments: { cmd: 'ls' } }],
      },
      'streamed arguments closed by an empty functionCall': {
        body: event([open]) + event([piece('l')]) + event([piece('s')]) + event([{ functionCall: {} }]) + stop,
        calls: [{ name: 'bash', arguments: { cmd: 'ls' } }],
      },
    },
  },
});
