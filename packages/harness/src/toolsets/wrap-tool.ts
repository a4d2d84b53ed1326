import {
  type AnyTool,
  type CompleteTool,
  completeTool,
  type JsonSchema,
  recordToolOrigin,
  type ToolPolicy,
} from '@tiny/tools';

/** The members a toolset adaptor may change on a tool; everything else is delegated. */
export interface ToolOverrides {
  readonly name?: string;
  readonly description?: string;
  readonly parameters?: JsonSchema;
  /** Replaces the library validators (a prepared schema given as a Standard Schema). */
  readonly standardSchemas?: CompleteTool<never>['standardSchemas'];
  readonly policy?: ToolPolicy;
}

/**
 * A copy of `tool` with only `overrides` changed. Starts from {@link completeTool}, so every other
 * member (exposure, injected arguments, concurrency, timeouts, display, `returnDirect`, `execute`…)
 * is the original's, bound to it: nothing silently resets to a default.
 * @internal
 */
export function wrapTool(tool: AnyTool, overrides: ToolOverrides): CompleteTool<never> {
  const complete = completeTool(tool);
  const wrapped: CompleteTool<never> = {
    ...complete,
    ...(overrides.name === undefined ? {} : { name: overrides.name }),
    ...(overrides.description === undefined ? {} : { description: overrides.description }),
    ...(overrides.parameters === undefined ? {} : { parameters: overrides.parameters }),
    ...(overrides.policy === undefined ? {} : { policy: overrides.policy }),
    ...(overrides.standardSchemas === undefined ? {} : { standardSchemas: overrides.standardSchemas }),
  };
  // The copy keeps the tool's provenance: nested calls to the original meet the copy's gates.
  recordToolOrigin(wrapped, tool);
  return wrapped;
}
