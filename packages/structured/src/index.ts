/**
 * Typed structured output for `@tiny` agents.
 * @module @tiny/structured
 */
// Each layer re-exports the error classes beneath it (STYLE.md).
export {
  LimitExceededError,
  MiddlewareError,
  ModelCallError,
  RunCancelledError,
  ToolExecutionError,
} from '@tiny/harness';
export {
  ApprovalRequiredError,
  CallDeferredError,
  InjectedArgumentError,
  InvalidToolPolicyError,
  ModelRetry,
  TinyError,
  ToolDefinitionError,
  ToolFailedError,
  ToolInputError,
  ToolNotFoundError,
  ToolTimeoutError,
} from '@tiny/tools';
export { OutputLimitError } from './errors/output-limit-error.js';
export { OutputRefusedError } from './errors/output-refused-error.js';
export { SchemaNameCollisionError } from './errors/schema-name-collision-error.js';
export { StructuredOutputError } from './errors/structured-output-error.js';
export {
  type InferResponseFormat,
  ResponseFormat,
  type ResponseFormatKind,
  type StructuredStrategy,
} from './format/response-format.js';
export type { InferResponse, ResponseSchema } from './format/response-schema.js';
export { createPartialJsonParser, type PartialJsonParser } from './partial/create-partial-json-parser.js';
export {
  DEFAULT_RETRY_TEMPLATE,
  type EndStrategy,
  StructuredOutputErrorPolicy,
} from './policy/error-policy.js';
export { invokeStructured } from './run/invoke-structured.js';
export { isResponseFormatRejection } from './run/is-response-format-rejection.js';
export type { StructuredOptions } from './run/run-structured.js';
export {
  type DeepPartial,
  type StructuredStream,
  type StructuredStreamPart,
  streamStructured,
} from './run/stream-structured.js';
export type {
  StructuredAttempt,
  StructuredErrorKind,
  StructuredFallback,
  StructuredRepair,
  StructuredRun,
  StructuredRunWithoutRaw,
  ValidationRecord,
} from './run/structured-attempt.js';
export { DEFAULT_PROMPTED_TEMPLATE } from './strategy/output-plan.js';
export type { OutputValidator, OutputValidatorContext } from './strategy/output-session.js';
export { selectStrategy } from './strategy/select-strategy.js';
