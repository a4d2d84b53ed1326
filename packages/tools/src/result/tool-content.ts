import type { JsonValue } from '../validation/json-schema.js';

/** Where binary data lives: inline base64 or a URL. */
export interface ImageData {
  readonly kind: 'base64' | 'url';
  readonly value: string;
}

/** Where a file lives: inline base64, a URL, or a host filesystem path. */
export interface FileData {
  readonly kind: 'base64' | 'url' | 'path';
  readonly value: string;
}

/** Plain text, shown to the model verbatim. */
export interface TextContent {
  readonly type: 'text';
  readonly text: string;
}

/** Structured data; rendered pretty-printed for the model by `ToolResult.output()`. */
export interface JsonContent {
  readonly type: 'json';
  readonly data: JsonValue;
}

/** An image; rendered as `[image <mediaType>]` in text output. */
export interface ImageContent {
  readonly type: 'image';
  readonly mediaType: string;
  readonly data: ImageData;
}

/** A file; rendered as `[file <name> (<mediaType>)]` in text output. */
export interface FileContent {
  readonly type: 'file';
  readonly name: string;
  readonly mediaType: string;
  readonly data: FileData;
}

/** One block of a tool's output, tagged by `type`. */
export type ToolContent = TextContent | JsonContent | ImageContent | FileContent;

/** Renders one block as text the way `ToolResult.output()` does. */
export function renderToolContent(block: ToolContent): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'json':
      return JSON.stringify(block.data, null, 2) ?? 'null';
    case 'image':
      return `[image ${block.mediaType}]`;
    case 'file':
      return `[file ${block.name} (${block.mediaType})]`;
  }
}

/** Type guard for a well-formed {@link ToolContent} block (used when reading results back from JSON). */
export function isToolContent(value: unknown): value is ToolContent {
  if (typeof value !== 'object' || value === null) return false;
  const block = value as Record<string, unknown>;
  const isData = (data: unknown, kinds: readonly string[]) =>
    typeof data === 'object' &&
    data !== null &&
    kinds.includes(String((data as Record<string, unknown>).kind)) &&
    typeof (data as Record<string, unknown>).value === 'string';
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string';
    case 'json':
      return 'data' in block;
    case 'image':
      return typeof block.mediaType === 'string' && isData(block.data, ['base64', 'url']);
    case 'file':
      return (
        typeof block.name === 'string' &&
        typeof block.mediaType === 'string' &&
        isData(block.data, ['base64', 'url', 'path'])
      );
    default:
      return false;
  }
}
