import { recoverLeadingObject } from '../../repair/recover-leading-object.js';
import { closerPastJson } from '../closer-past-json.js';
import { parseJsonStrict } from '../extract-json-values.js';
import { isRecord } from '../own-properties.js';
import { invalidArguments } from '../read-stated-arguments.js';
import type { ScanContext } from '../scan-context.js';
import type { Block, Grammar, RawCall } from '../scan-types.js';
import { endsInsidePrefix, isWhitespace } from '../text-scanning.js';

const CHANNEL = '<|channel|>';
const MESSAGE = '<|message|>';
const START = '<|start|>';
const consumedEnds = ['<|call|>', '<|end|>', '<|return|>'];
const MAX_ROLE = 128;

/**
 * @internal OpenAI Harmony (gpt-oss) written as text (source `harmony`):
 * `<|channel|>commentary to=functions.lookup <|constrain|>json<|message|>{"id":7}<|call|>`. The call
 * is the `to=` target (in the channel header, or in a directly preceding `<|start|>assistant to=…`
 * role segment, which is furniture) with `functions.` / `tools.` removed; the payload runs to
 * `<|call|>`, `<|end|>` or `<|return|>` (or, not consumed, the next `<|start|>` / `<|channel|>`; in a
 * complete text, the end). Channel messages without a target are not calls and stay as text.
 * Arguments are the payload's object, recovered if damaged, else `{}`. Case-insensitive.
 */
export function createHarmonyGrammar(context: ScanContext): Grammar {
  const { text, lower, mode } = context;
  const channels = context.finder(CHANNEL, true);
  const messages = context.finder(MESSAGE, true);
  const terminators = consumedEnds.map((literal) => context.finder(literal, true));
  const starts = context.finder(START, true);

  function findNext(from: number): Block | undefined {
    let cursor = from;
    for (;;) {
      const channel = channels.next(cursor);
      if (channel < 0) return undefined;
      const start = Math.max(from, roleStart(channel));
      const message = messages.next(channel + CHANNEL.length);
      // Every Harmony token ends in `>`: only one can bring the message or end the payload.
      if (message < 0)
        return mode === 'stream' ? { kind: 'pending', start, end: text.length, decidedBy: '>' } : undefined;
      const target =
        targetName(text.slice(channel + CHANNEL.length, message)) ?? targetName(text.slice(start, channel));
      const name = target === undefined ? undefined : withoutNamespace(target);
      if (name === undefined) {
        cursor = message + MESSAGE.length;
        continue;
      }
      const payloadStart = message + MESSAGE.length;
      const [payloadEnd, end] = payloadBounds(payloadStart);
      if (payloadEnd < 0) {
        // As for the message: unless a bound stands in a JSON payload still open (its breaking, on any
        // character, would make that bound the end).
        const decidedBy = nearestBound(payloadStart)[0] < 0 ? '>' : undefined;
        if (mode === 'stream') return { kind: 'pending', start, end: text.length, decidedBy };
        return {
          kind: 'calls',
          start,
          end: text.length,
          calls: [builtinMarked(payloadCall(name, payloadStart, text.length), target)],
        };
      }
      return { kind: 'calls', start, end, calls: [builtinMarked(payloadCall(name, payloadStart, payloadEnd), target)] };
    }
  }

  /** Where the payload stops and where the block ends; -1 when nothing ends it yet. */
  function payloadBounds(from: number): [number, number] {
    // A JSON payload is read past terminators written inside its strings (`"x<|end|>y"`).
    const past = closerPastJson(text, from, (at) => nearestBound(at)[0], mode === 'stream');
    return past < 0 ? [-1, -1] : nearestBound(past);
  }

  function nearestBound(from: number): [number, number] {
    let best = -1;
    let bestEnd = -1;
    terminators.forEach((finder, index) => {
      const found = finder.next(from);
      if (found >= 0 && (best < 0 || found < best)) {
        best = found;
        bestEnd = found + (consumedEnds[index]?.length ?? 0);
      }
    });
    for (const finder of [starts, channels]) {
      const found = finder.next(from);
      if (found >= 0 && (best < 0 || found < best)) {
        best = found;
        bestEnd = found;
      }
    }
    return [best, bestEnd];
  }

  function payloadCall(name: string, start: number, end: number): RawCall {
    const payload = text.slice(start, end).trim();
    const strict = parseJsonStrict(payload);
    if (strict !== undefined && isRecord(strict.value)) return { name, arguments: strict.value, source: 'harmony' };
    const recovered = payload === '' ? undefined : recoverLeadingObject(payload);
    if (recovered !== undefined) return { name, arguments: recovered.value, source: 'harmony', repaired: true };
    if (payload === '') return { name, arguments: {}, source: 'harmony' };
    return { name, ...invalidArguments(payload, 'the arguments text is not a JSON object'), source: 'harmony' };
  }

  /** The start of a `<|start|>role…` segment ending exactly at `channel`, else `channel`. */
  function roleStart(channel: number): number {
    const floor = Math.max(0, channel - MAX_ROLE - START.length);
    const window = lower.slice(floor, channel);
    const relative = window.lastIndexOf(START);
    if (relative < 0) return channel;
    return window.indexOf('<', relative + 1) >= 0 ? channel : floor + relative;
  }

  function holdFrom(floor: number): number {
    const last = text.lastIndexOf('<');
    if (last < floor) return -1;
    if (endsInsidePrefix(lower, last, CHANNEL)) return Math.max(floor, roleStart(last));
    if (endsInsidePrefix(lower, last, START)) return last;
    if (lower.startsWith(START, last) && text.length - last - START.length <= MAX_ROLE) return last;
    return -1;
  }

  return { source: 'harmony', findNext, holdFrom };
}

/**
 * gpt-oss's own tools are addressed without the `functions.` namespace: `python`, `browser.*`,
 * `container.*`. Such a call is a built-in: dispatched only to a tool offered by exactly that name.
 */
function builtinMarked(call: RawCall, target: string | undefined): RawCall {
  const name = target ?? '';
  const builtin = name === 'python' || name.startsWith('browser.') || name.startsWith('container.');
  return builtin ? { ...call, builtin: true } : call;
}

/** The `to=` target of a header as written; `undefined` when there is none. */
function targetName(header: string): string | undefined {
  const at = header.indexOf('to=');
  if (at < 0) return undefined;
  let end = at + 3;
  while (end < header.length && !isWhitespace(header.charCodeAt(end)) && header.charCodeAt(end) !== 60) end++;
  const name = header.slice(at + 3, end).trim();
  return name === '' || withoutNamespace(name) === '' ? undefined : name;
}

/** A target without `functions.` / `tools.`. */
function withoutNamespace(target: string): string {
  if (target.startsWith('functions.')) return target.slice('functions.'.length).trim();
  if (target.startsWith('tools.')) return target.slice('tools.'.length).trim();
  return target;
}
