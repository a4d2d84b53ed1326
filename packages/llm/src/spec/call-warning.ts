/**
 * Something in the request the provider did not honour; the call still went ahead.
 * - `unsupported_setting`: a request field was ignored (for example `seed`).
 * - `unsupported_tool`: a tool could not be sent and was left out.
 * - `other`: anything else, as a sentence.
 */
export type LanguageModelV1CallWarning =
  | { readonly type: 'unsupported_setting'; readonly setting: string; readonly details?: string | undefined }
  | { readonly type: 'unsupported_tool'; readonly toolName: string; readonly details?: string | undefined }
  | { readonly type: 'other'; readonly message: string };
