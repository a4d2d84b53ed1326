import { recoverLeadingObject } from '../../repair/recover-leading-object.js';
import { closerPastJson } from '../closer-past-json.js';
import { parseJsonStrict } from '../extract-json-values.js';
import { memoizeForward } from '../forward-finder.js';
import { isRecord } from '../own-properties.js';
import { readCalls } from '../read-call-object.js';
import { invalidArguments } from '../read-stated-arguments.js';
import type { ScanContext } from '../scan-context.js';
import { type Block, countCharacters, type Grammar, type RawCall } from '../scan-types.js';
import { stripOuterFence } from '../strip-outer-fence.js';
import { readInvokeXmlBody } from './invoke-xml-body.js';
import { matchSentinelToken, PARTIAL_TOKEN, type SentinelToken } from './sentinel-tokens.js';

/**
 * @internal Chat-template sentinel tokens emitted as text (source `sentinel`). DeepSeek R1/V3:
 * `<｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\n```json\n{...}\n```<｜tool▁call▁end｜>` or
 * `NAME<｜tool▁sep｜>{...}`; Kimi K2: `<|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{...}<|tool_call_end|>`
 * (the `functions.` namespace and `:N` index are dropped). Section wrappers are furniture; a body
 * with no separator is read as a JSON call object.
 */
export function createSentinelGrammar(context: ScanContext): Grammar {
  const { text, mode } = context;
  const ascii = context.finder('<|tool');
  const fullwidth = context.finder('<｜tool');
  /** The next `<|tool` or `<｜tool` at or after `from`: every token starts with one. */
  const nextToken = memoizeForward((from) => {
    const first = ascii.next(from);
    const second = fullwidth.next(from);
    return first < 0 ? second : second < 0 ? first : Math.min(first, second);
  });

  const nextEnd = memoizeForward((from) => {
    for (let index = nextToken.next(from); index >= 0; index = nextToken.next(index + 1)) {
      const token = matchSentinelToken(text, index);
      if (typeof token === 'object' && token.token === 'end') return index;
    }
    return -1;
  });

  function findNext(from: number): Block | undefined {
    for (let index = nextToken.next(from); index >= 0; index = nextToken.next(index + 1)) {
      const token = matchSentinelToken(text, index);
      if (token === PARTIAL_TOKEN) {
        if (mode === 'stream') return { kind: 'pending', start: index, end: text.length };
        continue;
      }
      if (token === undefined) continue;
      if (token.token === 'wrapper') return { kind: 'furniture', start: index, end: token.end };
      if (token.token !== 'begin') continue;
      // A JSON body is read past end tokens written inside its strings.
      const close = closerPastJson(text, token.end, (at) => nextEnd.next(at), mode === 'stream');
      if (close < 0) {
        // With no end token yet, only one (each ends in `>`) can close it; with one inside a JSON
        // value still open, the value breaking (on any character) would make it the closer.
        const decidedBy = nextEnd.next(token.end) < 0 ? '>' : undefined;
        if (mode === 'stream') return { kind: 'pending', start: index, end: text.length, decidedBy };
        return { kind: 'unterminated', start: index, end: token.end };
      }
      const closeToken = matchSentinelToken(text, close);
      const end = typeof closeToken === 'object' ? closeToken.end : close + 1;
      const calls = decodeSentinelBody(token.end, close);
      if (calls.length > 0) return { kind: 'calls', start: index, end, calls };
      return { kind: 'malformed', start: index, end, bodyChars: countCharacters(text, token.end, close) };
    }
    return undefined;
  }

  function decodeSentinelBody(start: number, end: number): RawCall[] {
    const argument = findToken(start, end, 'argument');
    if (argument !== undefined) {
      const name = kimiName(text.slice(start, argument.start));
      if (name === '') return [];
      return [call(name, text.slice(argument.end, end))];
    }
    const separator = findToken(start, end, 'separator');
    if (separator !== undefined) {
      const left = text.slice(start, separator.start).trim();
      const right = text.slice(separator.end, end).trim();
      if (left === 'function' || left === 'tool' || left === 'functions') {
        const newline = right.indexOf('\n');
        const name = (newline < 0 ? right : right.slice(0, newline)).trim();
        const rest = newline < 0 ? '' : right.slice(newline + 1).trim();
        // Step3 writes its invoke-XML call after the name line: the invoke names the call.
        const invoked = rest.startsWith('<') ? readInvokeXmlBody(rest, context.knowledge) : [];
        if (invoked.length > 0) return invoked;
        return name === '' ? [] : [call(name, rest)];
      }
      return left === '' ? [] : [call(left, right)];
    }
    const body = stripOuterFence(text.slice(start, end));
    // Step3 (`<｜tool_call_begin｜><steptml:invoke name=…>…`): an invoke-XML body.
    if (body.startsWith('<')) {
      const invoked = readInvokeXmlBody(body, context.knowledge);
      if (invoked.length > 0) return invoked;
    }
    const strict = parseJsonStrict(body);
    if (strict !== undefined) return readCalls(strict.value, true, context.knowledge.isKnown, 'sentinel');
    const recovered = recoverLeadingObject(body);
    if (recovered === undefined) return [];
    return readCalls(recovered.value, true, context.knowledge.isKnown, 'sentinel').map((found) => ({
      ...found,
      repaired: true,
    }));
  }

  function findToken(start: number, end: number, wanted: SentinelToken): { start: number; end: number } | undefined {
    for (let index = text.indexOf('<', start); index >= 0 && index < end; index = text.indexOf('<', index + 1)) {
      const token = matchSentinelToken(text, index);
      if (typeof token === 'object' && token.token === wanted && token.end <= end)
        return { start: index, end: token.end };
    }
    return undefined;
  }

  function holdFrom(floor: number): number {
    const last = text.lastIndexOf('<');
    return last >= floor && matchSentinelToken(text, last) === PARTIAL_TOKEN ? last : -1;
  }

  return { source: 'sentinel', findNext, holdFrom };
}

function call(name: string, rawArguments: string): RawCall {
  const body = stripOuterFence(rawArguments);
  if (body === '') return { name, arguments: {}, source: 'sentinel' };
  const strict = parseJsonStrict(body);
  if (strict !== undefined && isRecord(strict.value)) return { name, arguments: strict.value, source: 'sentinel' };
  const recovered = recoverLeadingObject(body);
  if (recovered !== undefined) return { name, arguments: recovered.value, source: 'sentinel', repaired: true };
  return { name, ...invalidArguments(body, 'the arguments text is not a JSON object'), source: 'sentinel' };
}

/** `functions.NAME:0` → `NAME`. */
function kimiName(raw: string): string {
  let name = raw.trim();
  const colon = name.lastIndexOf(':');
  if (colon >= 0 && colon < name.length - 1 && /^\d+$/.test(name.slice(colon + 1))) name = name.slice(0, colon);
  if (name.startsWith('functions.')) name = name.slice('functions.'.length);
  return name.trim();
}
