import type { LanguageModelV1ToolCall, ParsedCall, ToolSchema } from '@tiny/llm';

/** What the response readers need to know about the request and the provider. @internal */
export interface ReadContext {
  readonly provider: string;
  readonly secret?: string | undefined;
  /** Move a leading `<think>` block of the content into reasoning. */
  readonly extractThinking: boolean;
  /** Tools offered in the prompt: read calls from the text. `undefined` in native mode. */
  readonly textTools: readonly ToolSchema[] | undefined;
  /** Draws the next `seq` for `text-{seq}-{slot}` ids; called once per response that has text calls. */
  readonly nextTextSequence: () => number;
  readonly headers?: Headers | undefined;
  /** The HTTP status of the response being read. */
  readonly httpStatus?: number | undefined;
}

/**
 * A call read from text as a response tool call: id `text-{seq}-{slot}`, decoded arguments, and
 * their compact JSON as the raw argument text (what a replay will show).
 * @internal
 */
export function textToolCall(call: ParsedCall, seq: number, slot: number): LanguageModelV1ToolCall {
  return {
    id: `text-${seq}-${slot}`,
    name: call.name,
    arguments: call.arguments,
    rawArguments: JSON.stringify(call.arguments),
  };
}
