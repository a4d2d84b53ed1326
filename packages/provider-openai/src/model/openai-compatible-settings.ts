import type { ModelProfile, SystemPromptPlacement } from '@tiny/llm';

/**
 * How a server or model deviates from the OpenAI wire format. Settable on the provider (every
 * model) and per model; per-model values win. Presets set them for each server.
 */
export interface OpenAICompatibleSettings {
  /**
   * Capabilities, merged over the preset's and passed to `createModelProfile`. With
   * `toolCalling: false` the adapter drives tools through the prompt (prompt-guided mode).
   */
  readonly profile?: Partial<ModelProfile> | undefined;
  /**
   * The server takes a named `tool_choice` (`{"type":"function","function":{"name":…}}`). When
   * `false`, a named choice is sent as `"required"` with `tools` filtered to that tool (left intact
   * when the name is not among them). Default `true`; `false` for the local presets. When `true`,
   * a 400 that blames `tool_choice` switches to the fallback once, remembered for the model.
   */
  readonly namedToolChoice?: boolean | undefined;
  /**
   * The server takes `response_format: {"type":"json_object"}`. When `false`, JSON mode is sent as
   * the permissive `{"type":"json_schema","json_schema":{"name":"json_object","schema":{"type":"object"},"strict":false}}`.
   * Default `true`; `false` for the local presets. When `true`, a 400 that blames
   * `response_format` switches once, remembered for the model.
   */
  readonly jsonObjectFormat?: boolean | undefined;
  /**
   * Move a leading `<think>…</think>` block of the content into reasoning. Default: on, except for
   * known hosted APIs that never inline reasoning (`api.openai.com`, Azure OpenAI, Mistral, Gemini).
   */
  readonly extractThinking?: boolean | undefined;
  /** The field for `maxTokens`. Default `max_tokens`; `max_completion_tokens` for the `openai` preset. */
  readonly maxTokensField?: 'max_tokens' | 'max_completion_tokens' | undefined;
  /** Ask for a final usage chunk when streaming (`stream_options.include_usage`). Default `true`. */
  readonly streamUsage?: boolean | undefined;
  /**
   * The field that carries an assistant turn's `reasoningContent` back to the server: vLLM,
   * llama.cpp and DeepSeek read `reasoning_content` (the default), Ollama reads `reasoning`;
   * `false` never sends it.
   */
  readonly replayReasoning?: 'reasoning_content' | 'reasoning' | false | undefined;
  /**
   * How recorded tool-call arguments are sent back. `raw` (default): byte for byte as the model
   * wrote them. `valid_json`: the same bytes when they are a JSON object, else the repaired object
   * re-serialised, else `{}`; for local servers (the local presets) that parse the arguments of
   * replayed calls and answer 400/500 to a malformed one.
   */
  readonly replayArguments?: 'raw' | 'valid_json' | undefined;
  /**
   * Where the served model's chat template takes the system prompt: `system` (default) or
   * `first_user` for templates that drop or reject the system role (Gemma 2, Falcon, ChatGLM):
   * every request then carries the system text, and in prompt-guided mode the tool instructions,
   * at the start of its first user turn (`placeSystemPrompt`). Sets the model profile's
   * `systemPrompt` (this setting wins over `profile.systemPrompt`), so a harness sees it too.
   */
  readonly systemPrompt?: SystemPromptPlacement | undefined;
  /**
   * Where a `json_schema` response format goes: structured output, and the call envelope of
   * constrained prompt-guided calls (`ModelProfile.constrainedCalls`). `response_format` (default):
   * OpenAI's `{"type":"json_schema","json_schema":{name, schema, strict}}`, which llama.cpp
   * (`oaicompat_chat_params_parse`), Ollama's OpenAI endpoint (mapped to its `format`), LM Studio
   * and vLLM all take. `json_schema`: llama.cpp's own top-level field, the bare schema.
   * `structured_outputs`: vLLM 0.10.2 and later, `{"structured_outputs":{"json": schema}}`.
   * `guided_json`: vLLM before 0.12 (removed there), the bare schema. JSON mode (`json`) always
   * goes in `response_format`.
   */
  readonly schemaField?: SchemaField | undefined;
}

/** The request field that carries a JSON Schema to enforce (see `OpenAICompatibleSettings.schemaField`). */
export type SchemaField = 'response_format' | 'json_schema' | 'structured_outputs' | 'guided_json';

/** Every setting resolved to a value. @internal */
export interface ResolvedSettings {
  readonly namedToolChoice: boolean;
  readonly jsonObjectFormat: boolean;
  readonly extractThinking: boolean;
  readonly maxTokensField: 'max_tokens' | 'max_completion_tokens';
  readonly streamUsage: boolean;
  readonly replayReasoning: 'reasoning_content' | 'reasoning' | false;
  readonly replayArguments: 'raw' | 'valid_json';
  readonly schemaField: SchemaField;
}

const hostedApis = [/^api\.openai\.com$/, /\.openai\.azure\.com$/, /^api\.mistral\.ai$/, /(^|\.)googleapis\.com$/];

/**
 * True for known hosted APIs that return reasoning in their own fields, never inline in the content.
 * @internal
 */
export function isHostedURL(baseURL: string): boolean {
  try {
    const host = new URL(baseURL).hostname.toLowerCase();
    return hostedApis.some((pattern) => pattern.test(host));
  } catch {
    return false;
  }
}

/** Resolves settings, later layers winning over earlier ones. @internal */
export function resolveSettings(
  baseURL: string,
  ...layers: (OpenAICompatibleSettings | undefined)[]
): ResolvedSettings {
  const pick = <K extends keyof ResolvedSettings>(key: K, fallback: ResolvedSettings[K]): ResolvedSettings[K] => {
    let value = fallback;
    for (const layer of layers) {
      const given = layer?.[key];
      if (given !== undefined) value = given as ResolvedSettings[K];
    }
    return value;
  };
  return {
    namedToolChoice: pick('namedToolChoice', true),
    jsonObjectFormat: pick('jsonObjectFormat', true),
    extractThinking: pick('extractThinking', !isHostedURL(baseURL)),
    maxTokensField: pick('maxTokensField', 'max_tokens'),
    streamUsage: pick('streamUsage', true),
    replayReasoning: pick('replayReasoning', 'reasoning_content'),
    replayArguments: pick('replayArguments', 'raw'),
    schemaField: pick('schemaField', 'response_format'),
  };
}
