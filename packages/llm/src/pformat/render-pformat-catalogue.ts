import type { ToolSchema } from '../spec/tool-schema.js';
import { collapseDescription } from './collapse-description.js';
import { isRecord } from './json-value.js';
import { pformatParameterOrder } from './pformat-parameter-order.js';
import { pformatParameterType } from './pformat-parameter-type.js';
import { renderPformatSignature } from './render-pformat-signature.js';

/**
 * Renders the `## Tools` section of the P-Format dialect: per tool, a bullet with the name and its
 * one-line description, a `Call as:` line with {@link renderPformatSignature}, and one line per slot:
 *
 * ```text
 * ## Tools
 *
 * - search: Search the web.
 *   Call as: search[0|<query>|1|<limit>]
 *   0 <query> (string, required): What to look for.
 *   1 <limit> (integer)
 * ```
 *
 * Enum slots list their values (`string, one of "a", "b"`); array and object slots say `as JSON`.
 * Tools are separated by a blank line and kept in the given order. No tools gives `''`.
 */
export function renderPformatCatalogue(tools: readonly ToolSchema[]): string {
  if (tools.length === 0) return '';
  return `## Tools\n\n${tools.map(renderEntry).join('\n\n')}`;
}

function renderEntry(tool: ToolSchema): string {
  const description = collapseDescription(tool.description);
  const lines = [description === '' ? `- ${tool.name}` : `- ${tool.name}: ${description}`];
  lines.push(`  Call as: ${renderPformatSignature(tool)}`);
  const properties = isRecord(tool.parameters.properties) ? tool.parameters.properties : {};
  const required = Array.isArray(tool.parameters.required) ? tool.parameters.required : [];
  for (const [slot, name] of pformatParameterOrder(tool.parameters).entries()) {
    const schema = Object.hasOwn(properties, name) ? properties[name] : undefined;
    const facts = [describeType(schema)];
    if (required.includes(name)) facts.push('required');
    const detail = collapseDescription(isRecord(schema) ? schema.description : undefined);
    lines.push(`  ${slot} <${name}> (${facts.join(', ')})${detail === '' ? '' : `: ${detail}`}`);
  }
  return lines.join('\n');
}

function describeType(schema: unknown): string {
  const type = pformatParameterType(schema);
  const values = isRecord(schema) && Array.isArray(schema.enum) ? schema.enum : undefined;
  const label = type === 'array' || type === 'object' ? `${type} as JSON` : type;
  if (values === undefined || values.length === 0) return label;
  return `${label}, one of ${values.map((value) => JSON.stringify(value)).join(', ')}`;
}
