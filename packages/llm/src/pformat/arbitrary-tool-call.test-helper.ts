import fc from 'fast-check';
import type { ToolSchema } from '../spec/tool-schema.js';

/** @internal A random flat-ish tool and arguments that are valid for it, for round-trip tests. */
export interface ArbitraryToolCall {
  readonly tool: ToolSchema;
  readonly args: Record<string, unknown>;
}

const kinds = ['string', 'integer', 'number', 'boolean', 'tags', 'object'] as const;
type Kind = (typeof kinds)[number];

const schemas: Record<Kind, Record<string, unknown>> = {
  string: { type: 'string' },
  integer: { type: 'integer' },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  tags: { type: 'array', items: { type: 'string' } },
  object: { type: 'object' },
};

/**
 * @internal Generates a tool with up to six parameters (string, integer, number, boolean,
 * array of strings, object; some required) and arguments that satisfy it. `emptyStrings: false`
 * keeps top-level strings non-empty, since P-Format reads an empty value as a retraction.
 */
export function arbitraryToolCall(options: { emptyStrings: boolean }): fc.Arbitrary<ArbitraryToolCall> {
  const parameter = fc.record({ kind: fc.constantFrom(...kinds), required: fc.boolean() });
  const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,7}$/);
  return fc
    .record({
      toolName: name,
      parameters: fc.uniqueArray(fc.tuple(name, parameter), { maxLength: 6, selector: ([key]) => key }),
    })
    .chain(({ toolName, parameters }) => {
      const properties = Object.fromEntries(parameters.map(([key, { kind }]) => [key, schemas[kind]]));
      const required = parameters.filter(([, { required }]) => required).map(([key]) => key);
      const tool: ToolSchema = {
        name: toolName,
        description: '',
        parameters: { type: 'object', properties, required },
      };
      const fields = Object.fromEntries(
        parameters.map(([key, { kind }]) => [key, arbitraryValue(kind, options.emptyStrings)]),
      );
      return fc.record(fields, { requiredKeys: required }).map((args) => ({ tool, args }));
    });
}

function arbitraryValue(kind: Kind, emptyStrings: boolean): fc.Arbitrary<unknown> {
  switch (kind) {
    case 'string':
      return fc.string({ minLength: emptyStrings ? 0 : 1, unit: 'binary' });
    case 'integer':
      return fc.integer({ min: -1e12, max: 1e12 });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'tags':
      return fc.array(fc.string(), { maxLength: 4 });
    case 'object':
      return fc.dictionary(
        fc.string({ maxLength: 6 }),
        fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 3 })),
        { maxKeys: 4 },
      );
  }
}
