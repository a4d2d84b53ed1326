/**
 * How deep a value read off the wire may nest (arrays and objects), the same bound the harness
 * admits tool arguments with. Deeper values are refused before any recursive helper
 * (`JSON.stringify`, a schema walk) meets them, so a hostile server cannot overflow the stack.
 */
export const MAX_WIRE_DEPTH = 64;

/**
 * True when `value` nests arrays or objects more than `maxDepth` levels deep (a scalar is depth
 * 0, `{}` and `[]` are depth 1). Walks iteratively and stops at the first path past the bound, so
 * it never recurses and costs at most the size of the value.
 */
export function exceedsWireDepth(value: unknown, maxDepth: number = MAX_WIRE_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: [object, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [object, number];
    if (depth > maxDepth) return true;
    const children: unknown[] = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * `JSON.stringify(value)`, or `fallback` when the value nests past {@link MAX_WIRE_DEPTH} (or
 * cannot be serialised at all): never throws.
 */
export function stringifyWire(value: unknown, fallback: string): string {
  if (exceedsWireDepth(value)) return fallback;
  try {
    return JSON.stringify(value) ?? fallback;
  } catch {
    return fallback;
  }
}
