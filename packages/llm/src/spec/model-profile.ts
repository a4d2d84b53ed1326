import type { CallSource } from '../parse/parse-types.js';
import type { SystemPromptPlacement } from '../prompt/place-system-prompt.js';
import type { SchemaTransform } from '../schema/schema-transform.js';
import type { ToolFormat } from './tool-format.js';

/**
 * What a model can do, as data. Callers pick the tool-call path and the structured-output
 * strategy from it; adapters publish one per model.
 */
export interface ModelProfile {
  /** The provider accepts tool declarations and returns structured tool calls. */
  readonly toolCalling: boolean;
  /** The model may return several tool calls in one response. */
  readonly parallelToolCalls: boolean;
  /**
   * Native structured output: `json_schema` (the provider enforces a given schema), `json_object`
   * (any JSON, no schema) or `none`.
   */
  readonly structuredOutput: 'json_schema' | 'json_object' | 'none';
  /**
   * Tool formats the provider takes natively as declarations. A tool whose format is not listed is
   * rendered into the prompt and its calls are parsed back from text.
   */
  readonly toolFormats: readonly ToolFormat['type'][];
  /**
   * How structured output is obtained when the caller does not choose: `provider` (native response
   * format, or plain text parsed as JSON), `tool` (a synthetic tool whose arguments are the answer)
   * or `prompted` (the schema is put in the system prompt).
   */
  readonly defaultStructuredMode: 'provider' | 'tool' | 'prompted';
  /** Applied to every tool and response schema before it is sent; absent means verbatim. */
  readonly schemaTransform?: SchemaTransform | undefined;
  /**
   * Where the model's chat template takes the system prompt. `system` (the default, also when
   * absent): system messages. `first_user`: the template drops or rejects the system role (Gemma
   * 2, Falcon, ChatGLM), so the system text and the prompt-guided tool instructions are merged
   * into the first user turn (or the continuation turn) with `placeSystemPrompt`; the harness and
   * the OpenAI-compatible adapter both apply it to every request.
   */
  readonly systemPrompt?: SystemPromptPlacement | undefined;
  /**
   * Where the adapter sends a system message that is not first. `in_place` (the default, also when
   * absent): where it stands among the messages (OpenAI chat and Responses). `hoisted`: every
   * system message, in order, goes into the one system field sent before the conversation
   * (Anthropic's `system`, Gemini's `systemInstruction`: neither API has a system role among its
   * messages), so adding one anywhere changes the prompt prefix; a prefix tracker must not take it
   * for an append.
   */
  readonly systemMessages?: 'in_place' | 'hoisted' | undefined;
  /**
   * The grammars this model family writes calls in as text (`CallSource`s: `harmony` for gpt-oss,
   * `mistral` for Mistral, `['tagged_json']` for Hermes-style models, ...). An adapter that sets
   * it restricts `parseToolCalls` and the stream scrubber to them, so another family's markup a
   * model quotes stays text. Absent means every grammar. Text dialects (xml, pformat, code), which
   * teach their own format, ignore it.
   */
  readonly toolCallFormats?: readonly CallSource[] | undefined;
  /**
   * Prompt-guided calls under constrained decoding: a text-dialect request carries the JSON
   * Schema of a valid reply (`callEnvelopeSchema`: one `{"name", "arguments"}` branch per allowed
   * tool, plus `{"answer"}` for `auto`) as its `responseFormat`, so the server can only emit a
   * parsable call, and the reply is read back with `readCallEnvelope` into the same admission.
   * `true`: every request with tools (except under `none`). `false`: never. Absent: only for a
   * forced choice (`required` or a named tool) when `structuredOutput` is `json_schema`.
   */
  readonly constrainedCalls?: boolean | undefined;
}

/**
 * Builds a complete profile from the fields given. Defaults for omitted fields:
 * - `toolCalling`: `true`.
 * - `parallelToolCalls`: equal to `toolCalling`.
 * - `structuredOutput`: `'none'`.
 * - `toolFormats`: `['json']` with tool calling, `[]` without.
 * - `defaultStructuredMode`: `'provider'` when `structuredOutput` is `'json_schema'`; otherwise
 *   `'tool'` when the model calls tools; otherwise `'provider'` (a model without tool calling is
 *   never given the tool strategy by default).
 * - `schemaTransform`: none.
 * - `systemPrompt`: none (system messages).
 * - `systemMessages`: none (in place).
 * - `toolCallFormats`: none (every grammar).
 * - `constrainedCalls`: none (constrained only for forced choices on `json_schema` servers).
 *
 * Given fields are kept as they are, even when they contradict each other.
 */
export function createModelProfile(partial: Partial<ModelProfile> = {}): ModelProfile {
  const toolCalling = partial.toolCalling ?? true;
  const structuredOutput = partial.structuredOutput ?? 'none';
  const derivedMode = structuredOutput === 'json_schema' ? 'provider' : toolCalling ? 'tool' : 'provider';
  const profile: ModelProfile = {
    toolCalling,
    parallelToolCalls: partial.parallelToolCalls ?? toolCalling,
    structuredOutput,
    toolFormats: partial.toolFormats ?? (toolCalling ? ['json'] : []),
    defaultStructuredMode: partial.defaultStructuredMode ?? derivedMode,
  };
  return {
    ...profile,
    ...(partial.schemaTransform === undefined ? {} : { schemaTransform: partial.schemaTransform }),
    ...(partial.systemPrompt === undefined ? {} : { systemPrompt: partial.systemPrompt }),
    ...(partial.systemMessages === undefined ? {} : { systemMessages: partial.systemMessages }),
    ...(partial.toolCallFormats === undefined ? {} : { toolCallFormats: [...partial.toolCallFormats] }),
    ...(partial.constrainedCalls === undefined ? {} : { constrainedCalls: partial.constrainedCalls }),
  };
}
