import type { LanguageModelV1StreamPart, LanguageModelV1ToolCall } from '@tiny/llm';
import { asNonEmptyString, asNumber, asRecord, stringifyWire } from '@tiny/provider-utils';
import { decodeToolCall } from '../response/decode-tool-call.js';
import { wireId } from '../wire/read-wire.js';

/** The most tool calls one streamed choice may open; more is a flood, not a turn. @internal */
export const MAX_STREAM_TOOL_CALLS = 256;

interface Slot {
  readonly position: number;
  /** The wire index the call is at: set by its first fragment with one, never changed after. */
  index: number | undefined;
  /** Another call took this call's index (Ollama): the call is over, a later fragment of it is a violation. */
  closed: boolean;
  wireId: string | undefined;
  streamId: string | undefined;
  name: string;
  readonly pieces: string[];
  /** Arguments sent as a JSON value instead of a string: an object (taken), anything else (invalid). */
  valueArguments: unknown;
  extraContent: LanguageModelV1ToolCall['extraContent'];
  /** Whether the arguments so far are a whole JSON object; `undefined` until asked after a change. */
  whole: boolean | undefined;
}

/** True when a call's arguments so far are a whole JSON object (nothing of it can still be missing). */
function isWhole(slot: Slot): boolean {
  if (slot.whole !== undefined) return slot.whole;
  if (slot.valueArguments !== undefined) slot.whole = asRecord(slot.valueArguments) !== undefined;
  else {
    try {
      slot.whole = asRecord(JSON.parse(slot.pieces.join(''))) !== undefined;
    } catch {
      slot.whole = false;
    }
  }
  return slot.whole;
}

/**
 * Assembles streamed `delta.tool_calls` fragments into calls (P2), emitting stream parts as they
 * become known. Ids are read in their string form whatever their JSON scalar type (`wireId`).
 * - A fragment with a known id joins the call with that id. A call holds one wire index: the
 *   first index sent for it (with its first fragment or a later one). The same id at another index
 *   (two indexes, or an index-less first fragment then an index another call holds) sets
 *   {@link ToolCallAssembler.violation}: the stream is refused, never merged into one call.
 * - A fragment with an index and no known id joins the call at that index (taking its id if the
 *   call had none). A new id at an index a call with another id holds is a new call (Ollama reuses
 *   index 0 for each parallel call, sending each whole) only when the call there is whole (its
 *   arguments parse as a JSON object): that call is then over, and a later fragment of it is a
 *   violation. If the call there is not whole, the turn is broken (violation).
 * - A fragment with neither an id nor an index continues the latest call, when every earlier call
 *   is whole; with more than one call unfinished it could belong to any of them: a violation. So
 *   is a fragment with an index and no id at a new index while a call sent without an index is
 *   unfinished (its continuation, or a new call?).
 * - A non-empty `function.name` sets the name; an empty one never overwrites it; another non-empty
 *   name for a call already named sets {@link ToolCallAssembler.violation} (the fragment is dropped).
 * - `tool_call_start` is emitted once the name is known (with the argument text held so far as the
 *   first `tool_call_delta`); later argument pieces follow as `tool_call_delta`s.
 * - Missing ids are minted `tool-{index}` (the wire index, else the slot's position); an id already
 *   used in this response gets `-{position}` appended, so stream ids are unique.
 * - `function.arguments` that is neither a string nor absent is kept as the value: an object is
 *   taken as the arguments, any other value (`["rm","-rf"]`, `5`) makes the call invalid, as in
 *   a whole response.
 * - At most {@link MAX_STREAM_TOOL_CALLS} calls per choice: a fragment that would open one more
 *   sets {@link ToolCallAssembler.overflow} and is dropped (the stream is refused).
 * - {@link ToolCallAssembler.finish} starts any call still unnamed and ends every call in order,
 *   with the arguments decoded (and repaired) by `decodeToolCall` carried on `tool_call_end`.
 * @internal
 */
export class ToolCallAssembler {
  /** Set once a fragment would have opened more than {@link MAX_STREAM_TOOL_CALLS} calls. */
  overflow = false;
  /** Set when a fragment renamed a call mid-call or put one id at two indexes: the stream broke the protocol. */
  violation: string | undefined;
  private readonly slots: Slot[] = [];
  private readonly byIndex = new Map<number, Slot>();
  private readonly byId = new Map<string, Slot>();
  private readonly usedIds = new Set<string>();

  /** How many calls have been seen so far. */
  get count(): number {
    return this.slots.length;
  }

  /** Reads one element of `delta.tool_calls`; returns the parts it completes. */
  push(fragment: unknown): LanguageModelV1StreamPart[] {
    const record = asRecord(fragment);
    if (record === undefined) return [];
    const index = asNumber(record.index);
    const id = wireId(record.id);
    const slot = this.slotFor(index, id);
    if (slot === 'violation') return [];
    if (slot === undefined) {
      this.overflow = true;
      return [];
    }
    const fn = asRecord(record.function);
    const name = asNonEmptyString(fn?.name);
    if (name !== undefined && slot.name !== '' && name !== slot.name) {
      // A later fragment of one call naming another tool: two calls merged into one slot.
      this.violation ??= `renamed tool call ${slot.wireId ?? slot.index ?? slot.position} from ${slot.name} to ${name} mid-call`;
      return [];
    }
    if (name !== undefined) slot.name = name;
    if (record.extra_content !== undefined && record.extra_content !== null) {
      slot.extraContent = record.extra_content as LanguageModelV1ToolCall['extraContent'];
    }
    const parts: LanguageModelV1StreamPart[] = [];
    slot.whole = undefined;
    let piece = '';
    const args = fn?.arguments;
    if (typeof args === 'string') piece = args;
    else if (args !== undefined && args !== null) {
      slot.valueArguments = args;
      piece = stringifyWire(args, '');
    }
    if (slot.streamId === undefined) {
      slot.pieces.push(piece);
      if (slot.name !== '') parts.push(...this.start(slot));
      return parts;
    }
    if (typeof args === 'string') slot.pieces.push(piece);
    if (piece !== '') parts.push({ type: 'tool_call_delta', id: slot.streamId, argumentsDelta: piece });
    return parts;
  }

