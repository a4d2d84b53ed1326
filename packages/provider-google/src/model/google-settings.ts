import type { ModelProfile } from '@tiny/llm';
import type { GoogleProviderOptions } from '../request/google-provider-options.js';
import type { GoogleSchemaMode } from '../request/to-gemini-schema.js';

/** Per-provider or per-model settings; per-model values win. */
export interface GoogleSettings {
  /**
   * Capabilities, merged over the defaults (native tools, parallel calls, JSON-schema output)
   * and passed to `createModelProfile`.
   */
  readonly profile?: Partial<ModelProfile> | undefined;
  /**
   * How schemas are sent: `json-schema` (default; `parametersJsonSchema`, `responseJsonSchema`)
   * or `openapi` (`parameters`, `responseSchema`: Gemini's OpenAPI subset; a keyword it cannot
   * express throws `GoogleSchemaError` before the request is sent).
   */
  readonly schemaMode?: GoogleSchemaMode | undefined;
  /** Provider options sent with every request of the model; a request's own win key by key. */
  readonly providerOptions?: GoogleProviderOptions | undefined;
}
