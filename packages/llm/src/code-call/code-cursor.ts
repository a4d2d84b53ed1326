/**
 * @internal A position in code-call text with the small scanning steps every reader shares.
 * Every step advances at least one character or none, so callers stay linear.
 */
export class CodeCursor {
  readonly text: string;
  position = 0;

  constructor(text: string) {
    this.text = text;
  }

  get atEnd(): boolean {
    return this.position >= this.text.length;
  }

  /** The character `offset` places ahead, or `''` past the end. */
  peek(offset = 0): string {
    return this.text[this.position + offset] ?? '';
  }

  /** Skips spaces, tabs and `#` or `//` comments, stopping at a line break. */
  skipInlineSpace(): void {
    const text = this.text;
    while (this.position < text.length) {
      const character = text[this.position] ?? '';
      if (isInlineSpace(character)) {
        this.position++;
      } else if (character === '#' || (character === '/' && text[this.position + 1] === '/')) {
        while (this.position < text.length && !isLineBreak(text[this.position] ?? '')) this.position++;
      } else {
        return;
      }
    }
  }

  /** Skips spaces, line breaks and comments. */
  skipSpace(): void {
    for (;;) {
      this.skipInlineSpace();
      if (!isLineBreak(this.peek())) return;
      this.position++;
    }
  }

  /** Reads an ASCII identifier (`[A-Za-z_$][A-Za-z0-9_$]*`), or returns `undefined` and stays put. */
  readIdentifier(): string | undefined {
    const start = this.position;
    if (!isIdentifierStart(this.peek())) return undefined;
    this.position++;
    while (isIdentifierPart(this.peek())) this.position++;
    return this.text.slice(start, this.position);
  }
}

/** @internal */
export function isInlineSpace(character: string): boolean {
  return (
    character === ' ' ||
    character === '\t' ||
    character === '\f' ||
    character === '\v' ||
    character === '\u00a0' ||
    character === '\ufeff'
  );
}

/** @internal */
export function isLineBreak(character: string): boolean {
  return character === '\n' || character === '\r' || character === '\u2028' || character === '\u2029';
}

/** @internal */
export function isIdentifierStart(character: string): boolean {
  return (
    (character >= 'a' && character <= 'z') ||
    (character >= 'A' && character <= 'Z') ||
    character === '_' ||
    character === '$'
  );
}

/** @internal */
export function isIdentifierPart(character: string): boolean {
  return isIdentifierStart(character) || isDigit(character);
}

/** @internal */
export function isDigit(character: string): boolean {
  return character >= '0' && character <= '9';
}
