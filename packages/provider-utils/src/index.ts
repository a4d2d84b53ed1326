/**
 * The HTTP plumbing the `@tiny` HTTP provider adapters share: a JSON POST that refuses cross-origin
 * redirects, bounded server-sent events and bodies, finish-reason mapping, `Retry-After` and wire
 * JSON readers.
 * @module @tiny/provider-utils
 */
export { HttpFailure, type HttpFailureKind } from './errors/http-failure.js';
export { type NormalizedFinishReason, normalizeFinishReason } from './finish/normalize-finish-reason.js';
export { parseRetryAfter } from './http/parse-retry-after.js';
export { mergeHeaders, type PostJsonOptions, postJson } from './http/post-json.js';
export { readBodyText } from './http/read-body-text.js';
export { checkHttpLimits, DEFAULT_HTTP_LIMITS, type HttpLimits } from './limits/http-limits.js';
export { type ReadSseEventsOptions, readSseEvents, type SseEvent } from './sse/read-sse-events.js';
export { asArray, asNonEmptyString, asNumber, asRecord, asString, type WireRecord } from './wire/read-wire.js';
export { exceedsWireDepth, MAX_WIRE_DEPTH, stringifyWire } from './wire/wire-depth.js';
