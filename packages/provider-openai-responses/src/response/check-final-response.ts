import { asArray, asRecord, asString, exceedsWireDepth, MAX_WIRE_DEPTH } from '@tiny/provider-utils';

/**
 * How deep a whole response object or one stream event may nest: an output item may nest
 * `MAX_WIRE_DEPTH` levels (it must replay), and the response or event around it adds a few.
 * Deeper is refused before any recursive helper meets it.
 * @internal
 */
export const MAX_EVENT_DEPTH = MAX_WIRE_DEPTH + 8;

/** What a check found: a protocol violation, or a turn cut short (no call of it may run). @internal */
export interface ResponseProblem {
  /** The response contradicts itself or the protocol: a `protocol_violation`. */
  readonly violation?: string | undefined;
  /** The response says it completed but an item of it did not: a broken turn. */
  readonly cut?: string | undefined;
}

/** The text and the refusal of a `message` item, each of its parts joined. @internal */
export function messageTexts(item: Readonly<Record<string, unknown>>): { text: string; refusal: string } {
  let text = '';
  let refusal = '';
  for (const part of asArray(item.content)) {
    const record = asRecord(part);
    if (record?.type === 'output_text') text += asString(record.text) ?? '';
    else if (record?.type === 'refusal') refusal += asString(record.refusal) ?? '';
  }
  return { text, refusal };
}

/**
 * The problem of one output item, read the same in a stream's `output_item.added`/`.done` and in a
 * whole body's `output`: an item that is no object with a string `type`, or an input-only item
 * (`function_call_output` and every `*_output`, `item_reference`: the client writes them, a
 * response never holds one; replaying one would make the replay envelope invalid) is a violation;
 * an item whose `status` is `incomplete` cut the turn short.
 * @internal
 */
export function itemProblem(value: unknown, index: number): ResponseProblem {
  const item = asRecord(value);
  const type = asString(item?.type);
  if (item === undefined || type === undefined) return { violation: `output item ${index} is no typed item` };
  if (type.endsWith('_output') || type === 'item_reference')
    return { violation: `output item ${index} is a ${type.slice(0, 60)}, which only a request holds` };
  if (item.status === 'incomplete') return { cut: `output item ${index} (${type.slice(0, 60)}) is incomplete` };
  return {};
}

/**
 * The one check of a final response object, for a whole body and for a stream's terminal event:
 * an `object` other than `response`, a `completed` status beside `incomplete_details`, the
 * problem of each output item (see {@link itemProblem}), a `function_call` item with no `status`,
 * and two items under one item `id`; the first violation wins over a cut.
 * `status` is what decides the turn (the terminal event's type, or the body's `status`).
 * @internal
 */
export function checkFinalResponse(response: Readonly<Record<string, unknown>>, status: unknown): ResponseProblem {
  if (response.object !== undefined && response.object !== 'response')
    return {
      violation: `the response is an object of type ${JSON.stringify(asString(response.object) ?? typeof response.object).slice(0, 60)}`,
    };
  if (status === 'completed' && response.incomplete_details !== undefined && response.incomplete_details !== null)
    return { violation: 'the response says completed beside incomplete_details' };
  let cut: string | undefined;
  const output = asArray(response.output);
  const itemIds = new Set<string>();
  for (const [index, item] of output.entries()) {
    const problem = itemProblem(item, index);
    if (problem.violation !== undefined) return problem;
    cut ??= problem.cut;
    const record = asRecord(item);
    // A final call item says how it ended: one without a status may be cut off, so none may run.
    if (record?.type === 'function_call' && typeof record.status !== 'string')
      return { violation: `output item ${index} (function_call) has no status` };
    // Two items under one item id: which one a later event or a replay names is ambiguous.
    const itemId = asString(record?.id);
    if (itemId !== undefined && itemId !== '') {
      if (itemIds.has(itemId))
        return { violation: `output items share the item id ${JSON.stringify(itemId.slice(0, 60))}` };
      itemIds.add(itemId);
    }
  }
  return cut === undefined ? {} : { cut };
}

/** Whether a value read off the wire nests past {@link MAX_EVENT_DEPTH}. @internal */
export function tooDeepForWire(value: unknown): boolean {
  return exceedsWireDepth(value, MAX_EVENT_DEPTH);
}
