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

/**
 * Maps an MCP `CallToolResult` onto a {@link ToolResult}: each content block through
 * {@link contentFromMcp}; `structuredContent` as a JSON block when no text block carries the
 * result already (servers should send a text rendering beside it; the model would read it twice);
 * `isError` → an error result (the model reads it and adapts). A legacy `toolResult` becomes a
 * JSON block. An empty result is an empty text block. `metadata` (host-only) is attached as given.
 */
export function resultFromMcp(result: McpCallResult, metadata?: JsonValue): ToolResult {
  const content: ToolContent[] = (result.content ?? []).map(contentFromMcp);
  if (result.structuredContent !== undefined && !content.some((block) => block.type === 'text')) {
    content.push({ type: 'json', data: result.structuredContent as JsonValue });
  }
  if (result.content === undefined && result.toolResult !== undefined) {
    content.push({ type: 'json', data: result.toolResult as JsonValue });
  }
  if (content.length === 0) content.push({ type: 'text', text: '' });
  const mapped = ToolResult.fromJSON({ content, isError: result.isError === true });
  return metadata === undefined ? mapped : mapped.withMetadata(metadata);
}
