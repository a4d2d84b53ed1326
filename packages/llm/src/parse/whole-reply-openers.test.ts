import { describe, expect, it } from 'vitest';
import type { ToolSchema } from '../spec/tool-schema.js';
import { feedAll } from './__fixtures__/stream-check.js';
import { createStreamScrubber } from './create-stream-scrubber.js';
import { parseToolCalls } from './parse-tool-calls.js';
import { createToolKnowledge } from './scan-context.js';
import { readProseMarker } from './whole-reply-openers.js';

const tools: ToolSchema[] = [
  {
    name: 'add',
    description: 'Add.',
    parameters: { type: 'object', properties: { a: { type: 'integer' } } },
  },
  {
    name: 'search',
    description: 'Search.',
    parameters: { type: 'object', properties: { query: { type: 'string' } } },
  },
];

/** Replies the batch parse reads whole by a reading other than JSON, from their first character. */
const replies = [
  '[add(a=1)]',
  '[add(a=1), search(query="x")]',
  '>>>add\n{"a": 1}',
  'all\nHello>>>add\n{"a": 1}',
  '>>>all\nHi there',
  'add\n{"a": 1}',
  'Action: ```json\n[{"tool_name": "add", "parameters": {"a": 1}}]\n```',
  '```xml\n<tool_call>\n{"name": "add", "arguments": {"a": 1}}\n</tool_call>\n```',
  ' ```json\n<tool_call>{"name": "add", "arguments": {"a": 1}}</tool_call>\n``` ',
  '```xml\n<tool_call>add[0|1]</tool_call>\n```',
];

describe('a reply that opens as a whole-reply reading, streamed', () => {
  it.each(replies)('ends with the batch parse of %j and never shows its markup', (reply) => {
    const batch = parseToolCalls(reply, { tools });
    expect(batch.calls.length + batch.text.length).toBeGreaterThan(0);
    for (const fragments of [[reply], [...reply]]) {
      const streamed = feedAll(fragments, { tools });
      expect(streamed.text).toBe(batch.text);
      expect(streamed.calls).toEqual(batch.calls);
    }
  });

  it('releases prose as soon as its start opens no reading', () => {
    const shown = feedAll(['[a', 'dd]', ' is a list'], { tools });
    expect(shown.text).toBe('[add] is a list');
    expect(shown.calls).toEqual([]);
    const prose = feedAll(['ad', 'ding up'], { tools });
    expect(prose.text).toBe('adding up');
  });
});

/** Replies the batch parse reads whole from a marker after prose. */
const afterProse = [
  'Hello there>>>add\n{"a": 1}',
  'Hi >>>add\n{"a": 1}>>>search\n{"query": "x"}',
  'Sure.\nAction: ```json\n[{"tool_name":"add","parameters":{"a":1}}]\n```',
  'Sure.\n  Action:\n```\n[{"tool_name":"add","parameters":{"a":1}}]\n```\nDone.',
];

describe('a Functionary `>>>` boundary or a Command R+ `Action:` line after prose, streamed', () => {
  it.each(afterProse)('ends with the batch parse of %j and never shows its markup', (reply) => {
    const batch = parseToolCalls(reply, { tools });
    expect(batch.calls.length).toBeGreaterThan(0);
    for (const fragments of [[reply], [...reply]]) {
      const streamed = feedAll(fragments, { tools });
      expect(streamed.text).toBe(batch.text);
      expect(streamed.calls).toEqual(batch.calls);
      expect(streamed.text).not.toContain('>>>');
      expect(streamed.text).not.toContain('Action');
    }
  });

  // A property's counterexample: the marker lies inside a block the block scrubber holds unclosed to the
  // end, so the guard's own reading of released text never saw it.
  it.each([
    '<function=add>[TOOL_CALLS][{"name":"add","arguments":{"a":7}}]>>>add\n',
    'Hello <function=add>[TOOL_CALLS][{"name":"add","arguments":{"a":7}}]>>>add\n',
    'Hi <tool_call>{"name":"add"\nAction: ```json\n[{"tool_name":"add","parameters":{"a":1}}]\n```',
  ])('lets the batch parse decide a marker held inside an unclosed block: %j', (reply) => {
    const batch = parseToolCalls(reply, { tools });
    for (const fragments of [[reply], [...reply]]) {
      const streamed = feedAll(fragments, { tools });
      expect(streamed.text).toBe(batch.text);
      expect(streamed.calls).toEqual(batch.calls);
    }
  });

  it('holds a `>` or a line-start `A` while it may become a marker, and releases it when it cannot', () => {
    const scrubber = createStreamScrubber({ tools });
    let shown = '';
    for (const piece of ['So', ' a >', '>', '>ad']) shown += scrubber.feed(piece).text;
    expect(shown).toBe('So a');
    for (const piece of ['ditional', ' text\nAct', 'ive']) shown += scrubber.feed(piece).text;
    expect(shown).toBe('So a >>>additional text\nActive');
    expect(shown + scrubber.flush().text).toBe('So a >>>additional text\nActive');
  });
});

describe('a reply opening on `>>>` or `Action:` that cannot be a call, streamed', () => {
  const call = '{"name":"search","arguments":{"query":"x"}}';

  it.each([
    ['Action: none needed.\n', 'Second line.\n', 'Third line.\n'],
    ['>>> quoted text\n', 'second line\n', 'third line\n'],
    ['>>>', ' quoted text\n', 'second line\n'],
  ])('releases %j line by line once its first line opens no call', (...lines) => {
    const scrubber = createStreamScrubber({ tools });
    let shown = '';
    let fed = '';
    for (const line of lines) {
      fed += line;
      shown += scrubber.feed(line).text;
      // After a whole line, only its newline may wait (it may end the narrative); `>>>` alone may still open.
      if (line.endsWith('\n')) expect(fed.length - shown.length).toBeLessThanOrEqual(1);
    }
    expect(shown + scrubber.flush().text).toBe(parseToolCalls(fed, { tools }).text);
  });

  it.each(['>>> quoted text\nmore ', '>>>quoted text\nmore ', 'Action: none.\nmore '])(
    'reads the call JSON in prose after %j, in batch and stream alike',
    (prose) => {
      const reply = prose + call;
      const batch = parseToolCalls(reply, { tools });
      expect(batch.calls.map((parsed) => parsed.name)).toEqual(['search']);
      expect(batch.text).not.toContain('"arguments"');
      for (const fragments of [[reply], [...reply]]) {
        const streamed = feedAll(fragments, { tools });
        expect(streamed.text).toBe(batch.text);
        expect(streamed.calls).toEqual(batch.calls);
      }
    },
  );
});

describe('readProseMarker', () => {
  const knowledge = createToolKnowledge(tools);
  it.each([
    ['>', 'undecided'],
    ['>>', 'undecided'],
    ['>>>se', 'undecided'],
    ['>>>add\n', 'opened'],
    ['>>>all\n', 'opened'],
    ['>>>adder\n', 'closed'],
    ['> b', 'closed'],
    ['Acti', 'undecided'],
    ['Action: ``', 'undecided'],
    ['Action: ```jso', 'undecided'],
    ['Action:\n```json \n', 'opened'],
    ['Action: taken', 'closed'],
    ['>>> quoted text', 'closed'],
    ['Active', 'closed'],
  ] as const)('reads %j as %s', (marker, state) => {
    expect(readProseMarker(marker, knowledge)).toBe(state);
  });
  it('reads no marker without offered tools', () => {
    expect(readProseMarker('>>>add\n', createToolKnowledge(undefined))).toBe('closed');
  });
});
