import { isRecord } from '../schema/map-subschemas.js';
import { arrayItemSchema, derefSchema } from '../schema/schema-shape.js';

/**
 * A short type expression for a schema, as shown in tool declarations: `string`, `integer | null`,
 * `"c" | "f"` (enum values; unquoted with `quoteStrings: false`), `string[]`,
 * `{city: string, days?: integer}`, `any`. Nesting past `maxDepth` shows as `object` / `array`.
 *
 * @internal
 */
export function describeSchemaType(
  schema: unknown,
  root: unknown,
  options: { readonly quoteStrings: boolean; readonly maxDepth?: number },
  depth = 0,
): string {
  const node = derefSchema(schema, root);
  if (node === true) return 'any';
  if (!isRecord(node)) return 'never';
  const literal = (value: unknown): string =>
    typeof value === 'string' && !options.quoteStrings ? value : JSON.stringify(value);
  if (Array.isArray(node.enum)) return node.enum.map(literal).join(' | ');
  if ('const' in node) return literal(node.const);
  const branches = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
  if (branches) return branches.map((branch) => describeSchemaType(branch, root, options, depth + 1)).join(' | ');
  const declared = node.type;
  const types = typeof declared === 'string' ? [declared] : Array.isArray(declared) ? declared.map(String) : [];
  if (types.length === 0) {
    if (isRecord(node.properties)) types.push('object');
    else if ('items' in node) types.push('array');
    else return 'any';
  }
  const tooDeep = depth >= (options.maxDepth ?? 3);
  return types
    .map((type) => {
      if (type === 'array') {
        if (tooDeep) return 'array';
        const item = describeSchemaType(arrayItemSchema(node, root, 0), root, options, depth + 1);
        return item.includes(' ') ? `(${item})[]` : `${item}[]`;
      }
      if (type === 'object' && isRecord(node.properties) && !tooDeep) {
        const required = new Set(Array.isArray(node.required) ? node.required : []);
        const fields = Object.entries(node.properties).map(
          ([name, property]) =>
            `${name}${required.has(name) ? '' : '?'}: ${describeSchemaType(property, root, options, depth + 1)}`,
        );
        return `{${fields.join(', ')}}`;
      }
      return type;
    })
    .join(' | ');
}
