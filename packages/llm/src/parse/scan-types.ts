import type { CallSource } from './parse-types.js';

/**
 * @internal Whether the text is complete (`batch`) or may still grow (`stream`). In stream mode a
 * grammar reports `pending` wherever more text could change its decision.
 */
export type ScanMode = 'batch' | 'stream';

/** @internal A call as a grammar read it, before name resolution. */
export interface RawCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  readonly source: CallSource;
  /** True when the arguments were recovered from damaged JSON. */
  readonly repaired?: boolean;
  /**
   * Set when the call stated arguments that are not an object: the raw argument text and the
   * reason (`arguments` is then `{}` and must not be used).
   */
  readonly invalid?: { readonly raw: string; readonly reason: string; readonly partial?: true } | undefined;
  /**
   * The name is a provider built-in (gpt-oss `python`, `browser.*`): it runs only when a tool of
   * exactly that name was offered, never through name repair; otherwise it is dropped (`unknown_tool`).
   */
  readonly builtin?: boolean;
}

/**
 * @internal What a grammar found at `start`.
 * - `calls`: removed from the narrative, calls collected.
 * - `malformed`: removed, reported with the body length.
 * - `furniture`: protocol wrapper with no call of its own, removed silently.
 * - `unterminated`: an opener without a closer; the opener (`start..end`) stays in the narrative.
 * - `pending`: stream mode only, the block may still complete; everything from `start` is held.
 */
export type Block =
  | {
      readonly kind: 'calls';
      readonly start: number;
      readonly end: number;
      readonly calls: readonly RawCall[];
      /** Tools named by calls of the block that could not be read (reported, not returned). */
      readonly dropped?: readonly string[];
      /**
       * The block is a call that started and never closed (the text ended inside it): its one call
       * is invalid, and an `unterminated_block` diagnostic is reported beside it.
       */
      readonly unterminated?: boolean;
    }
  | { readonly kind: 'malformed'; readonly start: number; readonly end: number; readonly bodyChars: number }
  | { readonly kind: 'furniture'; readonly start: number; readonly end: number }
  | { readonly kind: 'unterminated'; readonly start: number; readonly end: number }
  | {
      readonly kind: 'pending';
      readonly start: number;
      readonly end: number;
      /**
       * The characters one of which must arrive before more text can change this answer (the last
       * characters of every token that can end or decide the block: `>` of tags, a backtick of a
       * fence). Absent: the grammar does not say (any character may). A stream holding the block
       * rescans it only on one of them or when its growth bound says so (see
       * `create-stream-scrubber.ts`), so a `}` inside a tagged JSON body costs nothing.
       */
      readonly decidedBy?: string;
    };

/**
 * @internal One surface syntax. `findNext(from)` returns the first block starting at or after
 * `from`; its answer depends only on the text from the block's start, so the engine may reuse it
 * for any later `from` up to that start. `holdFrom(floor)` returns the earliest index at or after
 * `floor` from which the end of the text is an opener that more text could still complete (so a
 * stream must hold it back), or -1.
 */
export interface Grammar {
  readonly source: CallSource;
  findNext(from: number): Block | undefined;
  holdFrom(floor: number): number;
}

/** @internal Counts code points, so `bodyChars` matches what a user would call characters. */
export function countCharacters(text: string, start: number, end: number): number {
  let count = 0;
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code < 0xdc00 || code > 0xdfff) count++;
  }
  return count;
}
