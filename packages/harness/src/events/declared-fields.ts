import type { AgentEventOf } from './agent-event.js';
import { recordedValue } from './recorded-value.js';

/** The event kinds built from an object someone else hands the harness (a model, a tool, a toolset, a middleware). */
export type ReportedEventType =
  | 'model_profiled'
  | 'tool_progress'
  | 'tool_definition_added'
  | 'tool_definition_changed'
  | 'tool_definition_removed'
  | 'custom'
  | 'tool_denied'
  | 'output_retry'
  | 'output_fallback';

/** The fields of a reported event: all but `type` (always the harness's). */
type ReportedFields<T extends ReportedEventType> = Exclude<keyof AgentEventOf<T>, 'type'>;

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
  tool_progress: { callId: true, message: true, fraction: true, partial: true },
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
  custom: { callId: true, payload: true },
  tool_denied: { callId: true, toolName: true, message: true },
  output_retry: { schemaName: true, attempt: true, errorKind: true, error: true },
  output_fallback: { schemaName: true, from: true, to: true, reason: true },
};

const FIELDS = Object.fromEntries(
  Object.entries(DECLARED).map(([type, fields]) => [type, Object.keys(fields)]),
) as unknown as { readonly [T in ReportedEventType]: readonly string[] };

/**
 * The fields `type` declares, read from `value` (what a model, tool or toolset reported), each a
 * frozen plain-JSON copy taken now (see `recordedValue`); any other field of `value` is not
 * recorded, nor is a declared one `value` leaves `undefined`. The caller adds `type` (and, for a
 * tool's report, `callId`) itself, after these fields, so the harness's own always win.
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
