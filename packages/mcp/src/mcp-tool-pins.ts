import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { AgentEventOf, ToolSetEvent } from '@tiny/harness';
import { McpPinFileError } from './errors/mcp-pin-file-error.js';

/** The parts of an MCP tool definition a pin covers, each hashed on its own so a change can be named. */
export const MCP_PINNED_FIELDS = [
  'name',
  'title',
  'description',
  'inputSchema',
  'outputSchema',
  'annotations',
] as const;

/** One pinned part of a tool definition. */
export type McpPinnedField = (typeof MCP_PINNED_FIELDS)[number];

/** The SHA-256 (hex) of a tool definition as the server listed it, whole and per field. */
export interface McpToolPin {
  readonly sha256: string;
  readonly fields: Readonly<Record<McpPinnedField, string>>;
}

/** The schema version of pin files this build reads and writes. */
export const MCP_PIN_FILE_VERSION = 1;

/** Approved tool definitions of one server, by the server's tool name (see {@link writeMcpPinFile}). */
export interface McpPinFile {
  readonly version: typeof MCP_PIN_FILE_VERSION;
  /** The server's reported name, for people reading the file. */
  readonly server?: string | undefined;
  readonly tools: Readonly<Record<string, McpToolPin>>;
}

/**
 * Reported when a listing (the first one against a pin file, a `list_changed` refresh, a call's
 * check or a reconnect) holds a tool whose definition differs from the one listed before (or, at
 * the first listing, from its pin): while `withheld`, the tool is not offered until the host
 * approves the new digest (`McpToolSet.approveDefinition(toolName, current)`). `changed` names the
 * parts that differ from the pin. The harness event of the same name.
 */
export type McpToolDefinitionChangedEvent = AgentEventOf<'tool_definition_changed'>;

/** Any definition event an `McpToolSet` reports: a tool added, changed or removed between listings. */
export type McpToolDefinitionEvent = ToolSetEvent;

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Pins a tool definition exactly as the server listed it (before any sanitising): SHA-256 of the
 * canonical JSON (keys sorted, absent fields as null) of its name, title, description, input and
 * output schema and annotations, whole and per field.
 */
export function pinToolDefinition(tool: McpTool): McpToolPin {
  const record = tool as unknown as Record<string, unknown>;
  const values = MCP_PINNED_FIELDS.map((field) => record[field] ?? null);
  const fields = Object.fromEntries(
    MCP_PINNED_FIELDS.map((field, index) => [field, sha256(canonical(values[index]))]),
  ) as Record<McpPinnedField, string>;
  return { sha256: sha256(canonical(['tiny.mcp.pin.v1', ...values])), fields };
}

/** The fields whose hashes differ between two pins. */
export function changedFields(pinned: McpToolPin, current: McpToolPin): McpPinnedField[] {
  return MCP_PINNED_FIELDS.filter((field) => pinned.fields[field] !== current.fields[field]);
}

const HEX = /^[0-9a-f]{64}$/;

/**
 * Checks parsed JSON as a pin file.
 * @throws {McpPinFileError} naming the bad entry.
 */
export function parseMcpPinFile(json: unknown, path = '<pins>'): McpPinFile {
  const fail = (reason: string): never => {
    throw new McpPinFileError({ path, reason });
  };
  if (typeof json !== 'object' || json === null) return fail('must be a JSON object');
  const file = json as Record<string, unknown>;
  if (file.version !== MCP_PIN_FILE_VERSION)
    fail(`version ${String(file.version)}; this build reads version ${MCP_PIN_FILE_VERSION}`);
  if (typeof file.tools !== 'object' || file.tools === null || Array.isArray(file.tools))
    fail('`tools` must be an object of pins by tool name');
  for (const [name, pin] of Object.entries(file.tools as Record<string, unknown>)) {
    const entry = pin as { sha256?: unknown; fields?: Record<string, unknown> } | null;
    if (typeof entry?.sha256 !== 'string' || !HEX.test(entry.sha256))
      fail(`\`tools.${name}.sha256\` must be 64 hex digits`);
    for (const field of MCP_PINNED_FIELDS) {
      const value = entry?.fields?.[field];
      if (typeof value !== 'string' || !HEX.test(value))
        fail(`\`tools.${name}.fields.${field}\` must be 64 hex digits`);
    }
  }
  return json as McpPinFile;
}

/**
 * Reads a pin file written by {@link writeMcpPinFile}.
 * @throws {McpPinFileError} when it is missing, not JSON or malformed.
 */
export async function readMcpPinFile(path: string): Promise<McpPinFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new McpPinFileError({ path, reason: 'cannot be read', cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new McpPinFileError({ path, reason: 'not valid JSON', cause: error });
  }
  return parseMcpPinFile(json, path);
}

/**
 * Writes the pins of a toolset (`toolSet.pins()`) or a pin file object as JSON (keys sorted, so the
 * file diffs cleanly under review).
 */
export async function writeMcpPinFile(path: string, source: McpPinFile | { pins(): McpPinFile }): Promise<void> {
  const file = 'pins' in source && typeof source.pins === 'function' ? source.pins() : (source as McpPinFile);
  const tools = Object.fromEntries(
    Object.keys(file.tools)
      .sort()
      .map((name) => [name, file.tools[name]]),
  );
  await writeFile(path, `${JSON.stringify({ ...file, tools }, null, 2)}\n`, 'utf8');
}
