/**
 * How a tool is shown to a model and how the model writes a call to it.
 * `json` (the default, omitted when serialised): `{"name": ..., "arguments": {...}}` or native function calling.
 * `xml`: one element per field, `<weather><city>Oslo</city></weather>`.
 * `ptype`: positional call syntax, `search("rust agents", 5)`; `parameters` lists the field
 * names in positional order.
 */
export type ToolFormat =
  | { readonly type: 'json' }
  | { readonly type: 'xml' }
  | { readonly type: 'ptype'; readonly parameters: readonly string[] };
