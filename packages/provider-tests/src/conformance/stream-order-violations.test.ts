import { describe, expect, it } from 'vitest';
import { streamOrderViolations } from './stream-order-violations.js';

describe('streamOrderViolations', () => {
  it('accepts the documented order', () => {
    expect(
      streamOrderViolations([
        { type: 'response_metadata', id: 'r' },
        { type: 'text_delta', delta: 'a' },
        { type: 'tool_call_start', id: 'c', name: 'f' },
        { type: 'tool_call_delta', id: 'c', argumentsDelta: '{}' },
        { type: 'tool_call_end', id: 'c' },
        { type: 'finish', finishReason: 'tool_calls', usage: {} },
      ]),
    ).toEqual([]);
  });

  it('lists every break', () => {
    expect(
      streamOrderViolations([
        { type: 'text_delta', delta: 'a' },
        { type: 'response_metadata', id: 'r' },
        { type: 'tool_call_delta', id: 'c', argumentsDelta: '{}' },
        { type: 'finish', finishReason: 'stop', usage: {} },
        { type: 'text_delta', delta: 'late' },
      ]),
    ).toEqual([
      'part 1 (response_metadata): response_metadata after content',
      'part 2 (tool_call_delta): call c before its tool_call_start',
      'part 4 (text_delta): after the terminal part 3',
    ]);
    expect(streamOrderViolations([])).toEqual(['no finish or error part']);
  });
});
