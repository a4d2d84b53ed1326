/** Whether and which tool the model must call: `auto` (default), `none`, `required`, or one named tool. */
export type ToolChoice =
  | { readonly type: 'auto' }
  | { readonly type: 'none' }
  | { readonly type: 'required' }
  | { readonly type: 'tool'; readonly toolName: string };
