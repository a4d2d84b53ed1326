/**
 * The HTTP plumbing the `@tiny` HTTP provider adapters share: a JSON POST that refuses cross-origin
 * redirects, bounded server-sent events and bodies, finish-reason mapping, `Retry-After` and wire
 * JSON readers.
 * @module @tiny/provider-utils
 */
export {
  type DecodeToolArgumentsOptions,
  decodeToolArguments,
  replayArguments,
  type WireToolCall,
} from './args/decode-tool-arguments.js';
export { refuseRepeatedIds } from './calls/refuse-repeated-ids.js';
export {
  classifyProviderError,
  deriveRetry,
  type ProviderErrorClass,
  type ProviderErrorFacts,
} from './errors/classify-provider-error.js';
export { describeCause } from './errors/describe-cause.js';
export {
  type FailureContext,
  type FailureOptions,
  HTTP_FAILURE_KINDS,
  httpFailureOptions,
  TRANSPORT_KINDS,
  type TransportFailureKind,
  transportFailureOptions,
} from './errors/failure-options.js';
export { HttpFailure, type HttpFailureKind } from './errors/http-failure.js';
export { type ErrorAnswer, readErrorAnswer } from './errors/read-error-answer.js';
export { type ErrorEnvelope, readErrorEnvelope } from './errors/read-error-envelope.js';
export { type ErrorEvent, readErrorEvent } from './errors/read-error-event.js';
export {
  optionSecrets,
  REDACTED,
  redactDeep,
  redactSecret,
  requestSecrets,
  type Secrets,
} from './errors/redact-secret.js';
export { scrubCause } from './errors/scrub-cause.js';
export { type NormalizedFinishReason, normalizeFinishReason } from './finish/normalize-finish-reason.js';
export { parseBaseURL } from './http/parse-base-url.js';
export { parseRetryAfter } from './http/parse-retry-after.js';
export { mergeHeaders, type PostJsonOptions, postJson } from './http/post-json.js';
export { readBodyText } from './http/read-body-text.js';
export { MAX_ERROR_BODY_CHARS, readErrorBody, tryParseJson } from './http/read-error-body.js';
export { type JsonBodyErrors, readJsonBody } from './http/read-json-body.js';
export { MAX_RETRY_AFTER_MS, retryDelay } from './http/retry-delay.js';
export { sendJson } from './http/send-json.js';
export { urlForSettings } from './http/url-for-settings.js';
export { checkHttpLimits, DEFAULT_HTTP_LIMITS, type HttpLimits } from './limits/http-limits.js';
export {
  HttpLanguageModel,
  type HttpModelTransport,
  type ModelCallErrors,
  type ModelErrorContext,
  type ModelPost,
  readModelJson,
} from './model/http-language-model.js';
export { partsOfWholeTurn, type WholeTurn, wholeBodyParts } from './model/whole-body-parts.js';
export { checkSseEvent, isErrorPayload, type SseEventCheck, type SseEventNames } from './sse/check-sse-event.js';
export { type ReadSseEventsOptions, readSseEvents, type SseEvent, STREAM_END_GRACE_MS } from './sse/read-sse-events.js';
export { asArray, asNonEmptyString, asNumber, asRecord, asString, type WireRecord } from './wire/read-wire.js';
export { exceedsWireDepth, MAX_WIRE_DEPTH, stringifyWire } from './wire/wire-depth.js';
