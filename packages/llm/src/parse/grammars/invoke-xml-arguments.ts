import { recoverLeadingObject } from '../../repair/recover-leading-object.js';
import { parseJsonStrict } from '../extract-json-values.js';
import { isRecord, setOwn } from '../own-properties.js';
import { matchInvokeTag } from './invoke-xml-tags.js';

/** @internal Arguments read from an invoke body, and whether damaged JSON had to be repaired. */
export interface InvokeArguments {
  readonly arguments: Record<string, unknown>;
  readonly repaired: boolean;
  /** Set when the body is text that is not a JSON object: the raw body and the reason. */
  readonly invalid?: { readonly raw: string; readonly reason: string } | undefined;
}

/**
 * @internal Reads the arguments of an invoke block from `text[start..end)`. Parameter children
 * (`<parameter name="k">v</parameter>`, `<parameter=k>v</parameter>`, any prefix) win: each value is
 * JSON when it is a number, boolean, null, array or object, else its text less the template's one
 * newline on each side ({@link templateTrim}; a parameter the tool declares as a string is always
 * that text: `5123123` stays a string; a value in one
 * CDATA section is that section's text, verbatim, and nothing inside it closes the parameter); a lone
 * `arguments` parameter holding an object is unwrapped. Without parameters the body is JSON
 * (orphan `</parameter>` closers removed): empty gives `{}`, any other text that is not an object
 * an invalid call carrying that text (never `{}`, never an invented key).
 */
export function readInvokeArguments(
  text: string,
  lower: string,
  start: number,
  end: number,
  isString: (parameter: string) => boolean = () => false,
): InvokeArguments {
  const parameters: Record<string, unknown> = {};
  let found = false;
  const orphans: Array<readonly [number, number]> = [];
  let position = text.indexOf('<', start);
  while (position >= 0 && position < end) {
    const tag = matchInvokeTag(text, lower, position);
    if (typeof tag === 'object' && tag.end <= end && tag.kind === 'parameter') {
      const close = nextParameterClose(text, lower, tag.end, end);
      if (close === undefined) break;
      if (tag.name !== '') {
        const raw = text.slice(tag.end, close.start);
        const cdata = cdataValue(raw);
        setOwn(parameters, tag.name, cdata ?? (isString(tag.name) ? templateTrim(raw) : parameterValue(raw)));
        found = true;
      }
      position = text.indexOf('<', close.end);
      continue;
    }
    if (typeof tag === 'object' && tag.end <= end && tag.kind === 'parameter-close') orphans.push([position, tag.end]);
    position = text.indexOf('<', position + 1);
  }
  if (found) {
    const keys = Object.keys(parameters);
    const only = keys.length === 1 && keys[0] === 'arguments' ? parameters.arguments : undefined;
    return { arguments: isRecord(only) ? only : parameters, repaired: false };
  }
  return jsonBody(removeRanges(text, start, end, orphans).trim());
}

const CDATA_OPEN = '<![CDATA[';
const CDATA_CLOSE = ']]>';

/**
 * A value that is exactly one or more adjacent CDATA sections (whitespace around them allowed): their
 * texts joined, verbatim. A value holding `]]>` is written as split sections
 * (`<![CDATA[x]]]]><![CDATA[>y]]>` is `x]]>y`), as XML writers do.
 */
function cdataValue(raw: string): string | undefined {
  const trimmed = raw.trim();
  if (!trimmed.startsWith(CDATA_OPEN) || !trimmed.endsWith(CDATA_CLOSE)) return undefined;
  let text = '';
  let position = 0;
  while (position < trimmed.length) {
    if (!trimmed.startsWith(CDATA_OPEN, position)) return undefined;
    const close = trimmed.indexOf(CDATA_CLOSE, position + CDATA_OPEN.length);
    if (close < 0) return undefined;
    text += trimmed.slice(position + CDATA_OPEN.length, close);
    position = close + CDATA_CLOSE.length;
  }
  return text;
}

function jsonBody(body: string): InvokeArguments {
  if (body === '') return { arguments: {}, repaired: false };
  const strict = parseJsonStrict(body);
  if (strict !== undefined && isRecord(strict.value)) return { arguments: strict.value, repaired: false };
  const recovered = recoverLeadingObject(body);
  if (recovered !== undefined) return { arguments: recovered.value, repaired: true };
  return { arguments: {}, repaired: false, invalid: { raw: body, reason: 'the arguments text is not a JSON object' } };
}

function nextParameterClose(
  text: string,
  lower: string,
  from: number,
  end: number,
): { start: number; end: number } | undefined {
  let position = text.indexOf('<', from);
  while (position >= 0 && position < end) {
    if (text.startsWith(CDATA_OPEN, position)) {
      // MiniCPM protects values in CDATA: nothing inside one closes the parameter.
      const close = text.indexOf(CDATA_CLOSE, position + CDATA_OPEN.length);
      if (close < 0 || close >= end) return undefined;
      position = text.indexOf('<', close + CDATA_CLOSE.length);
      continue;
    }
    const tag = matchInvokeTag(text, lower, position);
    if (typeof tag === 'object' && tag.kind === 'parameter-close' && tag.end <= end) {
      return { start: position, end: tag.end };
    }
    position = text.indexOf('<', position + 1);
  }
  return undefined;
}

/**
 * @internal The text of an element-per-field value as the model meant it. A template that puts
 * values on their own lines (Qwen3-Coder, Qwen 3.5: `<parameter=path>\nVALUE\n</parameter>`)
 * writes a newline after the opening tag and one before the closing tag; exactly that pair is
 * removed (`\r\n` counts as one newline). A value written inline (Claude, MiniMax, Step3,
 * Seed-OSS: `<parameter name="k">VALUE</parameter>`) has no such pair and is kept whole. Every
 * other leading or trailing space, tab or newline is part of the value: an edit of indented code
 * depends on it (vLLM's Step3, MiniMax M2 and MiniCPM5 parsers keep it the same way).
 */
export function templateTrim(raw: string): string {
  const start = raw.startsWith('\r\n') ? 2 : raw.startsWith('\n') ? 1 : 0;
  if (start === 0 || raw.length <= start) return raw;
  const end = raw.endsWith('\r\n') ? raw.length - 2 : raw.endsWith('\n') ? raw.length - 1 : -1;
  return end < start ? raw : raw.slice(start, end);
}

/**
 * A parameter value: JSON for numbers, booleans, null, arrays and objects (surrounding whitespace
 * ignored); otherwise the text with only the template newlines removed ({@link templateTrim}).
 */
export function parameterValue(raw: string): unknown {
  const trimmed = raw.trim();
  const first = trimmed.charCodeAt(0);
  const jsonish =
    first === 123 ||
    first === 91 ||
    first === 45 ||
    (first >= 48 && first <= 57) ||
    trimmed === 'true' ||
    trimmed === 'false' ||
    trimmed === 'null';
  if (jsonish) {
    const parsed = parseJsonStrict(trimmed);
    if (parsed !== undefined && typeof parsed.value !== 'string') return parsed.value;
  }
  return templateTrim(raw);
}

function removeRanges(
  text: string,
  start: number,
  end: number,
  ranges: ReadonlyArray<readonly [number, number]>,
): string {
  if (ranges.length === 0) return text.slice(start, end);
  const pieces: string[] = [];
  let cursor = start;
  for (const [rangeStart, rangeEnd] of ranges) {
    pieces.push(text.slice(cursor, rangeStart));
    cursor = rangeEnd;
  }
  pieces.push(text.slice(cursor, end));
  return pieces.join('');
}
