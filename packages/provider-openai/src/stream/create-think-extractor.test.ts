import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createThinkExtractor, extractThinking } from './create-think-extractor.js';

function streamed(fragments: readonly string[]) {
  const extractor = createThinkExtractor();
  let reasoning = '';
  let text = '';
  for (const fragment of fragments) {
    const split = extractor.feed(fragment);
    reasoning += split.reasoning;
    text += split.text;
  }
  const last = extractor.flush();
  return { reasoning: reasoning + last.reasoning, text: text + last.text };
}

describe('createThinkExtractor (P5)', () => {
  it('moves a leading think block into reasoning and drops the whitespace around it', () => {
    expect(extractThinking('<think>\nThe user wants pong.\n</think>\n\npong')).toEqual({
      reasoning: 'The user wants pong.\n',
      text: 'pong',
    });
  });

  it('gives no reasoning for an empty block', () => {
    expect(extractThinking('<think>\n\n</think>\n\nHello')).toEqual({ reasoning: '', text: 'Hello' });
  });

  it('leaves a think tag that does not open the content as text', () => {
    expect(extractThinking('Use <think> tags.')).toEqual({ reasoning: '', text: 'Use <think> tags.' });
    expect(extractThinking('<thinking>x</thinking>')).toEqual({ reasoning: '', text: '<thinking>x</thinking>' });
  });

  it('treats an unclosed block as all reasoning (a cut-off answer)', () => {
    expect(extractThinking('<think>still going')).toEqual({ reasoning: 'still going', text: '' });
  });

  it('holds partial markers back across fragments', () => {
    const extractor = createThinkExtractor();
    expect(extractor.feed('  <thi')).toEqual({ reasoning: '', text: '' });
    expect(extractor.feed('nk>plan</th')).toEqual({ reasoning: 'plan', text: '' });
    expect(extractor.feed('ink>\nanswer')).toEqual({ reasoning: '', text: 'answer' });
    expect(extractor.flush()).toEqual({ reasoning: '', text: '' });
  });

  it('gives the same split for any chunking', () => {
    const piece = fc.constantFrom('<think>', '</think>', '<th', 'ink>', '</', '\n', ' ', 'a', 'b c', '<');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 6 }), (pieces, cuts) => {
        const text = pieces.join('');
        const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        const fragments: string[] = [];
        let at = 0;
        for (const point of points) {
          fragments.push(text.slice(at, point));
          at = point;
        }
        fragments.push(text.slice(at));
        expect(streamed(fragments)).toEqual(extractThinking(text));
      }),
    );
  });
});
