/**
 * The HTTP plumbing the `@tiny` HTTP provider adapters share: a JSON POST, server-sent events, `Retry-After` and wire JSON readers.
 * @module @tiny/provider-utils
 */
export { parseRetryAfter } from './http/parse-retry-after.js';
export { mergeHeaders, type PostJsonOptions, postJson } from './http/post-json.js';
export { readSseEvents, type SseEvent } from './sse/read-sse-events.js';
export { asArray, asNonEmptyString, asNumber, asRecord, asString, type WireRecord } from './wire/read-wire.js';
