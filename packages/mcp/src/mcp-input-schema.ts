import { sanitizeToolMetadata } from '@tiny/tools';

/** @internal MCP input schemas are objects; fill in `type: object` and `properties` when a server omits them. */
export function normalizeInputSchema(schema: unknown): Record<string, unknown> {
  const input = typeof schema === 'object' && schema !== null ? (schema as Record<string, unknown>) : {};
  return { ...input, type: input.type ?? 'object', properties: input.properties ?? {} };
}

/** @internal Sanitises `description` and `title` strings throughout a schema (untrusted server text). */
export function sanitizeSchemaText(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(sanitizeSchemaText);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] =
      (key === 'description' || key === 'title') && typeof value === 'string'
        ? sanitizeToolMetadata(value, { maxBytes: 2048 })
        : sanitizeSchemaText(value);
  }
  return out;
}
