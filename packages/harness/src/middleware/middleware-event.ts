import { InvalidInputError } from '@tiny/tools';
import type { AgentEventOf } from '../events/agent-event.js';
import { declaredFields } from '../events/declared-fields.js';
import { recordedValue } from '../events/recorded-value.js';

/**
 * The event kinds a middleware may emit through `MiddlewareContext.emit`: its own `custom`
 * payloads, `tool_denied` (a policy or approval middleware refused a call) and the structured-output
 * `output_retry` / `output_fallback`. Every other kind is the harness's own account of the run.
 */
export const MIDDLEWARE_EVENT_TYPES = ['custom', 'tool_denied', 'output_retry', 'output_fallback'] as const;

/** An event a middleware may emit (see {@link MIDDLEWARE_EVENT_TYPES}). */
export type MiddlewareEvent = AgentEventOf<(typeof MIDDLEWARE_EVENT_TYPES)[number]>;

const allowed: ReadonlySet<unknown> = new Set(MIDDLEWARE_EVENT_TYPES);

/**
 * What the run records of an event a middleware emitted: a frozen plain-JSON copy taken now (see
 * `recordedValue`) of the fields its kind declares, so editing the object later changes nothing
 * recorded, and its kind is read from that copy.
 * @throws {InvalidInputError} when the event is not one of {@link MIDDLEWARE_EVENT_TYPES}.
 * @internal
 */
export function middlewareEvent(event: unknown): MiddlewareEvent {
  const copy = recordedValue(event);
  const type = typeof copy === 'object' && copy !== null && !Array.isArray(copy) ? copy.type : undefined;
  if (!allowed.has(type)) {
    throw new InvalidInputError({
      entryPoint: 'MiddlewareContext.emit',
      reason: `a middleware may emit only ${MIDDLEWARE_EVENT_TYPES.map((kind) => `\`${kind}\``).join(', ')} events, not ${typeof type === 'string' ? `\`${type}\`` : 'an event without a type'}`,
    });
  }
  // Only the fields its kind declares: nothing else the middleware put in the object is recorded.
  const kind = type as MiddlewareEvent['type'];
  return { ...declaredFields(kind, copy), type: kind } as MiddlewareEvent;
}
