import type { JsonSchema } from '@tiny/tools';

/**
 * The shape the model's text answer must take.
 * - `text` (the default when absent): free text.
 * - `json`: any JSON value (a provider's "JSON mode" / `json_object`).
 * - `json_schema`: JSON matching `schema`. `name` identifies the schema to the provider (letters,
 *   digits, `_` and `-` are the safe set); `strict` asks the provider to enforce the schema while
 *   decoding, which needs a strict-compatible schema (see `toStrictSchema`). The caller still
 *   validates the answer locally against the declared schema.
 */
export type LanguageModelV1ResponseFormat =
  | { readonly type: 'text' }
  | { readonly type: 'json' }
  | {
      readonly type: 'json_schema';
      readonly name: string;
      readonly description?: string | undefined;
      readonly schema: JsonSchema;
      readonly strict?: boolean | undefined;
    };
