import { isRecord } from '../pformat/json-value.js';

/** Objects nested deeper than this, or with more properties than {@link maximumProperties}, render as `object`. */
const maximumDepth = 4;
const maximumProperties = 16;

const baseTypes: Readonly<Record<string, string>> = {
  string: 'string',
  integer: 'number',
  number: 'number',
  boolean: 'boolean',
  null: 'null',
};

/**
 * @internal Renders a JSON Schema as a TypeScript type: primitives, `T[]` (`unknown[]` without
 * `items`), enum/const literal unions (`"a" | "b"`), `anyOf`/`oneOf` and type lists as unions, the
 * first `allOf` member, `| null` for `nullable: true`, and inline object types
 * `{ a: string; b?: number }` down to depth 4 with at most 16 properties (beyond: `object`).
 * `unknown` when nothing is known (a union containing `unknown` is `unknown`).
 * `depth` is the object nesting level of `schema`; a parameter's own schema is at depth 1.
 */
export function renderTypeScriptType(schema: unknown, depth = 1): string {
  return join(members(schema, depth, 0));
}

/** `nesting` counts every level (arrays and unions too) and only guards against runaway schemas. */
function members(schema: unknown, depth: number, nesting: number): string[] {
  if (!isRecord(schema) || nesting > 32) return ['unknown'];
  const types = baseMembers(schema, depth, nesting + 1);
  return schema.nullable === true ? [...types, 'null'] : types;
}

function baseMembers(schema: Record<string, unknown>, depth: number, nesting: number): string[] {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum.map(literal);
  if ('const' in schema) return [literal(schema.const)];
  const union = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (union !== undefined && union.length > 0) return union.flatMap((member) => members(member, depth, nesting));
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) return members(schema.allOf[0], depth, nesting);
  const declared = schema.type;
  if (Array.isArray(declared) && declared.length > 0) {
    return declared.map((type) => named(typeof type === 'string' ? type : '', schema, depth, nesting));
  }
  if (typeof declared === 'string') return [named(declared, schema, depth, nesting)];
  if (isRecord(schema.properties)) return [named('object', schema, depth, nesting)];
  if (schema.items !== undefined) return [named('array', schema, depth, nesting)];
  return ['unknown'];
}

function named(type: string, schema: Record<string, unknown>, depth: number, nesting: number): string {
  if (type === 'array') {
    if (schema.items === undefined) return 'unknown[]';
    const item = members(schema.items, depth, nesting);
    const text = join(item);
    return new Set(item).size > 1 && text !== 'unknown' ? `(${text})[]` : `${text}[]`;
  }
  if (type === 'object') return objectType(schema, depth, nesting);
  return Object.hasOwn(baseTypes, type) ? (baseTypes[type] ?? 'unknown') : 'unknown';
}

function objectType(schema: Record<string, unknown>, depth: number, nesting: number): string {
  const properties = schema.properties;
  if (!isRecord(properties)) {
    const extra = schema.additionalProperties;
    if (isRecord(extra) && Object.keys(extra).length > 0 && depth < maximumDepth) {
      return `Record<string, ${join(members(extra, depth + 1, nesting))}>`;
    }
    return 'object';
  }
  const keys = Object.keys(properties);
  if (keys.length === 0 || keys.length > maximumProperties || depth > maximumDepth) return 'object';
  const required = Array.isArray(schema.required) ? schema.required : [];
  const fields = keys.map((key) => {
    const optional = required.includes(key) ? '' : '?';
    return `${propertyKey(key)}${optional}: ${join(members(properties[key], depth + 1, nesting))}`;
  });
  return `{ ${fields.join('; ')} }`;
}

/** @internal A property name as written in a type or object literal: bare when an identifier, else quoted. */
export function propertyKey(key: string): string {
  return isTypeScriptIdentifier(key) ? key : JSON.stringify(key);
}

/** @internal Whether `text` is an ASCII JavaScript identifier. */
export function isTypeScriptIdentifier(text: string): boolean {
  if (text.length === 0) return false;
  for (let index = 0; index < text.length; index++) {
    const character = text[index] ?? '';
    const letter =
      (character >= 'a' && character <= 'z') ||
      (character >= 'A' && character <= 'Z') ||
      character === '_' ||
      character === '$';
    if (!letter && !(index > 0 && character >= '0' && character <= '9')) return false;
  }
  return true;
}

function literal(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return 'unknown';
}

function join(types: readonly string[]): string {
  const distinct = [...new Set(types)];
  return distinct.includes('unknown') ? 'unknown' : distinct.join(' | ');
}
