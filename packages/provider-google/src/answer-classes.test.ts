import { describeAnswerClasses } from '@tiny/provider-tests';
import { createGoogle } from './create-google.js';

// Answers a breaker found (issue 34, WIRE-3), over a real 127.0.0.1 server, in Gemini's wire form
// (the generateContent reference: candidates[].content.parts[], functionCall with an id as Vertex
// and Gemini 3 send it; streamGenerateContent?alt=sse events): an empty model turn, two calls
// under one id, and an OpenAI-shaped error event a relay puts into a Gemini stream.

const turn = (parts: unknown[]) => ({
  candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
  usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
  modelVersion: 'gemini-2.5-flash',
  responseId: 'Un6LacrVMcjUxs0PmJfWoQc',
});

describeAnswerClasses({
  name: 'Gemini answers that are no response',
  create: (settings) => createGoogle(settings)('gemini-2.5-flash'),
  wire: {
    emptyAnswer: turn([]),
    twoCallsOneId: turn([
      { functionCall: { id: 'x', name: 'bash', args: { cmd: 'ls' } } },
      { functionCall: { id: 'x', name: 'bash', args: { cmd: 'rm' } } },
    ]),
    overloadedErrorEvent:
      `data: ${JSON.stringify({ ...turn([{ text: 'Hel' }]), candidates: [{ content: { role: 'model', parts: [{ text: 'Hel' }] }, index: 0 }] })}\r\n\r\n` +
      `data: ${JSON.stringify({ error: { type: 'overloaded_error', message: 'Overloaded' } })}\r\n\r\n`,
  },
});
