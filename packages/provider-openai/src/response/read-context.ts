import type { CallSource, LanguageModelV1ToolCall, ParsedCall, ToolSchema } from '@tiny/llm';
import type { HttpLimits, Secrets } from '@tiny/provider-utils';

/** What the response readers need to know about the request and the provider. @internal */
export interface ReadContext {
  readonly provider: string;
  readonly secret?: Secrets;
  /** Move a leading `<think>` block of the content into reasoning. */
  readonly extractThinking: boolean;
  /** Tools offered in the prompt: read calls from the text. `undefined` in native mode. */
  readonly textTools: readonly ToolSchema[] | undefined;
  /** `ModelProfile.toolCallFormats` of the model: the grammars text calls are read from (default all). */
  readonly toolCallFormats?: readonly CallSource[] | undefined;
  /** Draws the next `seq` for `text-{seq}-{slot}` ids; called once per response that has text calls. */
  readonly nextTextSequence: () => number;
  readonly headers?: Headers | undefined;
  /** The HTTP status of the response being read. */
  readonly httpStatus?: number | undefined;
  /** Size and time bounds on the response (defaults of `HttpLimits` for those left out). */
  readonly limits?: HttpLimits | undefined;
}

/** Cancellation for a stream. @internal */
export interface StreamContext extends ReadContext {
  readonly signal?: AbortSignal | undefined;
}

/**
 * A call read from text as a response tool call: id `text-{seq}-{slot}`, decoded arguments, and
 * their compact JSON as the raw argument text (what a replay will show). A call whose stated
 * arguments could not be read stays invalid: the raw text in `arguments` and `rawArguments`, the
 * reason in `invalid`, so admission repairs it or answers with a tool error (never `{}`). One whose
 * block was cut off before it closed (`partial`) is refused as well (`refused: true`): admission
 * never repairs a cut-off call into a runnable one.
 * @internal
 */
export function textToolCall(call: ParsedCall, seq: number, slot: number): LanguageModelV1ToolCall {
  const id = `text-${seq}-${slot}`;
  if (call.invalid !== undefined) {
    const refused = call.partial === true ? { refused: true as const } : {};
    return {
      id,
      name: call.name,
      arguments: call.arguments,
      rawArguments: call.arguments,
      invalid: call.invalid,
      ...refused,
    };
  }
  return { id, name: call.name, arguments: call.arguments, rawArguments: JSON.stringify(call.arguments) };
}
