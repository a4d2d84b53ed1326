import { describeAnswerClasses } from '@tiny/provider-tests';
import { createOpenAICompatible } from './create-openai-compatible.js';

// Answers a breaker found (issue 34, WIRE-3 fix), over a real 127.0.0.1 server: 200 bodies that are
// no completion (an error envelope, `{}`), an empty completion, and an error event mid-stream.
// Shapes from the OpenAI API reference (the chat completion object and chunk). A whole completion
// with two calls under one id refuses both, as every other adapter does (see refused-calls.test.ts).

const chunk = { id: 'c1', object: 'chat.completion.chunk', model: 'm' };

describeAnswerClasses({
  name: 'OpenAI-compatible answers that are no completion',
  create: (settings) => createOpenAICompatible(settings)('m'),
  wire: {
    emptyAnswer: {
      id: 'c1',
      object: 'chat.completion',
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'stop' }],
    },
    overloadedErrorEvent:
      `data: ${JSON.stringify({ ...chunk, choices: [{ index: 0, delta: { role: 'assistant', content: 'Hel' }, finish_reason: null }] })}\n\n` +
      `data: ${JSON.stringify({ error: { type: 'overloaded_error', message: 'Overloaded' } })}\n\n`,
  },
});
