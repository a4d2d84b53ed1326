import { REDACTED, toPlainData } from '@tiny/harness';
import type { JsonValue } from '@tiny/tools';
import { secretStrings } from './scrub-secrets.js';

/** The `[start, end)` ranges where any of `secrets` occurs in `text`, merged, in order. */
function secretRanges(text: string, secrets: readonly string[]): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const secret of secrets) {
    let at = text.indexOf(secret);
    while (at !== -1) {
      ranges.push([at, at + secret.length]);
      at = text.indexOf(secret, at + 1);
    }
  }
  if (ranges.length < 2) return ranges;
  ranges.sort((left, right) => left[0] - right[0]);
  const merged: Array<[number, number]> = [ranges[0] as [number, number]];
  for (const range of ranges.slice(1)) {
    const last = merged[merged.length - 1] as [number, number];
    if (range[0] < last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push(range);
  }
  return merged;
}

/** `text[0, end)` with each range inside it replaced by `[redacted]`. */
function replaceRanges(text: string, ranges: readonly (readonly [number, number])[], end = text.length): string {
  let out = '';
  let position = 0;
  for (const [start, stop] of ranges) {
    if (stop > end) break;
    out += text.slice(position, start) + REDACTED;
    position = stop;
  }
  return out + text.slice(position, end);
}

/**
 * What a stream shows of run values, with the host's secrets (`options.secrets`: host values, and
 * the sensitive argument values of calls in the run as they become known) replaced by `[redacted]`.
 * Only payload passes through it (text, tool inputs and outputs, progress and event data, error
 * text): the protocol fields a writer sets itself (chunk types, keys, roles, ids, a tool's own name)
 * are never rewritten.
 *
 * Payload values become plain JSON once ({@link toPlainData}: never throws; cycles, throwing
 * getters or `toJSON`, BigInts and deep nesting become markers or strings), so writing a chunk out
 * cannot fail. Model text is scrubbed as a stream: the last `max(secret length) - 1` characters of
 * each text part are held until the next delta or the part's end, so a value split across deltas is
 * still found.
 */
export class StreamRedactor {
  private secrets: readonly string[] = [];
  private numbers: ReadonlySet<string> = new Set();
  private longest = 0;
  private seen = -1;
  /** Text of the open part not shown yet. */
  private held = '';

  /** `source` is read again whenever it grows (a host may add values found during the run). */
  constructor(private readonly source: readonly string[]) {
    this.refresh();
  }

  private refresh(): void {
    if (this.source.length === this.seen) return;
    this.seen = this.source.length;
    this.secrets = secretStrings(this.source);
    this.numbers = new Set(this.secrets.filter((secret) => /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(secret)));
    this.longest = this.secrets[0]?.length ?? 0;
  }

  /** Whether there is anything to scrub (a host value or a sensitive argument value, however short). */
  hasSecrets(): boolean {
    this.refresh();
    return this.secrets.length > 0 || this.source.some((value) => value !== '');
  }

  private readonly ids = new Map<string, string>();

  /**
   * A call id as the stream shows it: the id itself, or (when it holds a secret: a model may choose
   * its call ids) an id minted once per call, the same for every chunk of that call.
   */
  callId(id: string): string {
    if (this.text(id) === id) return id;
    let minted = this.ids.get(id);
    if (minted === undefined) {
      minted = `call-${this.ids.size + 1}-${globalThis.crypto.randomUUID().slice(0, 8)}`;
      this.ids.set(id, minted);
    }
    return minted;
  }

  /** `text` with every secret replaced. */
  text(text: string): string {
    this.refresh();
    if (this.secrets.length === 0 || text === '') return text;
    return replaceRanges(text, secretRanges(text, this.secrets));
  }

  /**
   * `value` as plain JSON data (see {@link toPlainData}), secrets replaced in every string and key,
   * and every number whose decimal form is a secret replaced by `[redacted]`. `null` for nothing.
   */
  payload(value: unknown): JsonValue {
    this.refresh();
    const plain = toPlainData(value, (text) => this.text(text)) ?? null;
    return this.numbers.size === 0 ? plain : this.dropNumbers(plain, 0);
  }

  private dropNumbers(value: JsonValue, depth: number): JsonValue {
    if (typeof value === 'number') return this.numbers.has(String(value)) ? REDACTED : value;
    if (typeof value !== 'object' || value === null || depth > 256) return value;
    if (Array.isArray(value)) return value.map((item) => this.dropNumbers(item, depth + 1));
    const out: Record<string, JsonValue> = {};
    for (const [key, item] of Object.entries(value)) out[key] = this.dropNumbers(item, depth + 1);
    return out;
  }

  /** The part of the text so far that is safe to show; the rest waits for more text or {@link endText}. */
  feedText(delta: string): string {
    this.refresh();
    const text = this.held + delta;
    if (this.secrets.length === 0) {
      this.held = '';
      return text;
    }
    const ranges = secretRanges(text, this.secrets);
    // A secret not complete yet starts in the last `longest - 1` characters; one that crosses the cut is shown redacted.
    let cut = Math.max(0, text.length - (this.longest - 1));
    for (const [start, end] of ranges) if (start < cut && end > cut) cut = end;
    this.held = text.slice(cut);
    return replaceRanges(text, ranges, cut);
  }

  /** Ends the open text part: what was held, scrubbed. */
  endText(): string {
    const text = this.held;
    this.held = '';
    return this.text(text);
  }
}
