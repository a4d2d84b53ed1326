import type { AgentHarness, RunContext } from '@tiny/harness';
import type { Message } from '@tiny/llm';
import type { ResponseFormat } from '../format/response-format.js';
import { runStructured, type StructuredOptions } from './run-structured.js';
import type { StructuredRun, StructuredRunWithoutRaw } from './structured-attempt.js';

/**
 * Runs the agent until it produces a value for `format`, validated against the declared schema.
 * The strategy (provider-native, output tool or prompted) comes from the format and the model
 * profile; it runs as a middleware after `options.middleware`. Tools run as usual; a failed
 * attempt is retried with a user turn per `errorPolicy` (default: one retry), each retry being a
 * model call counted against `maxModelCalls` and announced by an `output_retry` event.
 *
 * @throws {StructuredOutputError} when no valid output was obtained (it carries every attempt).
 * @throws {OutputLimitError} when the model stopped at its output limit before writing anything.
 * @throws {SchemaNameCollisionError} before any model call, when the output tool's name is a registered tool.
 * @throws {LimitExceededError} (and the harness's other errors) as `AgentHarness.invoke` does.
 * @throws {ModelCallError} when the provider fails, unless an auto format can fall back.
 */
export function invokeStructured<TOutput>(
  harness: AgentHarness,
  context: RunContext,
  messages: readonly Message[],
  format: ResponseFormat<TOutput>,
  options: StructuredOptions<TOutput> & { readonly includeRaw: false },
): Promise<StructuredRunWithoutRaw<TOutput>>;
export function invokeStructured<TOutput>(
  harness: AgentHarness,
  context: RunContext,
  messages: readonly Message[],
  format: ResponseFormat<TOutput>,
  options?: StructuredOptions<TOutput>,
): Promise<StructuredRun<TOutput>>;
export function invokeStructured<TOutput>(
  harness: AgentHarness,
  context: RunContext,
  messages: readonly Message[],
  format: ResponseFormat<TOutput>,
  options: StructuredOptions<TOutput> = {},
): Promise<StructuredRun<TOutput> | StructuredRunWithoutRaw<TOutput>> {
  return runStructured(harness, format, options, (invokeOptions) => harness.invoke(context, messages, invokeOptions));
}
