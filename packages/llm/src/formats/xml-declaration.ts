import { inlineLocalRefs } from '../schema/inline-local-refs.js';
import { isRecord } from '../schema/map-subschemas.js';
import { allowedTypes, allowsNull, arrayItemSchema, derefSchema, objectVariants } from '../schema/schema-shape.js';
import type { ToolSchema } from '../spec/tool-schema.js';
import { describeSchemaType } from './describe-schema-type.js';

const maxDepth = 6;
const indentUnit = '  ';

/**
 * Describes a tool for a prompt in the `xml` format: a `name: description` line, then the element
 * skeleton of a call with each leaf's type as its text (`<city>string</city>`) and a comment per
 * field saying whether it is required, how to write `null` (`<field/>`) and the field's
 * description. Arrays show one `<item>` entry; nesting deeper than six levels is shown as a type.
 */
export function renderXmlDeclaration(tool: ToolSchema): string {
  const root = inlineLocalRefs(tool.parameters);
  const header =
    (tool.description ?? '').trim() === '' ? tool.name : `${tool.name}: ${(tool.description ?? '').trim()}`;
  const lines = [header, `<${tool.name}>`];
  const [variant] = objectVariants(root, root);
  if (variant) {
    for (const [name, schema] of Object.entries(variant.properties)) {
      skeleton(lines, name, schema, root, variant.required.has(name), 1);
    }
  }
  lines.push(`</${tool.name}>`);
  return lines.join('\n');
}

/** `required` is `undefined` for an array entry, which is neither required nor optional. */
function skeleton(
  lines: string[],
  name: string,
  schema: unknown,
  root: unknown,
  required: boolean | undefined,
  depth: number,
): void {
  const indent = indentUnit.repeat(depth);
  const node = derefSchema(schema, root);
  const notes: string[] = required === undefined ? [] : [required ? 'required' : 'optional'];
  if (allowsNull(node, root)) notes.push(`<${name}/> for null`);
  if (isRecord(node) && typeof node.description === 'string' && node.description.trim() !== '') {
    notes.push(node.description.trim());
  }
  const types = allowedTypes(node, root);
  const isArray = types !== 'any' && types.has('array') && !types.has('object');
  const [variant] = types !== 'any' && types.has('object') ? objectVariants(node, root) : [];
  const nested = depth < maxDepth && (isArray || (variant?.declaresProperties ?? false));
  if (isArray) notes.push(`one <item> per entry`);
  const comment = notes.length === 0 ? '' : ` <!-- ${notes.join('; ').replaceAll('--', '- -')} -->`;
  if (!nested) {
    const type = describeSchemaType(node, root, { quoteStrings: false, maxDepth: 1 });
    lines.push(`${indent}<${name}>${types === 'any' ? 'JSON value' : type}</${name}>${comment}`);
    return;
  }
  lines.push(`${indent}<${name}>${comment}`);
  if (isArray) skeleton(lines, 'item', arrayItemSchema(node, root, 0), root, undefined, depth + 1);
  else if (variant) {
    for (const [child, childSchema] of Object.entries(variant.properties)) {
      skeleton(lines, child, childSchema, root, variant.required.has(child), depth + 1);
    }
  }
  lines.push(`${indent}</${name}>`);
}
