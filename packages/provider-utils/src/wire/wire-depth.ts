import { nestsDeeperThan } from '@tiny/llm';

/**
 * How deep a value read off the wire may nest (arrays and objects), the same bound the harness
 * admits tool arguments with. Deeper values are refused before any recursive helper
 * (`JSON.stringify`, a schema walk) meets them, so a hostile server cannot overflow the stack.
 */
export const MAX_WIRE_DEPTH = 64;

/**
 * True when `value` nests arrays or objects more than `maxDepth` levels deep (a scalar is depth
 * 0, `{}` and `[]` are depth 1): `nestsDeeperThan` of `@tiny/llm` (iterative, stops at the first
 * path past the bound, walks a shared object again only from a deeper level).
 */
export function exceedsWireDepth(value: unknown, maxDepth: number = MAX_WIRE_DEPTH): boolean {
  return nestsDeeperThan(value, maxDepth);
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
