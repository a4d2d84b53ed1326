import type { LanguageModelV1ToolCall } from '../spec/language-model-v1.js';
import type { DialectCall } from './tool-dialect.js';

/**
 * A provider's structured call as a dialect call: id, decoded arguments, `invalid` marker, raw
 * argument text and `extraContent` kept as they are; source `native`.
 *
 * @internal
 */
export function structuredDialectCall(call: LanguageModelV1ToolCall): DialectCall {
  return {
    id: call.id,
    name: call.name,
    arguments: call.arguments,
    source: 'native',
    ...(call.invalid === undefined ? {} : { invalid: call.invalid }),
    ...(call.rawArguments === undefined ? {} : { rawArguments: call.rawArguments }),
    ...(call.extraContent === undefined ? {} : { extraContent: call.extraContent }),
  };
}
