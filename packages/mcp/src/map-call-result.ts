import { type JsonValue, type ToolContent, ToolResult } from '@tiny/tools';

type Block = Record<string, unknown>;
const isRecord = (value: unknown): value is Block =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);

/**
 * Maps one MCP content block onto a tool content block: `text` → text; `image` → image (base64);
 * `audio` → file (base64); an embedded `resource` → its text, or a file with its blob; a
 * `resource_link` → a file pointing at its URI; anything else → a JSON block holding it.
 */
export function contentFromMcp(block: unknown): ToolContent {
  if (!isRecord(block)) return { type: 'json', data: (block ?? null) as JsonValue };
  switch (block.type) {
    case 'text':
      return { type: 'text', text: text(block.text) };
    case 'image':
      return {
        type: 'image',
        mediaType: text(block.mimeType, 'image/png'),
        data: { kind: 'base64', value: text(block.data) },
      };
    case 'audio':
      return {
        type: 'file',
        name: 'audio',
        mediaType: text(block.mimeType, 'application/octet-stream'),
        data: { kind: 'base64', value: text(block.data) },
      };
    case 'resource': {
      const resource = isRecord(block.resource) ? block.resource : {};
      if (typeof resource.text === 'string') return { type: 'text', text: resource.text };
      return {
        type: 'file',
        name: text(resource.uri, 'resource'),
        mediaType: text(resource.mimeType, 'application/octet-stream'),
        data: { kind: 'base64', value: text(resource.blob) },
      };
    }
    case 'resource_link': {
      const uri = text(block.uri);
      const name = text(block.name);
      return {
        type: 'file',
        name: name === '' || name === uri ? uri : `${name} <${uri}>`,
        mediaType: text(block.mimeType, 'application/octet-stream'),
        data: { kind: 'url', value: uri },
      };
    }
    default:
      return { type: 'json', data: JSON.parse(JSON.stringify(block)) as JsonValue };
  }
}

/** The parts of an MCP `CallToolResult` that {@link resultFromMcp} reads. */
export interface McpCallResult {
  readonly content?: readonly unknown[] | undefined;
  readonly structuredContent?: Record<string, unknown> | undefined;
  readonly isError?: boolean | undefined;
  readonly toolResult?: unknown;
}

/** Options for {@link resultFromMcp}. */
export interface ResultFromMcpOptions {
  /**
   * The tool declares an output schema: `structuredContent` is the structured result, the first
   * block (a JSON block, what the output schema is checked against), and text blocks that only
   * repeat it (its JSON text, or one of its string values such as a file's text) are dropped, so
   * the model does not read it twice. Other blocks follow in order. Default false.
   */
  readonly structured?: boolean | undefined;
}

/** The string values inside `value` (at most `limit` of them). */
function stringLeaves(value: unknown, into: Set<string>, limit = 256): Set<string> {
  if (into.size >= limit) return into;
  if (typeof value === 'string') into.add(value);
  else if (Array.isArray(value)) for (const item of value) stringLeaves(item, into, limit);
  else if (isRecord(value)) for (const item of Object.values(value)) stringLeaves(item, into, limit);
  return into;
}

/** Whether a text block only repeats `value`: its JSON serialisation, or one of its string values. */
function repeats(block: ToolContent, value: unknown, leaves: Set<string>): boolean {
  if (block.type !== 'text') return false;
  if (leaves.has(block.text)) return true;
  try {
    return canonicalJson(JSON.parse(block.text)) === canonicalJson(value);
  } catch {
    return false;
  }
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Maps an MCP `CallToolResult` onto a {@link ToolResult}: each content block through
 * {@link contentFromMcp}; `structuredContent` as a JSON block when no text block carries the
 * result already (servers should send a text rendering beside it; the model would read it twice),
 * or, with `options.structured`, always as the first block (see {@link ResultFromMcpOptions});
 * `isError` → an error result (the model reads it and adapts). A legacy `toolResult` becomes a
 * JSON block. An empty result is an empty text block. `metadata` (host-only) is attached as given.
 */
export function resultFromMcp(
  result: McpCallResult,
  metadata?: JsonValue,
  options: ResultFromMcpOptions = {},
): ToolResult {
  let content: ToolContent[] = (result.content ?? []).map(contentFromMcp);
  const structured = result.structuredContent;
  if (options.structured === true && structured !== undefined && result.isError !== true) {
    const leaves = stringLeaves(structured, new Set());
    content = [
      { type: 'json', data: structured as JsonValue },
      ...content.filter((block) => !repeats(block, structured, leaves)),
    ];
  } else if (structured !== undefined && !content.some((block) => block.type === 'text')) {
    content.push({ type: 'json', data: structured as JsonValue });
  }
  if (result.content === undefined && result.toolResult !== undefined) {
    content.push({ type: 'json', data: result.toolResult as JsonValue });
  }
  if (content.length === 0) content.push({ type: 'text', text: '' });
  const mapped = ToolResult.fromJSON({ content, isError: result.isError === true });
  return metadata === undefined ? mapped : mapped.withMetadata(metadata);
}
