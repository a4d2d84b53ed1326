/**
 * Control characters (Unicode category Cc: C0 U+0000–U+001F, DEL U+007F, C1 U+0080–U+009F)
 * other than tab and line feed.
 */
const controlCharacters = /[^\P{Cc}\t\n]/gu;

/** Role names whose tags `stripInstructionFences` removes. */
const roleNames = 'system|assistant|user|tool_call|tool_result|im_start|im_end';

/** Patterns `stripInstructionFences` removes, each documented there. */
const instructionFences: readonly RegExp[] = [
  // `<|im_start|>`, `<|eot_id|>`, `<｜tool▁calls▁begin｜>`: 1–64 non-space characters between bars.
  /<[|｜][^\s<>|｜]{1,64}[|｜]>/gu,
  // `[INST]`, `[/INST]`
  /\[\s*\/?\s*INST\s*\]/giu,
  // `<<SYS>>`, `<</SYS>>`
  /<<\s*\/?\s*SYS\s*>>/giu,
  // `<system>`, `</user>`, `<tool_call name="x">`, `<assistant/>`
  new RegExp(`<\\s*\\/?\\s*(?:${roleNames})(?=[\\s/>])[^<>]{0,256}>`, 'giu'),
];

/**
 * Removes control characters from untrusted text, keeping tab (`\t`) and line feed (`\n`).
 * Removes the rest of C0 (U+0000–U+001F, carriage return included), DEL (U+007F) and C1
 * (U+0080–U+009F). Other characters, including format characters such as zero-width spaces
 * and bidirectional overrides, are left alone.
 */
export function stripControlCharacters(text: string): string {
  return text.replace(controlCharacters, '');
}

/**
 * Removes chat-template and instruction markers from untrusted text, such as an MCP server's tool
 * description, so they cannot steer a model when the text is put into a prompt.
 *
 * Removes exactly these, ignoring case except in the first:
 * - special tokens: `<|` or `<｜` (fullwidth), 1–64 characters that are not whitespace, `<`, `>`
 *   or a bar, then `|>` or `｜>` (`<|im_start|>`, `<|eot_id|>`, `<｜end▁of▁sentence｜>`);
 * - Llama instruction markers `[INST]`, `[/INST]`, `<<SYS>>`, `<</SYS>>` (spaces allowed inside);
 * - opening, closing and self-closing role tags named `system`, `assistant`, `user`, `tool_call`,
 *   `tool_result`, `im_start` or `im_end`, with any attributes (`<system>`, `</user>`,
 *   `<tool_call name="x">`). Only the tags go; the text between them stays.
 *
 * Other tags (`<b>`, `<username>`, `<tool_calls>`) and ordinary prose are kept. Removal repeats
 * until nothing matches, so markers split by another marker (`<|im_<|x|>start|>`) cannot reassemble.
 */
export function stripInstructionFences(text: string): string {
  let current = text;
  for (;;) {
    let next = current;
    for (const pattern of instructionFences) {
      next = next.replace(pattern, '');
    }
    if (next === current) {
      return current;
    }
    current = next;
  }
}

/**
 * Cuts text so its UTF-8 encoding takes at most `maxBytes` bytes, without splitting a code point.
 * Returns the longest such prefix; a lone surrogate counts as the 3 bytes of the U+FFFD that
 * replaces it when encoded. `maxBytes` ≤ 0 (or `NaN`) returns `''`.
 */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (!(maxBytes > 0)) {
    return '';
  }
  if (text.length * 3 <= maxBytes) {
    return text;
  }
  let bytes = 0;
  let end = 0;
  for (const character of text) {
    bytes += utf8Length(character.codePointAt(0) ?? 0);
    if (bytes > maxBytes) {
      return text.slice(0, end);
    }
    end += character.length;
  }
  return text;
}

function utf8Length(codePoint: number): number {
  if (codePoint < 0x80) {
    return 1;
  }
  if (codePoint < 0x800) {
    return 2;
  }
  return codePoint < 0x10000 ? 3 : 4;
}

/** Options for {@link sanitizeToolMetadata}. */
export interface SanitizeToolMetadataOptions {
  /** Largest UTF-8 size of the result in bytes; no limit when omitted. */
  maxBytes?: number;
}

/**
 * Cleans untrusted tool metadata (names, descriptions, schema text from MCP servers) before it
 * reaches a prompt: {@link stripControlCharacters}, then {@link stripInstructionFences}, then
 * {@link truncateUtf8} when `options.maxBytes` is set. Control characters go first so they cannot
 * hide a marker (`<|im_\u0000start|>`).
 */
export function sanitizeToolMetadata(text: string, options: SanitizeToolMetadataOptions = {}): string {
  const cleaned = stripInstructionFences(stripControlCharacters(text));
  return options.maxBytes === undefined ? cleaned : truncateUtf8(cleaned, options.maxBytes);
}