  /**
   * Ends every call, in order of first appearance. With `strict` (the stream was cut off after its
   * finish reason) no argument text is repaired: cut-off arguments stay an invalid call.
   */
  finish(strict = false, refuse?: string): LanguageModelV1StreamPart[] {
    const parts: LanguageModelV1StreamPart[] = [];
    for (const slot of this.slots) {
      if (slot.streamId === undefined) parts.push(...this.start(slot));
      const id = slot.streamId as string;
      const call = decodeToolCall(
        {
          id,
          name: slot.name,
          arguments: slot.valueArguments ?? slot.pieces.join(''),
          extraContent: slot.extraContent,
        },
        'stream',
        strict,
        refuse,
      );
      parts.push({ type: 'tool_call_end', id, call });
    }
    return parts;
  }

  /** Records a violation (the first one wins) and drops the fragment. */
  private refuse(what: string): 'violation' {
    this.violation ??= what;
    return 'violation';
  }

  private slotFor(index: number | undefined, id: string | undefined): Slot | 'violation' | undefined {
    const known = id === undefined ? undefined : this.byId.get(id);
    if (known !== undefined) {
      if (known.closed) return this.refuse(`sent more of tool call ${id} after another call took its index`);
      if (index === undefined || known.index === index) return known;
      // One id at two wire indexes: two calls claiming one identity (or one call split in two).
      // Merging them would run a call the model never wrote whole.
      if (known.index !== undefined || this.byIndex.has(index))
        return this.refuse(`sent tool call id ${id} at indexes ${known.index ?? known.position} and ${index}`);
      // A call first sent without an index now names its index: later index-only fragments join it.
      known.index = index;
      this.byIndex.set(index, known);
      return known;
    }
    if (index !== undefined) {
      const atIndex = this.byIndex.get(index);
      if (atIndex !== undefined) {
        if (id === undefined) return atIndex;
        if (atIndex.wireId === undefined) {
          this.claimId(atIndex, id);
          return atIndex;
        }
        // A new id at a used index: a new call (Ollama) only after a whole one.
        if (!isWhole(atIndex))
          return this.refuse(
            `sent tool call id ${id} at index ${index} while call ${atIndex.wireId} there was unfinished`,
          );
        atIndex.closed = true;
      } else if (id === undefined) {
        // An index-only fragment at a new index while a call sent without an index is unfinished:
        // it may be that call's continuation or a new call; either reading could run a prefix.
        const unindexed = this.slots.find((slot) => slot.index === undefined && !isWhole(slot));
        if (unindexed !== undefined)
          return this.refuse(
            `sent a fragment at index ${index} without an id while call ${unindexed.wireId ?? unindexed.position} (sent without an index) was unfinished`,
          );
      }
    } else if (id === undefined && this.slots.length > 0) {
      const latest = this.slots[this.slots.length - 1] as Slot;
      const unfinished = this.slots.find((slot) => slot !== latest && !slot.closed && !isWhole(slot));
      if (unfinished !== undefined)
        return this.refuse(
          `sent a tool-call fragment with neither id nor index while calls ${unfinished.wireId ?? unfinished.position} and ${latest.wireId ?? latest.position} were unfinished`,
        );
      return latest;
    }
    if (this.slots.length >= MAX_STREAM_TOOL_CALLS) return undefined;
    const slot: Slot = {
      position: this.slots.length,
      index,
      closed: false,
      wireId: undefined,
      streamId: undefined,
      name: '',
      pieces: [],
      valueArguments: undefined,
      extraContent: undefined,
      whole: undefined,
    };
    this.slots.push(slot);
    if (index !== undefined) this.byIndex.set(index, slot);
    if (id !== undefined) this.claimId(slot, id);
    return slot;
  }

  private claimId(slot: Slot, id: string): void {
    slot.wireId = id;
    this.byId.set(id, slot);
  }

  private start(slot: Slot): LanguageModelV1StreamPart[] {
    let id = slot.wireId ?? `tool-${slot.index ?? slot.position}`;
    if (this.usedIds.has(id)) id = `${id}-${slot.position}`;
    this.usedIds.add(id);
    slot.streamId = id;
    const parts: LanguageModelV1StreamPart[] = [
      {
        type: 'tool_call_start',
        id,
        name: slot.name,
        ...(slot.extraContent === undefined ? {} : { extraContent: slot.extraContent }),
      },
    ];
    const held = slot.valueArguments === undefined ? slot.pieces.join('') : stringifyWire(slot.valueArguments, '');
    if (held !== '') parts.push({ type: 'tool_call_delta', id, argumentsDelta: held });
    return parts;
  }
}
