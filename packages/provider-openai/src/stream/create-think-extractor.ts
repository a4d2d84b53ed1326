const OPEN = '<think>';
const CLOSE = '</think>';

/** What one step of a {@link ThinkExtractor} releases. */
export interface ThinkSplit {
  /** Reasoning text from inside the leading `<think>` block. */
  readonly reasoning: string;
  /** Visible text. */
  readonly text: string;
}

/** Splits a leading `<think>…</think>` block off streamed content. */
export interface ThinkExtractor {
  /** Adds the next fragment; returns what is now certain to be reasoning or text. */
  feed(fragment: string): ThinkSplit;
  /** Ends the content: a dangling partial `<think` is text, an unclosed block is all reasoning. */
  flush(): ThinkSplit;
}

/** The length of the longest suffix of `text` that is a proper prefix of `marker`. */
function partialSuffix(text: string, marker: string): number {
  for (let length = Math.min(marker.length - 1, text.length); length > 0; length--) {
    if (marker.startsWith(text.slice(text.length - length))) return length;
  }
  return 0;
}

/**
 * Creates a stream-safe extractor for inline reasoning (P5): models served by llama.cpp, Ollama,
 * vLLM or LM Studio without a reasoning parser write their thinking into the content as a leading
 * `<think>…</think>` block. Only a block at the very start (after optional whitespace) counts; a
 * `<think>` later in the text is ordinary text. Whitespace at the start of the reasoning and right
 * after `</think>` is dropped, so an empty block (`<think>\n\n</think>\n\n`) yields no reasoning.
 *
 * For any text and any split into fragments, the concatenated output of every `feed` and the
 * final `flush` is the same: partial markers are held back until they are decided.
 */
export function createThinkExtractor(): ThinkExtractor {
  let state: 'lead' | 'open' | 'think' | 'after' | 'text' = 'lead';
  let held = '';

  function step(fragment: string, final: boolean): ThinkSplit {
    let reasoning = '';
    let text = '';
    let input = held + fragment;
    held = '';
    while (input !== '') {
      if (state === 'lead') {
        const trimmed = input.trimStart();
        if (trimmed.startsWith(OPEN)) {
          state = 'open';
          input = trimmed.slice(OPEN.length);
          continue;
        }
        if (!final && OPEN.startsWith(trimmed)) {
          held = input;
          break;
        }
        state = 'text';
        continue;
      }
      if (state === 'open' || state === 'after') {
        input = input.trimStart();
        if (input !== '') state = state === 'open' ? 'think' : 'text';
        continue;
      }
      if (state === 'think') {
        const close = input.indexOf(CLOSE);
        if (close >= 0) {
          reasoning += input.slice(0, close);
          state = 'after';
          input = input.slice(close + CLOSE.length);
          continue;
        }
        const keep = final ? 0 : partialSuffix(input, CLOSE);
        reasoning += input.slice(0, input.length - keep);
        held = input.slice(input.length - keep);
        break;
      }
      text += input;
      break;
    }
    return { reasoning, text };
  }

  return {
    feed: (fragment) => step(fragment, false),
    flush: () => step('', true),
  };
}

/** Splits a whole content string with {@link createThinkExtractor}. @internal */
export function extractThinking(content: string): ThinkSplit {
  const extractor = createThinkExtractor();
  const first = extractor.feed(content);
  const last = extractor.flush();
  return { reasoning: first.reasoning + last.reasoning, text: first.text + last.text };
}
