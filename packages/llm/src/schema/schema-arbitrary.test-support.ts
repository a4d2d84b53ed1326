// Test support (not shipped: matches the package's `!src/**/*.test*.ts` rule).
// Random tool-parameter schemas and random values that are valid for them.
import type { JsonSchema } from '@tiny/tools';
import fc from 'fast-check';

const trickyPieces = [
  '<',
  '>',
  '&',
  '"',
  "'",
  '\\',
  ']]>',
  '<![CDATA[',
  '\n',
  '\r\n',
  '\t',
  ' ',
  '&amp;',
  '&#x41;',
  '&lt',
  '<item>',
  '</a>',
  '<!-- x -->',
  'null',
  '5',
  'true',
  '\u0000',
  '\u2028',
  '\ud800',
  '😀',
  '--',
  ',',
  ')',
];

/** Strings of arbitrary code points (lone surrogates included) mixed with markup-like pieces. */
export const anyString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc
    .array(fc.oneof(fc.constantFrom(...trickyPieces), fc.string({ unit: 'binary', maxLength: 4 })), { maxLength: 6 })
    .map((parts) => parts.join('')),
);

/** Property and tool names: identifier-like. */
export const identifier: fc.Arbitrary<string> = fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,7}$/);

const leafSchema: fc.Arbitrary<JsonSchema> = fc.oneof(
  fc.constantFrom<JsonSchema>(
    { type: 'string' },
    { type: 'integer' },
    { type: 'number' },
    { type: 'boolean' },
    { type: 'string', description: 'a described string' },
    { enum: ['red', 2, false, null] },
  ),
  fc.constantFrom('string', 'integer', 'number', 'boolean').map((type): JsonSchema => ({ type: [type, 'null'] })),
  fc
    .uniqueArray(anyString, { minLength: 1, maxLength: 4 })
    .map((values): JsonSchema => ({ type: 'string', enum: values })),
);

const schemas = fc.letrec<{ schema: JsonSchema; array: JsonSchema; object: JsonSchema; nullableObject: JsonSchema }>(
  (tie) => ({
    schema: fc.oneof(
      { maxDepth: 3, depthIdentifier: 'schema' },
      leafSchema,
      tie('array'),
      tie('object'),
      tie('nullableObject'),
    ),
    array: tie('schema').map((items): JsonSchema => ({ type: 'array', items })),
    object: fc
      .uniqueArray(fc.tuple(identifier, tie('schema'), fc.boolean()), { selector: (entry) => entry[0], maxLength: 5 })
      .map(
        (entries): JsonSchema => ({
          type: 'object',
          properties: Object.fromEntries(entries.map(([name, schema]) => [name, schema])),
          required: entries.filter(([, , required]) => required).map(([name]) => name),
        }),
      ),
    nullableObject: tie('object').map((object): JsonSchema => ({ anyOf: [object, { type: 'null' }] })),
  }),
);

/** A random object schema of the kinds above, nested up to three levels. */
export const objectSchema: fc.Arbitrary<JsonSchema> = schemas.object;

const finiteDouble = fc
  .double({ noNaN: true, noDefaultInfinity: true })
  .map((value) => (Object.is(value, -0) ? 0 : value));

/** Random values valid for a schema built by {@link objectSchema}. */
export function valueFor(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.anyOf)) return fc.oneof(...(schema.anyOf as JsonSchema[]).map(valueFor));
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if (Array.isArray(schema.type)) {
    const [type] = schema.type as string[];
    return fc.oneof(valueFor({ ...schema, type }), fc.constant(null));
  }
  switch (schema.type) {
    case 'string':
      return anyString;
    case 'integer':
      return fc.integer();
    case 'number':
      return finiteDouble;
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(valueFor(schema.items as JsonSchema), { maxLength: 3 });
    case 'object': {
      const properties = schema.properties as Record<string, JsonSchema>;
      const model = Object.fromEntries(
        Object.entries(properties).map(([name, property]) => [name, valueFor(property)]),
      );
      return fc.record(model, { requiredKeys: schema.required as string[] });
    }
    default:
      throw new Error(`no generator for ${JSON.stringify(schema)}`);
  }
}

/** A random object schema together with a random valid value for it. */
export const schemaAndValue: fc.Arbitrary<{ schema: JsonSchema; value: Record<string, unknown> }> = objectSchema.chain(
  (schema) => valueFor(schema).map((value) => ({ schema, value: value as Record<string, unknown> })),
);
