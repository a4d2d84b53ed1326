import { checkToolName, TOOL_NAME_MAX_LENGTH } from '@tiny/tools';

/**
 * Maps MCP tool names to provider-safe advertised names: `prefix + name`, with characters outside
 * `[A-Za-z0-9_-]` replaced by `_`, a leading `_` when the result would start with a digit or `-`,
 * and names over 64 characters cut and suffixed with a short hash. Collisions get `_2`, `_3`, ….
 * Returns a map from advertised name to MCP name, in input order; names that still fail
 * `checkToolName` are left out.
 */
export function advertisedToolNames(names: readonly string[], prefix: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const original of names) {
    let name = `${prefix}${original}`.replace(/[^A-Za-z0-9_-]/g, '_');
    if (!/^[A-Za-z_]/.test(name)) name = `_${name}`;
    if (name.length > TOOL_NAME_MAX_LENGTH) name = `${name.slice(0, TOOL_NAME_MAX_LENGTH - 9)}_${hash(original)}`;
    let unique = name;
    for (let index = 2; out.has(unique); index += 1) {
      const suffix = `_${index}`;
      unique = `${name.slice(0, TOOL_NAME_MAX_LENGTH - suffix.length)}${suffix}`;
    }
    if (checkToolName(unique) === undefined) out.set(unique, original);
  }
  return out;
}

/** 8 hex digits of FNV-1a over the UTF-16 code units. */
function hash(text: string): string {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value.toString(16).padStart(8, '0');
}
