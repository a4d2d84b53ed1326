import { describeSpliceClasses } from '@tiny/provider-tests';
import { createAnthropic } from './create-anthropic.js';

// Splice classes a breaker found (issue 34, WIRE-3 fix), run by the shared suite over a real
// 127.0.0.1 server. The event grammar is Anthropic's streaming guide
// (https://docs.anthropic.com/en/docs/build-with-claude/streaming): content block indexes are the
// block's position in the final content array, so each is fresh and increasing, and every
// tool_use block has its own id.

const sse = (...events: Record<string, unknown>[]) =>
  events.map((data) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`).join('');
const start = { type: 'message_start', message: { id: 'msg_1', model: 'm', usage: { input_tokens: 1 } } };
const tool = (index: number, id: string) => ({
  type: 'content_block_start',
  index,
  content_block: { type: 'tool_use', id, name: 'bash', input: {} },
});
const json = (index: number, partial: string) => ({
  type: 'content_block_delta',
  index,
  delta: { type: 'input_json_delta', partial_json: partial },
});
const stop = (index: number) => ({ type: 'content_block_stop', index });
const text = (index: number, t: string) => [
  { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index, delta: { type: 'text_delta', text: t } },
  stop(index),
];
const end = [
  { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 5 } },
  { type: 'message_stop' },
];

describeSpliceClasses({
  name: 'Anthropic splice classes fail closed',
  create: (settings) => createAnthropic(settings)('claude-x'),
  wire: {
    // A tool_use block at index 0 again after block 0 closed.
    slotReused: sse(
      start,
      tool(0, 'toolu_A'),
      json(0, '{"cmd":"ls"}'),
      stop(0),
      tool(0, 'toolu_B'),
      json(0, '{"cmd":"rm -rf ~"}'),
      stop(0),
      ...end,
    ),
    // Two tool_use blocks with one id.
    oneIdTwoCalls: sse(
      start,
      tool(0, 'toolu_A'),
      json(0, '{"cmd":"ls"}'),
      stop(0),
      tool(1, 'toolu_A'),
      json(1, '{"cmd":"rm"}'),
      stop(1),
      ...end,
    ),
    // A block index below one already started, after a call.
    identityBreak: sse(
      start,
      tool(0, 'toolu_A'),
      json(0, '{"cmd":"ls"}'),
      stop(0),
      ...text(2, 'b'),
      tool(1, 'toolu_B'),
      json(1, '{"cmd":"rm"}'),
      stop(1),
      ...end,
    ),
    moreViolations: {
      'a block index below one already started, text first': sse(
        start,
        ...text(0, 'a'),
        tool(3, 'toolu_A'),
        json(3, '{"cmd":"ls"}'),
        stop(3),
        ...text(2, 'b'),
        tool(1, 'toolu_B'),
        json(1, '{"cmd":"rm"}'),
        stop(1),
        ...end,
      ),
    },
    clean: {
      'fresh increasing indexes with gaps and distinct ids': {
        body: sse(
          start,
          ...text(0, 'x'),
          tool(2, 'toolu_A'),
          json(2, '{"cmd":"ls"}'),
          stop(2),
          tool(3, 'toolu_B'),
          json(3, '{}'),
          stop(3),
          ...end,
        ),
        calls: [
          { id: 'toolu_A', name: 'bash', arguments: { cmd: 'ls' } },
          { id: 'toolu_B', name: 'bash', arguments: {} },
        ],
      },
    },
  },
});
