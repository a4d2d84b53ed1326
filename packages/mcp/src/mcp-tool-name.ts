import { checkToolName, TOOL_NAME_MAX_LENGTH } from '@tiny/tools';

/**
 * Maps MCP tool names to provider-safe advertised names: `prefix + name`, with characters outside
 * `[A-Za-z0-9_-]` replaced by `_`, a leading `_` when the result would start with a digit or `-`,
 * and names over 64 characters cut and suffixed with a short hash. Collisions get `_2`, `_3`, ….
 * Returns a map from advertised name to MCP name, in input order; names that still fail
 * `checkToolName` are left out.
 */
export function advertisedToolNames(names: readonly string[], prefix: string): Map<string, string> {
  return new McpToolNames(prefix).assign(names);
}

/**
 * Advertised names for one session: a name, once given to an MCP tool, keeps meaning that tool for
 * the life of the toolset (it is never given to another MCP tool, whatever the order of later
 * listings, and a tool listed again gets its old name back), so a colliding newcomer never moves
 * an existing tool's name.
 * @internal
 */
export class McpToolNames {
  private readonly byMcpName = new Map<string, string>();
  private readonly taken = new Set<string>();

  constructor(private readonly prefix: string) {}

  /** Advertised name → MCP name for `names` (in input order); unusable names are left out. */
  assign(names: readonly string[]): Map<string, string> {
    const out = new Map<string, string>();
    for (const original of names) {
      const name = this.nameOf(original);
      if (name !== undefined && !out.has(name)) out.set(name, original);
    }
    return out;
  }

  private nameOf(original: string): string | undefined {
    const known = this.byMcpName.get(original);
    if (known !== undefined) return known;
    let name = `${this.prefix}${original}`.replace(/[^A-Za-z0-9_-]/g, '_');
    if (!/^[A-Za-z_]/.test(name)) name = `_${name}`;
    if (name.length > TOOL_NAME_MAX_LENGTH) name = `${name.slice(0, TOOL_NAME_MAX_LENGTH - 9)}_${hash(original)}`;
    let unique = name;
    for (let index = 2; this.taken.has(unique); index += 1) {
      const suffix = `_${index}`;
      unique = `${name.slice(0, TOOL_NAME_MAX_LENGTH - suffix.length)}${suffix}`;
    }
    if (checkToolName(unique) !== undefined) return undefined;
    this.taken.add(unique);
    this.byMcpName.set(original, unique);
    return unique;
  }
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
