import type { JsonValue } from '@tiny/tools';
import type { Message, ToolMessage } from '../messages/message.js';
import type { CallSource, ParseDiagnostic } from '../parse/parse-types.js';
import type { SystemPromptPlacement } from '../prompt/place-system-prompt.js';
import type { LanguageModelV1ToolCall } from '../spec/language-model-v1.js';
import type { ToolChoice } from '../spec/tool-choice.js';
import type { ToolSchema } from '../spec/tool-schema.js';

/**
 * A run's *dialect*: how the whole catalogue, the call protocol and the result envelope are
 * written for a model. `native` (schemas on the wire, structured calls), `tagged_json` (JSON
 * inside `<tool_call>` tags, full schemas in the prompt), `pformat` (`name[0|a|1|b]` in tags) or
 * `python` / `typescript` (call syntax in tags). Not to be confused with a tool's *format*
 * (`ToolFormat`: how one tool is shown and called, `json` / `xml` / `ptype`) or the *grammar* a
 * call was read with (`CallSource`). See docs/decisions/0001-format-dialect-grammar.md.
 *
 * `xml` is the deprecated name of `tagged_json` (it writes JSON inside tags, not XML elements);
 * it is still accepted and creates the `tagged_json` dialect.
 */
export type ToolDialectKind =
  | 'native'
  | 'tagged_json'
  | 'pformat'
  | 'python'
  | 'typescript'
  | DeprecatedToolDialectKind;

/** @deprecated `xml` is the old name of the `tagged_json` dialect; use `tagged_json`. */
export type DeprecatedToolDialectKind = 'xml';

/** The canonical name of a dialect kind: `xml` (deprecated) becomes `tagged_json`. */
export function canonicalDialectKind(kind: ToolDialectKind): Exclude<ToolDialectKind, DeprecatedToolDialectKind> {
  return kind === 'xml' ? 'tagged_json' : kind;
}

/** The part of a model response a dialect reads; a `LanguageModelV1Response` fits as is. */
export interface DialectResponse {
  /** The model's text exactly as it arrived, call tags included. */
  readonly content: string;
  /** Structured calls from the provider; absent or empty when there were none. */
  readonly toolCalls?: readonly LanguageModelV1ToolCall[] | undefined;
  readonly reasoning?: string | undefined;
  readonly reasoningSignature?: string | undefined;
}

/**
 * A call a dialect found. Structured calls keep the provider's `id`, `rawArguments`,
 * `extraContent` and `invalid` marker; calls read from text have no id (the harness mints
 * `{modelCallId}-tool-{n}`) and decoded object arguments.
 */
export interface DialectCall {
  readonly id?: string | undefined;
  readonly name: string;
  /** Decoded arguments; the raw string when `invalid` is set. */
  readonly arguments: unknown;
  readonly invalid?: string | undefined;
  /** The adapter refused the call (see `ToolCall.refused`): admission never repairs or runs it. */
  readonly refused?: true | undefined;
  /**
   * Set on an invalid call read from text whose block was cut off before it closed (the text
   * ended inside it): admission answers it with an error and never repairs it into a runnable call.
   */
  readonly partial?: true | undefined;
  readonly rawArguments?: string | undefined;
  readonly extraContent?: JsonValue | undefined;
  readonly source: CallSource;
}

/** What a dialect read out of a response. */
export interface DialectParse {
  /** The narrative to show the user: the text without call blocks. */
  readonly text: string;
  /** The text to record on the assistant turn for replay (for text dialects the raw text with its tags). */
  readonly replayText: string;
  readonly calls: readonly DialectCall[];
  readonly diagnostics: readonly ParseDiagnostic[];
}

/** How much of the tool prompt the loop writes. */
export interface ToolPromptOptions {
  /**
   * The host's own system prompt already describes the tools and how to call them, so the
   * protocol block and catalogue are left out. A forced tool choice is still spelled out, and so
   * are the tools named in `alwaysListed`. Default `false`.
   */
  readonly hostRendersCatalogue?: boolean | undefined;
  /** Tools listed even when the host renders the catalogue (structured-output fallback tools). */
  readonly alwaysListed?: readonly string[] | undefined;
  /**
   * Text dialects: `first_user` merges the system prompt and the tool instructions into the first
   * user turn (`placeSystemPrompt`), for chat templates without a system role. Default `system`.
   */
  readonly systemPrompt?: SystemPromptPlacement | undefined;
}

/**
 * One way of talking tools with a model: the catalogue it reads, the call syntax it writes, the
 * result envelope it gets back and the shape a history is replayed in. Create one with
 * `createToolDialect`. Every method is pure; none throws on model text.
 */
export interface ToolDialect {
  /** The canonical kind (`tagged_json`, never the deprecated `xml`). */
  readonly kind: Exclude<ToolDialectKind, DeprecatedToolDialectKind>;
  /** Send tool schemas on the wire (native only); text dialects put them in the prompt instead. */
  readonly shouldSendToolSpecs: boolean;
  /** The protocol block itself holds the full-schema catalogue (`xml`); otherwise it is a separate section or absent. */
  readonly embedsToolCatalogue: boolean;
  /**
   * The system-prompt text for these tools: protocol block, catalogue, then the forced-choice
   * sentence. Empty for choice `none` or no tools. For `native`, behavioural guidance only.
   */
  promptInstructions(tools: readonly ToolSchema[], choice?: ToolChoice, options?: ToolPromptOptions): string;
  /** One call written the way this dialect teaches the model to write it (`native`: the JSON form). */
  renderCall(call: { readonly name: string; readonly arguments: unknown }, tools: readonly ToolSchema[]): string;
  /**
   * Reads a response: structured calls when the provider sent any, else calls recovered from the
   * text with every grammar and the offered tool names (refusing rather than guessing).
   */
  parseResponse(response: DialectResponse, tools: readonly ToolSchema[], options?: DialectParseOptions): DialectParse;
  /**
   * How a batch of results looks to the model: text dialects fold them into `[Tool results]` user
   * turns (trusted-verbatim results in turns of their own); `native` keeps one tool message per
   * call, an empty call id becoming `unknown`. Record the tool messages themselves in the
   * transcript; `toProviderMessages` folds them the same way.
   */
  formatResults(results: readonly ToolMessage[]): Message[];
  /**
   * The history as this model must receive it. Always drops broken tool cycles
   * (`pairToolCycles`). Text dialects then write calls into assistant text, fold results, make
   * sure there is a user turn to resolve and add the tool instructions to the system prompt (or,
   * with `options.systemPrompt: 'first_user'`, to the first user turn); `native` sends the paired
   * history as is.
   */
  toProviderMessages(
    history: readonly Message[],
    tools: readonly ToolSchema[],
    choice?: ToolChoice,
    options?: ToolPromptOptions,
  ): Message[];
}

/** Options for {@link ToolDialect.parseResponse}. */
export interface DialectParseOptions {
  /**
   * `ModelProfile.toolCallFormats`: the grammars calls may be read from in the text of a native
   * dialect's response. Text dialects read every grammar (they taught the model their format).
   */
  readonly toolCallFormats?: readonly CallSource[] | undefined;
}
