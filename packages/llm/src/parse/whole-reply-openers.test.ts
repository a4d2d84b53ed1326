import { describe, expect, it } from 'vitest';
import type { ToolSchema } from '../spec/tool-schema.js';
import { feedAll } from './__fixtures__/stream-check.js';
import { parseToolCalls } from './parse-tool-calls.js';

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
