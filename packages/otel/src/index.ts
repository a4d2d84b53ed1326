/**
 * OpenTelemetry tracing for `@tiny/harness` runs: GenAI semantic-convention spans from harness events.
 * @module @tiny/otel
 */
export { createOtelListener } from './listener/create-otel-listener.js';
export type { OtelListenerOptions } from './listener/otel-listener-options.js';
export { ATTRIBUTES, ERROR_TYPES, OPERATIONS } from './semconv/attributes.js';
