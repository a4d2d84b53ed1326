import { describe, expect, it } from 'vitest';
import { compareStream } from './__fixtures__/stream-check.js';
import { createStreamScrubber } from './create-stream-scrubber.js';

/** What a scrubber fed `text` one character at a time has shown after each character. */
function shownAfterEach(text: string): string[] {
  const scrubber = createStreamScrubber();
  let shown = '';
  return [...text].map((character) => {
    shown += scrubber.feed(character).text;
    return shown;
  });
}

describe('a tail held as the start of an opener, streamed', () => {
  it.each([
    // `]` may start MiniMax's `]<]minimax[>[`, `[` Mistral's `[TOOL_CALLS]`, `<` a tag.
    ['a ] in prose', 'see the list [1, 2] and more words here.', '] and'],
    ['a [ in prose', 'pick [a] or [b] then go on.', '[a'],
    ['a < in prose', 'when x < y then stop.', '< y'],
    ['a partial tag', 'the <tool_ca then prose.', '<tool_ca then'],
  ])('is shown once the next character shows it is prose: %s', (_name, text, through) => {
    const shown = shownAfterEach(text);
    const end = text.indexOf(through) + through.length;
    // After the word that follows the held characters, everything up to it has been shown.
    expect(shown[end - 1]).toBe(text.slice(0, end));
    expect(compareStream([...text]).streamedText).toBe(text);
  });

  it('still holds an opener that the next characters extend, and reads its call', () => {
    const text = 'ok ]<]minimax[>[ nothing <tool_call>{"name": "add", "arguments": {}}</tool_call> end';
    const shown = shownAfterEach(text);
    expect(shown[text.indexOf('<]minimax')]).toBe('ok');
    const result = compareStream([...text]);
    expect(result.streamedText).toBe(result.batchText);
    expect(result.streamedCalls).toEqual(result.batchCalls);
  });
});
