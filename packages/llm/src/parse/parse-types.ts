/**
 * Which grammar a parsed call came from (the *grammar*, in the vocabulary of
 * docs/decisions/0001-format-dialect-grammar.md; also exported as `CallGrammar`).
 */
export type CallSource =
  | 'native'
  | 'tagged_json'
  | 'invoke_xml'
  | 'sentinel'
  | 'harmony'
  | 'mistral'
  | 'command_action'
  | 'glm'
  | 'bare_json'
  | 'pformat'
  | 'code'
  | 'xml_element'
  | 'ptype'
  | 'pythonic'
  | 'function_gemma'
  | 'xtml';

/** The grammar a call was read with: {@link CallSource} under its vocabulary name. */
export type CallGrammar = CallSource;

/** A call read out of text whose arguments decoded to an object. */
export interface DecodedParsedCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  readonly source: CallSource;
  readonly invalid?: undefined;
}

/**
 * A call read out of text whose stated arguments are not an object (`"arguments": 5`, `null`,
 * `[]`, `"oops"`, JSON that does not parse): `arguments` is the raw argument text and `invalid`
 * the reason, the same shape as a provider's undecodable call (`ToolCall.invalid`), so admission
 * repairs it or answers with a tool error. It is never `{}`.
 */
export interface InvalidParsedCall {
  readonly name: string;
  readonly arguments: string;
  readonly source: CallSource;
  readonly invalid: string;
  /**
   * The call's block was cut off before it closed (the text ended inside it): a partial call that
   * must not be repaired into a runnable one; admission answers it with an error.
   */
  readonly partial?: true;
}

/**
 * A call read out of text. It has no id: the harness mints ids. Only a call that states no
 * arguments at all (`{"name":"opt"}`, `opt()`, `opt[]`) has `{}`.
 */
export type ParsedCall = DecodedParsedCall | InvalidParsedCall;

/**
 * Something the parser noticed. Diagnostics never contain model output beyond tool names.
 * - `malformed_block`: a call block was found but nothing decodable was in it (removed from text).
 * - `unterminated_block`: an opener without its closer (kept as text).
 * - `name_repaired`: a call's name was repaired to a known tool.
 * - `unknown_tool`: a call names no known tool (the call is still returned).
 * - `arguments_repaired`: a call's arguments needed relaxed-JSON repair.
 * - `call_dropped`: one call of a block could not be read (its readable siblings were kept).
 */
export type ParseDiagnostic =
  | { readonly kind: 'malformed_block'; readonly source: CallSource; readonly bodyChars: number }
  | { readonly kind: 'unterminated_block'; readonly source: CallSource }
  | { readonly kind: 'name_repaired'; readonly from: string; readonly to: string }
  | { readonly kind: 'unknown_tool'; readonly name: string }
  | { readonly kind: 'arguments_repaired'; readonly tool: string }
  | { readonly kind: 'call_dropped'; readonly source: CallSource; readonly tool: string };

/** What the parser returns: the narrative text left after removing call blocks, the calls, and diagnostics. */
export interface ParsedText {
  readonly text: string;
  readonly calls: ParsedCall[];
  readonly diagnostics: ParseDiagnostic[];
}
