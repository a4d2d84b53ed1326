import { describe, expect, it } from 'vitest';
import { recordAssistantTurn } from './record-assistant-turn.js';

/** An object nesting `depth` levels: `{"x":{"x":...1}}`, built without recursion. */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { x: 1 };
  for (let level = 1; level < depth; level += 1) value = { x: value };
  return value;
}

describe('recordAssistantTurn with hostile arguments', () => {
  it('records arguments nested 5,000 deep as a placeholder instead of overflowing the stack', () => {
    const message = recordAssistantTurn({ content: '' }, { replayText: '' }, [
      { id: 'a', name: 'x', arguments: nested(5_000), source: 'native' },
    ]);
    expect(message.toolCalls?.[0]?.arguments).toBe('<arguments nested deeper than 64 levels>');
  });

  it('still serialises arguments within 64 levels', () => {
    const message = recordAssistantTurn({ content: '' }, { replayText: '' }, [
      { id: 'a', name: 'x', arguments: nested(64), source: 'native' },
    ]);
    expect(JSON.parse(message.toolCalls?.[0]?.arguments ?? '')).toEqual(nested(64));
  });
});
