import { memoizeForward } from '../forward-finder.js';
import type { ScanContext } from '../scan-context.js';
import { type Block, countCharacters, type Grammar } from '../scan-types.js';
import { skipWhitespace } from '../text-scanning.js';
import { declaresString } from './declared-string.js';
import { readInvokeArguments } from './invoke-xml-arguments.js';
import { type InvokeTag, matchInvokeTag, PARTIAL_TAG } from './invoke-xml-tags.js';
import { readPythonicList } from './pythonic.js';

/** The longest `</ | DSML | ` or `ns:` prefix between `<` and the keyword. */
const MAX_TAG_PREFIX = 72;

/**
 * @internal Invoke-XML (source `invoke_xml`): Claude `<invoke name="x"><parameter name="k">v</parameter></invoke>`,
 * DeepSeek DSML `<｜DSML｜invoke name="x">`, namespaced `<ns:invoke name="x">`, Gemma
 * `<function name="x">` and Llama/Qwen `<function=x><parameter=k>v</parameter></function>`. An invoke
 * closes at its own closer, `</function>` or a stray `</tool_call>`. Wrapper tags (`<tool_calls>`,
 * `<function_calls>`, `<calls>`, MiniMax's `<minimax:tool_call>`) are furniture when they close, carry a prefix, or are directly
 * followed by an invoke; a bare opening wrapper followed by anything else stays as prose. An empty
 * name is a malformed block.
 */
