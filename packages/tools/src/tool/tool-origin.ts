const origins = new WeakMap<object, object>();

/**
 * The tool `tool` was made from: what {@link recordToolOrigin} recorded for it (wrappers such as
 * renamed, prefixed or approval-requiring toolsets, and `completeTool`), followed to the first tool;
 * `tool` itself when it wraps nothing. Two tools with the same origin run the same `execute`, so a
 * harness that gates one under some name must gate the other alike.
 */
export function toolOrigin<TTool extends object>(tool: TTool): object {
  return origins.get(tool) ?? tool;
}

/**
 * Records that `wrapper` was made from `inner` (a copy with another name, description, schema or
 * policy): `toolOrigin(wrapper)` becomes `toolOrigin(inner)`. Call it from every wrapper that keeps
 * the inner tool's `execute`.
 */
export function recordToolOrigin(wrapper: object, inner: object): void {
  if (wrapper !== inner) origins.set(wrapper, toolOrigin(inner));
}
