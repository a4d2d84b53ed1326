import { pointerSegment } from '../answer/answer-repairs.js';

/** Containers followed at most (a parsed answer nests far less; the readers refuse past 512). */
const MAX_DEPTH = 1024;

/**
 * The JSON pointer of the first number in `value` that is not finite (`Infinity`, `-Infinity`,
 * `NaN`), or `undefined` when there is none. `JSON.parse('1e999')` gives `Infinity`, which JSON
 * Schema's `integer` and `number` checks accept; no JSON text means it, so a caller refuses it.
 * Walks own enumerable properties and array items, depth-first, up to 1024 levels.
 */
export function findNonFiniteNumber(value: unknown): string | undefined {
  const stack: { readonly value: unknown; readonly path: string; readonly depth: number }[] = [
    { value, path: '', depth: 0 },
  ];
  while (stack.length > 0) {
    const { value: node, path, depth } = stack.pop() as (typeof stack)[number];
    if (typeof node === 'number') {
      if (!Number.isFinite(node)) return path === '' ? '/' : path;
      continue;
    }
    if (typeof node !== 'object' || node === null || depth >= MAX_DEPTH) continue;
    const entries = Array.isArray(node)
      ? node.map((item, index) => [String(index), item] as const)
      : Object.entries(node);
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, child] = entries[index] as readonly [string, unknown];
      stack.push({ value: child, path: `${path}/${pointerSegment(key)}`, depth: depth + 1 });
    }
  }
  return undefined;
}