export function createInvokeXmlGrammar(context: ScanContext): Grammar {
  const { text, lower, mode } = context;
  const closers = context.finder('</');
  const valueOpen = context.finder('<param', true);
  const valueClose = context.finder('</param', true);
  const cdataOpen = context.finder('<![CDATA[');
  const cdataClose = context.finder(']]>');
  const words = ['invoke', 'function', 'calls', ':tool_call'].map((word) => context.finder(word, true));

  /**
   * The next `<` at or after `from` that may open an invoke tag or wrapper: the `<` before the next
   * `invoke`, `function` or `calls` (at most {@link MAX_TAG_PREFIX} characters before the word).
   */
  const nextCandidate = memoizeForward((from) => {
    let best = -1;
    for (const finder of words) {
      for (let word = finder.next(from); word >= 0; word = finder.next(word + 1)) {
        const angle = angleBefore(word);
        if (angle >= from) {
          if (best < 0 || angle < best) best = angle;
          break;
        }
        if (best >= 0 && word > best) break;
      }
    }
    return best;
  });

  const nextCloser = memoizeForward((from) => {
    for (let index = closers.next(from); index >= 0; index = closers.next(index + 1)) {
      const tag = matchInvokeTag(text, lower, index);
      if (typeof tag === 'object' && tag.kind === 'close') return index;
    }
    return -1;
  });

  /** The last `<` at most {@link MAX_TAG_PREFIX} characters before `word`, or -1. */
  function angleBefore(word: number): number {
    const floor = Math.max(0, word - MAX_TAG_PREFIX);
    for (let index = word - 1; index >= floor; index--) {
      if (text.charCodeAt(index) === 60) return index;
    }
    return -1;
  }

  function findNext(from: number): Block | undefined {
    for (let index = nextCandidate.next(from); index >= 0; index = nextCandidate.next(index + 1)) {
      const tag = matchInvokeTag(text, lower, index);
      if (tag === PARTIAL_TAG) {
        if (mode === 'stream') return { kind: 'pending', start: index, end: text.length };
        continue;
      }
      if (tag === undefined) continue;
      if (tag.kind === 'wrapper') {
        const block = wrapperBlock(index, tag);
        if (block !== undefined) return block;
        continue;
      }
      if (tag.kind === 'open') return invokeBlock(index, tag);
    }
    return undefined;
  }

  function wrapperBlock(start: number, tag: InvokeTag & { kind: 'wrapper' }): Block | undefined {
    if (tag.closing || tag.prefixed) return { kind: 'furniture', start, end: tag.end };
    const next = skipWhitespace(text, tag.end);
    if (next >= text.length) return mode === 'stream' ? { kind: 'pending', start, end: text.length } : undefined;
    if (text.charCodeAt(next) !== 60) return codeCallsBlock(start, tag);
    const following = matchInvokeTag(text, lower, next);
    if (following === PARTIAL_TAG) return mode === 'stream' ? { kind: 'pending', start, end: text.length } : undefined;
    return following?.kind === 'open' ? { kind: 'furniture', start, end: tag.end } : undefined;
  }

  /**
   * OLMo 3 writes Python calls, one per line, inside `<function_calls>…</function_calls>`: with
   * offered tools, a bare wrapper whose body reads as such calls (every callee an offered tool) is a
   * block of pythonic calls; an unreadable sibling is dropped with a diagnostic. Anything else stays
   * prose, as before.
   */
  function codeCallsBlock(start: number, tag: InvokeTag & { kind: 'wrapper' }): Block | undefined {
    if (context.knowledge.registry === undefined) return undefined;
    const word = lower.slice(start + 1, tag.end - 1).trim();
    if (!/^[a-z_]+$/.test(word)) return undefined;
    const close = context.finder(`</${word}>`, true).next(tag.end);
    if (close < 0) return mode === 'stream' ? { kind: 'pending', start, end: text.length } : undefined;
    const body = text.slice(tag.end, close);
    const lines = body
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '');
    const list =
      readPythonicList(`[${body}]`, context.knowledge) ?? readPythonicList(`[${lines.join(',')}]`, context.knowledge);
    if (list === undefined) return undefined;
    return { kind: 'calls', start, end: close + word.length + 3, calls: list.calls, dropped: list.dropped };
  }

  /**
   * The invoke's closer after `from`, looked for after each parameter value (`<parameter…>` /
   * `<param…>` up to its closing tag, CDATA sections inside it skipped whole), so a `</function>`
   * or `</invoke>` written inside a value is content. In a complete text, a value without its
   * closing tag falls back to the first closer; a value or CDATA section still open at the end of a
   * stream is waited for (-1).
   */
  function closerAfterValues(from: number): number {
    let position = from;
    for (;;) {
      const close = nextCloser.next(position);
      const value = valueOpen.next(position);
      if (close < 0 || value < 0 || value > close) return close;
      let cursor = value + 6;
      for (;;) {
        const valueEnd = valueClose.next(cursor);
        const cdata = cdataOpen.next(cursor);
        if (cdata >= 0 && (valueEnd < 0 || cdata < valueEnd)) {
          const cdataEnd = cdataClose.next(cdata + 9);
          if (cdataEnd < 0) return mode === 'stream' ? -1 : close;
          cursor = cdataEnd + 3;
          continue;
        }
        if (valueEnd < 0) return mode === 'stream' ? -1 : close;
        cursor = valueEnd + 7;
        break;
      }
      position = cursor;
    }
  }

  function invokeBlock(start: number, tag: InvokeTag & { kind: 'open' }): Block {
    const close = closerAfterValues(tag.end);
    if (close < 0) {
      // Only a closing tag (each ends in `>`) after the last value can end it.
      if (mode === 'stream') return { kind: 'pending', start, end: text.length, decidedBy: '>' };
      return { kind: 'unterminated', start, end: tag.end };
    }
    const closeTag = matchInvokeTag(text, lower, close);
    const end = typeof closeTag === 'object' ? closeTag.end : close + 2;
    if (tag.name === '') return { kind: 'malformed', start, end, bodyChars: countCharacters(text, tag.end, close) };
    const name = tag.name;
    const decoded = readInvokeArguments(text, lower, tag.end, close, (parameter) =>
      declaresString(context.knowledge, name, parameter),
    );
    return {
      kind: 'calls',
      start,
      end,
      calls: [
        {
          name: tag.name,
          arguments: decoded.arguments,
          source: 'invoke_xml',
          repaired: decoded.repaired,
          ...(decoded.invalid === undefined ? {} : { invalid: decoded.invalid }),
        },
      ],
    };
  }

  function holdFrom(floor: number): number {
    const last = text.lastIndexOf('<');
    if (last < floor) return -1;
    return matchInvokeTag(text, lower, last) === PARTIAL_TAG ? last : -1;
  }

  return { source: 'invoke_xml', findNext, holdFrom };
}
