import { isRecord } from '../pformat/json-value.js';

const baseTypes: Readonly<Record<string, string>> = {
  string: 'str',
  integer: 'int',
  number: 'float',
  boolean: 'bool',
  null: 'None',
  object: 'dict',
};

/**
 * @internal Renders a JSON Schema as a Python type hint: `str`, `int`, `float`, `bool`, `None`,
 * `dict` for every object, `list[T]` (`list` without `items`), `Literal[...]` for `enum`/`const`,
 * `A | B` for `anyOf`/`oneOf` and type lists, the first member of `allOf`, `| None` for
 * `nullable: true`, and `Any` when nothing is known (a union containing `Any` is `Any`).
 */
export function renderPythonType(schema: unknown): string {
  return join(members(schema, 0));
}

/** The distinct top-level members of the union a schema renders to. */
function members(schema: unknown, depth: number): string[] {
  if (!isRecord(schema) || depth > 8) return ['Any'];
  const types = baseMembers(schema, depth);
  return schema.nullable === true ? [...types, 'None'] : types;
}

function baseMembers(schema: Record<string, unknown>, depth: number): string[] {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return [literal(schema.enum)];
  if ('const' in schema) return [literal([schema.const])];
  const union = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (union !== undefined && union.length > 0) return union.flatMap((member) => members(member, depth + 1));
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) return members(schema.allOf[0], depth + 1);
  const declared = schema.type;
  if (Array.isArray(declared) && declared.length > 0) {
    return declared.map((type) => named(typeof type === 'string' ? type : '', schema, depth));
  }
  if (typeof declared === 'string') return [named(declared, schema, depth)];
  if (isRecord(schema.properties)) return ['dict'];
  if (schema.items !== undefined) return [named('array', schema, depth)];
  return ['Any'];
}

function named(type: string, schema: Record<string, unknown>, depth: number): string {
  if (type === 'array') return schema.items === undefined ? 'list' : `list[${join(members(schema.items, depth + 1))}]`;
  return Object.hasOwn(baseTypes, type) ? (baseTypes[type] ?? 'Any') : 'Any';
}

function literal(values: readonly unknown[]): string {
  const rendered = values.map(pythonValue);
  if (rendered.some((value) => value === undefined)) return 'Any';
  return `Literal[${rendered.join(', ')}]`;
}

function pythonValue(value: unknown): string | undefined {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function join(types: readonly string[]): string {
  const distinct = [...new Set(types)];
  return distinct.includes('Any') ? 'Any' : distinct.join(' | ');
}
