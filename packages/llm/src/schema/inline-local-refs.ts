import type { JsonSchema } from '@tiny/tools';
import { isRecord, mapSubschemas } from './map-subschemas.js';
import { resolveLocalRef } from './resolve-local-ref.js';

interface Visited {
  readonly value: unknown;
  /** Smallest stack index a cycle cut pointed at while building `value`; `Infinity` for none. */
  readonly cut: number;
}

/**
 * Replaces every local `$ref` (`#/$defs/x`, `#/definitions/x`, any JSON pointer into the
 * document) with a copy of its target. Keywords written beside a `$ref` (a `description`, say)
 * are kept and win over the target's. A reference back into a definition that is already being
 * inlined becomes `{}` (plus its sibling keywords), so recursive schemas end after one unrolling
 * and are widened, never narrowed; a local reference that leads nowhere also becomes `{}`.
 * Non-local references (`other.json#/x`) are left as written. Definition tables stay in place
 * (see `cleanSchema` to drop them). The input is not changed; the output may share unchanged
 * subtrees between the places a definition was used.
 */
export function inlineLocalRefs(schema: JsonSchema): JsonSchema {
  const root: unknown = schema;
  const stack: string[] = [];
  const memo = new Map<string, unknown>();

  const visit = (node: unknown): Visited => {
    if (!isRecord(node)) return { value: node, cut: Number.POSITIVE_INFINITY };
    let cut = Number.POSITIVE_INFINITY;
    const child = (sub: unknown): unknown => {
      const visited = visit(sub);
      cut = Math.min(cut, visited.cut);
      return visited.value;
    };
    const ref = node.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#')) return { value: mapSubschemas(node, child), cut };

    const { $ref: _ref, ...siblings } = node;
    const rest = mapSubschemas(siblings, child);
    let expanded: unknown;
    const target = resolveLocalRef(root, ref);
    const onStack = stack.indexOf(ref);
    if (target === undefined) {
      expanded = {};
    } else if (onStack >= 0) {
      expanded = {};
      cut = Math.min(cut, onStack);
    } else if (memo.has(ref)) {
      expanded = memo.get(ref);
    } else {
      const index = stack.length;
      stack.push(ref);
      const inner = visit(target);
      stack.pop();
      expanded = inner.value;
      // Cut only at this reference or deeper: the expansion is a sound (widened) unrolling
      // wherever the reference is used, so it can be reused.
      if (inner.cut >= index) memo.set(ref, expanded);
      else cut = Math.min(cut, inner.cut);
    }
    if (expanded === false) return { value: false, cut };
    return { value: isRecord(expanded) ? { ...expanded, ...rest } : rest, cut };
  };

  const result = visit(root).value;
  return isRecord(result) ? result : {};
}
