/**
 * Follows a local JSON-pointer reference (`#`, `#/$defs/Name`, `#/definitions/a~1b`) inside `root`.
 * Segments are percent-decoded, then `~1` becomes `/` and `~0` becomes `~`. Returns `undefined`
 * for a non-local reference (`other.json#/x`), an anchor (`#name`) or a pointer that leads nowhere.
 *
 * @internal
 */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  const pointer = ref.slice(1);
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) return undefined;
  let node: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const segment = decodeSegment(raw);
    if (Array.isArray(node)) {
      if (!/^(0|[1-9][0-9]*)$/.test(segment)) return undefined;
      node = node[Number(segment)];
    } else if (typeof node === 'object' && node !== null && Object.hasOwn(node, segment)) {
      node = (node as Record<string, unknown>)[segment];
    } else {
      return undefined;
    }
    if (node === undefined) return undefined;
  }
  return node;
}

function decodeSegment(raw: string): string {
  let text = raw;
  if (text.includes('%')) {
    try {
      text = decodeURIComponent(text);
    } catch {
      // Not valid percent-encoding: keep the segment as written.
    }
  }
  return text.replaceAll('~1', '/').replaceAll('~0', '~');
}
