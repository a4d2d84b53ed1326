import type { LanguageModelV1ToolCall } from '../spec/language-model-v1.js';
import type { DialectCall } from './tool-dialect.js';

/**
 * A provider's structured call as a dialect call: id, decoded arguments, `invalid` marker, raw
 * argument text and `extraContent` kept as they are; source `native`.
 *
 * @internal
 */
export function structuredDialectCall(call: LanguageModelV1ToolCall): DialectCall {
  // Optional fields assigned, not spread: one object per call.
  const read: { -readonly [K in keyof DialectCall]: DialectCall[K] } = {
    id: call.id,
    name: call.name,
    arguments: call.arguments,
    source: 'native',
  };
  if (call.invalid !== undefined) read.invalid = call.invalid;
  if (call.refused === true) read.refused = true;
  if (call.rawArguments !== undefined) read.rawArguments = call.rawArguments;
  if (call.extraContent !== undefined) read.extraContent = call.extraContent;
  return read;
}
