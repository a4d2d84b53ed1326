import type { LanguageModelV1ToolCall } from '@tiny/llm';
import { asNonEmptyString, asRecord, asString, decodeToolArguments } from '@tiny/provider-utils';

/** Where a call was read; it opens the reason of an invalid call. @internal */
export type CallContext = 'response' | 'stream';

/** The `extraContent` of a call: the API's own id and the part's `thoughtSignature`, under `google`. @internal */
export function callExtra(
  wireId: string | undefined,
  signature: string | undefined,
): LanguageModelV1ToolCall['extraContent'] {
  if (wireId === undefined && signature === undefined) return undefined;
  return {
    google: {
      ...(wireId === undefined ? {} : { id: wireId }),
      ...(signature === undefined ? {} : { thoughtSignature: signature }),
    },
  };
}

/**
 * Reads a whole `functionCall` part into a call: `args` (an object; absent means `{}`) decoded
 * with the shared decoder (a string, which the API never sends, is parsed and repaired), the id
 * the API gave or `fallbackId`, the API id and the part's signature kept in `extraContent`.
 * `refuse` makes the call refused (never repaired or run) with that reason whatever its arguments (a turn that did not
 * finish normally). Never throws.
 * @internal
 */
export function readFunctionCall(
  part: Readonly<Record<string, unknown>>,
  fallbackId: string,
  context: CallContext,
  refuse?: string,
): LanguageModelV1ToolCall {
  const call = asRecord(part.functionCall) ?? {};
  const wireId = asNonEmptyString(call.id);
  const name = asString(call.name) ?? '';
  const args = call.args === undefined || call.args === null ? {} : call.args;
  const decoded = decodeToolArguments(
    { id: wireId ?? fallbackId, name, arguments: args },
    refuse === undefined ? { context } : { context, refuse },
  );
  const extra = callExtra(wireId, asNonEmptyString(part.thoughtSignature));
  return extra === undefined ? decoded : { ...decoded, extraContent: extra };
}
