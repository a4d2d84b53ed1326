import { type ToolSchema, toolFormatOf } from '../spec/tool-schema.js';
import type { FormatParseResult } from './format-parse-result.js';
import { parseJsonCall, renderJsonCall, renderJsonDeclaration } from './json-format.js';
import { parsePtypeCall, renderPtypeCall, renderPtypeDeclaration } from './ptype-format.js';
import { parseXmlCall, renderXmlCall, renderXmlDeclaration } from './xml-format.js';

/** Describes a tool for a prompt in its own format (`toolFormatOf(tool)`; `json` when unset). */
export function renderToolDeclaration(tool: ToolSchema): string {
  switch (toolFormatOf(tool).type) {
    case 'xml':
      return renderXmlDeclaration(tool);
    case 'ptype':
      return renderPtypeDeclaration(tool);
    default:
      return renderJsonDeclaration(tool);
  }
}

/**
 * Writes a call in the tool's own format.
 *
 * @throws {FormatRenderError} when the call cannot be written in that format (see the format's renderer).
 */
export function renderToolCall(call: { readonly name: string; readonly arguments: unknown }, tool: ToolSchema): string {
  switch (toolFormatOf(tool).type) {
    case 'xml':
      return renderXmlCall(call, tool);
    case 'ptype':
      return renderPtypeCall(call, tool);
    default:
      return renderJsonCall(call, tool);
  }
}

/** Reads a call written in the tool's own format; never throws. */
export function parseToolCall(text: string, tool: ToolSchema): FormatParseResult {
  switch (toolFormatOf(tool).type) {
    case 'xml':
      return parseXmlCall(text, tool);
    case 'ptype':
      return parsePtypeCall(text, tool);
    default:
      return parseJsonCall(text, tool);
  }
}
