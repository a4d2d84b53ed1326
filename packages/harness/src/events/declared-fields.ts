import type { AgentEventOf } from './agent-event.js';
import { recordedValue } from './recorded-value.js';

/** The event kinds built from an object someone else hands the harness (a model, a tool, a toolset). */
export type ReportedEventType =
  | 'model_profiled'
  | 'tool_progress'
  | 'tool_definition_added'
  | 'tool_definition_changed'
  | 'tool_definition_removed';

/** The fields of a reported event the reporter supplies: all but `type`, and `callId` (always the harness's). */
type ReportedFields<T extends ReportedEventType> = Exclude<keyof AgentEventOf<T>, 'type' | 'callId'>;

/** A `Record` per kind, so a field added to an event's type must be named here too (or it fails to compile). */
const DECLARED: { readonly [T in ReportedEventType]: Readonly<Record<ReportedFields<T>, true>> } = {
  model_profiled: {
    modelId: true,
    server: true,
    contextLength: true,
    toolCalling: true,
    systemPrompt: true,
    toolCallFormats: true,
    reasons: true,
  },
  tool_progress: { message: true, fraction: true, partial: true },
  tool_definition_added: { toolSet: true, toolName: true, current: true, withheld: true },
  tool_definition_changed: {
    toolSet: true,
    toolName: true,
    changed: true,
    pinned: true,
    current: true,
    withheld: true,
  },
  tool_definition_removed: { toolSet: true, toolName: true, previous: true },
};

const FIELDS = Object.fromEntries(
  Object.entries(DECLARED).map(([type, fields]) => [type, Object.keys(fields)]),
) as unknown as { readonly [T in ReportedEventType]: readonly string[] };

/**
 * The fields `type` declares, read from `value` (what a model, tool or toolset reported), each a
 * frozen plain-JSON copy taken now (see `recordedValue`); any other field of `value` is not
 * recorded, nor is a declared one `value` leaves `undefined`. The caller adds `type` (and `callId`)
 * itself, after these fields, so the harness's own always win.
 * @internal
 */
export function declaredFields<T extends ReportedEventType>(
  type: T,
  value: unknown,
): { -readonly [K in ReportedFields<T>]?: unknown } {
  const copy = recordedValue(value);
  const picked: Record<string, unknown> = {};
  if (typeof copy !== 'object' || copy === null || Array.isArray(copy)) return picked;
  const record = copy as Readonly<Record<string, unknown>>;
  for (const field of FIELDS[type]) {
    if (Object.hasOwn(record, field) && record[field] !== undefined) picked[field] = record[field];
  }
  return picked;
}
