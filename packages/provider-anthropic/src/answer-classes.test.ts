import { describeAnswerClasses } from '@tiny/provider-tests';
import { createAnthropic } from './create-anthropic.js';

// Answers a breaker found (issue 34, WIRE-3 fix), over a real 127.0.0.1 server: 200 bodies that are
// no message (an OpenAI-shaped error envelope a relay sends, `{}`), a message with content: [], a
// whole message with two tool_use blocks under one id, and an OpenAI-shaped error event in a
// Messages stream. Shapes from Anthropic's Messages API reference and streaming guide.

describeAnswerClasses({
  name: 'Anthropic answers that are no message',
  create: (settings) => createAnthropic(settings)('claude-x'),
  wire: {
    emptyAnswer: { id: 'm', type: 'message', role: 'assistant', content: [], stop_reason: 'end_turn', usage: {} },
    twoCallsOneId: {
      id: 'm',
      type: 'message',
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'x', name: 'bash', input: { cmd: 'ls' } },
        { type: 'tool_use', id: 'x', name: 'bash', input: { cmd: 'rm' } },
      ],
      stop_reason: 'tool_use',
      usage: {},
    },
    overloadedErrorEvent:
      `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { id: 'm', usage: {} } })}\n\n` +
      `data: ${JSON.stringify({ error: { type: 'overloaded_error', message: 'Overloaded' } })}\n\n`,
  },
});
