import type { ToolSchema } from '../spec/tool-schema.js';
import { clipName, type FormatParseResult, formatFailure } from './format-parse-result.js';

/**
 * Describes a tool for a prompt in the `json` format: name and description on one line, then the
 * parameters as compact JSON Schema and the call shape.
 */
export function renderJsonDeclaration(tool: ToolSchema): string {
  const lines = [
    (tool.description ?? '').trim() === '' ? tool.name : `${tool.name}: ${(tool.description ?? '').trim()}`,
    `Parameters (JSON Schema): ${JSON.stringify(tool.parameters)}`,
    `Call: {"name": ${JSON.stringify(tool.name)}, "arguments": {...}}`,
  ];
  return lines.join('\n');
}

/** Writes a call in the `json` format: `{"name":"weather","arguments":{"city":"Oslo"}}`. */
export function renderJsonCall(
  call: { readonly name: string; readonly arguments: unknown },
  _tool: ToolSchema,
): string {
  return JSON.stringify({ name: call.name, arguments: call.arguments ?? {} });
}

/**
 * Reads a call written in the `json` format: one JSON object (surrounding whitespace allowed)
 * with `name` equal to the tool's name and `arguments`. `arguments` may be an object, a string
 * holding a JSON object (as OpenAI sends it), or absent/`null`/blank meaning no arguments. Any
 * other key, another tool's name, or text around the object is an error.
 */
export function parseJsonCall(text: string, tool: ToolSchema): FormatParseResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return formatFailure('json', 'syntax', 'the call is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return formatFailure('json', 'syntax', 'the call must be a JSON object with "name" and "arguments"');
  }
  const record = value as Record<string, unknown>;
  if (typeof record.name !== 'string') return formatFailure('json', 'syntax', 'the call has no string "name"');
  if (record.name !== tool.name) {
    return formatFailure(
      'json',
      'unknown_tool',
      `expected a call to \`${tool.name}\`, got \`${clipName(record.name)}\``,
    );
  }
  const extra = Object.keys(record).find((key) => key !== 'name' && key !== 'arguments');
  if (extra !== undefined)
    return formatFailure('json', 'unknown_field', `unexpected key "${clipName(extra)}" in the call`);
  let args = record.arguments;
  if (typeof args === 'string') {
    if (args.trim() === '') args = {};
    else {
      try {
        args = JSON.parse(args);
      } catch {
        return formatFailure('json', 'syntax', 'the "arguments" string is not valid JSON');
      }
    }
  }
  if (args === undefined || args === null) args = {};
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return formatFailure('json', 'type_mismatch', '"arguments" must be a JSON object');
  }
  return { ok: true, call: { name: record.name, arguments: args as Record<string, unknown> } };
}
