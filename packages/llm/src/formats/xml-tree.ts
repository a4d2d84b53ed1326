import { FormatParseError, type FormatParseErrorKind } from '../errors/format-parse-error.js';
import { clipName } from './format-parse-result.js';

/** An element read from XML text. @internal */
export interface XmlElement {
  readonly kind: 'element';
  readonly name: string;
  readonly offset: number;
  /** Written as `<name/>`. */
  readonly selfClosing: boolean;
  readonly children: XmlNode[];
}

/** Character data: decoded text and CDATA content, adjacent pieces merged. @internal */
export interface XmlText {
  readonly kind: 'text';
  text: string;
  readonly offset: number;
}

/** @internal */
export type XmlNode = XmlElement | XmlText;

/** Deepest element nesting the reader accepts. @internal */
export const maxXmlDepth = 128;

const namedEntities: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** True for a code point that may start an element name (letters and `_`). @internal */
export function isNameStart(codePoint: number): boolean {
  if (codePoint < 0x80) {
    return (codePoint >= 0x41 && codePoint <= 0x5a) || (codePoint >= 0x61 && codePoint <= 0x7a) || codePoint === 0x5f;
  }
  return /^\p{L}$/u.test(String.fromCodePoint(codePoint));
}

function isNameChar(codePoint: number): boolean {
  if (isNameStart(codePoint)) return true;
  if (codePoint < 0x80) {
    return (codePoint >= 0x30 && codePoint <= 0x39) || codePoint === 0x2d || codePoint === 0x2e || codePoint === 0x3a;
  }
  return /^[\p{N}\p{M}]$/u.test(String.fromCodePoint(codePoint));
}

/** True when `name` can be written as an element name by the renderer and read back. @internal */
export function isXmlName(name: string): boolean {
  const first = name.codePointAt(0);
  if (first === undefined || !isNameStart(first)) return false;
  for (const char of name) if (!isNameChar(char.codePointAt(0) ?? 0)) return false;
  return true;
}

/** Escapes `&`, `<` and `>` for element text. @internal */
export function escapeXmlText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/**
 * Decodes `&lt; &gt; &amp; &quot; &apos;` and numeric references (`&#60;`, `&#x3C;`). An `&`
 * that does not start one of these is kept as a literal `&` (models write `rock & roll`).
 */
function decodeEntities(text: string): string {
  let amp = text.indexOf('&');
  if (amp < 0) return text;
  let out = '';
  let last = 0;
  while (amp >= 0) {
    // Look a bounded distance ahead so a run of bare `&` stays linear.
    const window = text.slice(amp + 1, amp + 13).indexOf(';');
    const semicolon = window < 0 ? -1 : amp + 1 + window;
    const body = semicolon < 0 ? undefined : text.slice(amp + 1, semicolon);
    const decoded = body === undefined ? undefined : decodeReference(body);
    if (decoded !== undefined) {
      out += text.slice(last, amp) + decoded;
      last = semicolon + 1;
    }
    amp = text.indexOf('&', decoded === undefined ? amp + 1 : last);
  }
  return out + text.slice(last);
}

