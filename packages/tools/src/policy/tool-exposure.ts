/**
 * How a tool reaches the model: `direct` (on every request, the default), `deferred` (in a
 * searchable catalogue, callable by name or through `tool_search`/`tool_call`), `hidden` (host-only;
 * answered as unknown if the model names it, never listed or indexed).
 */
export type ToolExposure = 'direct' | 'deferred' | 'hidden';

/** All exposures, for validation of stored data. */
export const TOOL_EXPOSURES: readonly ToolExposure[] = ['direct', 'deferred', 'hidden'];
