import type { LanguageModelV1StreamPart, LanguageModelV1ToolCall } from '@tiny/llm';
import { asNonEmptyString, asNumber, asRecord, stringifyWire } from '@tiny/provider-utils';
import { decodeToolCall } from '../response/decode-tool-call.js';

/** The most tool calls one streamed choice may open; more is a flood, not a turn. @internal */
export const MAX_STREAM_TOOL_CALLS = 256;

interface Slot {
  readonly position: number;
  readonly index: number | undefined;
  wireId: string | undefined;
  streamId: string | undefined;
  name: string;
  readonly pieces: string[];
  /** Arguments sent as a JSON value instead of a string: an object (taken), anything else (invalid). */
  valueArguments: unknown;
  extraContent: LanguageModelV1ToolCall['extraContent'];
}

/**
 * Assembles streamed `delta.tool_calls` fragments into calls (P2), emitting stream parts as they
 * become known.
 * - A fragment with an id joins the slot with that id; else one with an index joins the slot with
 *   that index, unless it carries an id different from the slot's (Ollama reuses index 0 for each
 *   new call): then it opens a new slot. A fragment with neither continues the latest slot.
 * - One id at two wire indexes (a fragment naming a known id at an index another call holds)
 *   sets {@link ToolCallAssembler.violation}: the stream is refused, never merged into one call.
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
    const id = asNonEmptyString(record.id);
    const slot = this.slotFor(index, id);
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

  private slotFor(index: number | undefined, id: string | undefined): Slot | undefined {
    if (id !== undefined) {
      const known = this.byId.get(id);
      if (known !== undefined) {
        // One id at two wire indexes: two calls claiming one identity (or one call split in
        // two). Merging them would run a call the model never wrote whole.
        if (index !== undefined) {
          const atIndex = this.byIndex.get(index);
          const elsewhere =
            known.index === undefined ? atIndex !== undefined && atIndex !== known : known.index !== index;
          if (elsewhere) {
            this.violation ??= `sent tool call id ${id} at indexes ${known.index ?? known.position} and ${index}`;
          } else if (atIndex === undefined) {
            // A call first sent without an index now names its index: later index-only fragments join it.
            this.byIndex.set(index, known);
          }
        }
        return known;
      }
    }
    if (index !== undefined) {
      const known = this.byIndex.get(index);
      if (known !== undefined && (id === undefined || known.wireId === undefined)) {
        if (id !== undefined) this.claimId(known, id);
        return known;
      }
    } else if (id === undefined) {
      const latest = this.slots[this.slots.length - 1];
      if (latest !== undefined) return latest;
    }
    if (this.slots.length >= MAX_STREAM_TOOL_CALLS) return undefined;
    const slot: Slot = {
      position: this.slots.length,
      index,
      wireId: undefined,
      streamId: undefined,
      name: '',
      pieces: [],
      valueArguments: undefined,
      extraContent: undefined,
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
