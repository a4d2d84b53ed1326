import { isRecord } from './json-value.js';

/**
 * The declared type a P-Format slot value is coerced to. `any` means the schema allows several
 * types or none is stated; such values stay text.
 */
export type PformatParameterType = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'array' | 'object' | 'any';

const known = new Set<string>(['string', 'integer', 'number', 'boolean', 'null', 'array', 'object']);

/**
 * Reduces a property schema to the single type its P-Format text is coerced to.
 * `null` is ignored in unions (`["integer", "null"]` is `integer`); several remaining types give
 * `any`. Reads `type`, then `enum`/`const` values, then `anyOf`/`oneOf` members, then the first
 * `allOf` member, then `properties` (object) or `items` (array).
 */
export function pformatParameterType(schema: unknown): PformatParameterType {
  return typeOf(schema, 0);
}

function typeOf(schema: unknown, depth: number): PformatParameterType {
  if (!isRecord(schema) || depth > 16) return 'any';
  const declared = schema.type;
  if (typeof declared === 'string') return known.has(declared) ? (declared as PformatParameterType) : 'any';
  if (Array.isArray(declared))
    return single(declared.map((entry) => (typeof entry === 'string' && known.has(entry) ? entry : 'any')));
  if (Array.isArray(schema.enum)) return single(schema.enum.map(valueType));
  if ('const' in schema) return valueType(schema.const);
  const union = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (union !== undefined) return single(union.map((member) => typeOf(member, depth + 1)));
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) return typeOf(schema.allOf[0], depth + 1);
  if (isRecord(schema.properties)) return 'object';
  if (schema.items !== undefined) return 'array';
  return 'any';
}

function valueType(value: unknown): PformatParameterType {
  if (value === null) return 'null';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (Array.isArray(value)) return 'array';
  return isRecord(value) ? 'object' : 'any';
}

function single(types: readonly string[]): PformatParameterType {
  const distinct = new Set(types.filter((type) => type !== 'null'));
  // An enum of integers and floats is a number.
  if (distinct.has('integer') && distinct.has('number')) distinct.delete('integer');
  if (distinct.size === 0) return types.length > 0 ? 'null' : 'any';
  if (distinct.size > 1) return 'any';
  const [only] = distinct;
  return (only ?? 'any') as PformatParameterType;
}