function decodeReference(body: string): string | undefined {
  if (Object.hasOwn(namedEntities, body)) return namedEntities[body];
  let codePoint: number | undefined;
  if (/^#[0-9]{1,8}$/.test(body)) codePoint = Number.parseInt(body.slice(1), 10);
  else if (/^#[xX][0-9a-fA-F]{1,6}$/.test(body)) codePoint = Number.parseInt(body.slice(2), 16);
  if (codePoint === undefined || codePoint > 0x10ffff) return undefined;
  return String.fromCodePoint(codePoint);
}

class Reader {
  private index = 0;
  private readonly stack: XmlElement[] = [];
  private root: XmlElement | undefined;

  constructor(private readonly text: string) {}

  read(): XmlElement {
    const { text } = this;
    while (this.index < text.length) {
      const lt = text.indexOf('<', this.index);
      if (lt !== this.index) {
        const end = lt < 0 ? text.length : lt;
        this.appendText(decodeEntities(text.slice(this.index, end)), this.index);
        this.index = end;
        continue;
      }
      if (text.startsWith('<!--', lt)) this.index = this.skipPast('-->', lt + 4, 'a comment');
      else if (text.startsWith('<![CDATA[', lt)) {
        const close = this.findOrFail(']]>', lt + 9, 'a CDATA section');
        this.appendText(text.slice(lt + 9, close), lt);
        this.index = close + 3;
      } else if (text.startsWith('<?', lt)) this.index = this.skipPast('?>', lt + 2, 'a processing instruction');
      else if (text[lt + 1] === '!') this.fail('syntax', 'declarations such as <!DOCTYPE> are not supported', lt);
      else if (text[lt + 1] === '/') this.readClosingTag(lt);
      else if (isNameStart(text.codePointAt(lt + 1) ?? 0)) this.readOpeningTag(lt);
      else {
        this.appendText('<', lt);
        this.index = lt + 1;
      }
    }
    const open = this.stack.at(-1);
    if (open) this.fail('unterminated', `element <${clipName(open.name)}> is never closed`, open.offset);
    if (!this.root) this.fail('syntax', 'no element found', 0);
    return this.root;
  }

  private readName(start: number): { name: string; end: number } {
    let end = start;
    while (end < this.text.length) {
      const codePoint = this.text.codePointAt(end) ?? 0;
      if (!isNameChar(codePoint)) break;
      end += codePoint > 0xffff ? 2 : 1;
    }
    return { name: this.text.slice(start, end), end };
  }

  private skipSpace(start: number): number {
    let index = start;
    while (index < this.text.length && /\s/.test(this.text[index] ?? '')) index++;
    return index;
  }

  private readOpeningTag(lt: number): void {
    const { name, end } = this.readName(lt + 1);
    let index = this.skipSpace(end);
    let selfClosing = false;
    if (this.text.startsWith('/>', index)) {
      selfClosing = true;
      index += 2;
    } else if (this.text[index] === '>') index += 1;
    else if (index >= this.text.length) this.fail('unterminated', `tag <${clipName(name)} is never finished`, lt);
    else this.fail('syntax', `attributes are not supported (in <${clipName(name)}>)`, index);
    const parent = this.stack.at(-1);
    if (!parent && this.root) this.fail('trailing_text', 'a second element follows the call', lt);
    if (this.stack.length >= maxXmlDepth) this.fail('too_deep', `elements nest deeper than ${maxXmlDepth}`, lt);
    const element: XmlElement = { kind: 'element', name, offset: lt, selfClosing, children: [] };
    if (parent) parent.children.push(element);
    else this.root = element;
    if (!selfClosing) this.stack.push(element);
    this.index = index;
  }

  private readClosingTag(lt: number): void {
    const { name, end } = this.readName(lt + 2);
    const index = this.skipSpace(end);
    if (name === '') this.fail('syntax', 'a closing tag without a name', lt);
    if (index >= this.text.length) this.fail('unterminated', `closing tag </${clipName(name)} is never finished`, lt);
    if (this.text[index] !== '>') this.fail('syntax', `unexpected text in closing tag </${clipName(name)}>`, index);
    const open = this.stack.pop();
    if (!open) this.fail('mismatched_tag', `closing tag </${clipName(name)}> has no open element`, lt);
    if (open.name !== name) {
      this.fail('mismatched_tag', `closing tag </${clipName(name)}> does not match <${clipName(open.name)}>`, lt);
    }
    this.index = index + 1;
  }

  private appendText(value: string, offset: number): void {
    if (value === '') return;
    const parent = this.stack.at(-1);
    if (!parent) {
      if (value.trim() === '') return;
      if (this.root) this.fail('trailing_text', 'text follows the call', offset);
      this.fail('syntax', 'text before the call element', offset);
    }
    const last = parent.children.at(-1);
    if (last?.kind === 'text') last.text += value;
    else parent.children.push({ kind: 'text', text: value, offset });
  }

  private findOrFail(marker: string, from: number, what: string): number {
    const close = this.text.indexOf(marker, from);
    if (close < 0) this.fail('unterminated', `${what} is never closed`, from);
    return close;
  }

  private skipPast(marker: string, from: number, what: string): number {
    return this.findOrFail(marker, from, what) + marker.length;
  }

  private fail(kind: FormatParseErrorKind, reason: string, offset: number): never {
    throw new FormatParseError({ format: 'xml', kind, reason, offset });
  }
}

/**
 * Reads XML text into an element tree: exactly one root element, surrounded by whitespace,
 * comments or `<?...?>` only. Entities and CDATA are decoded into text; comments are skipped;
 * a `<` that cannot start a tag is kept as text. Runs in time linear in the text.
 *
 * @throws {FormatParseError} for unclosed or mismatched tags, attributes, text outside the root,
 *   or nesting deeper than {@link maxXmlDepth}.
 * @internal
 */
export function readXmlTree(text: string): XmlElement {
  return new Reader(text).read();
}
