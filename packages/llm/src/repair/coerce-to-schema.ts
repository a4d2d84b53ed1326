import { InvalidInputError, type JsonSchema } from '@tiny/tools';
import { decodeObjectText } from './decode-object-text.js';
import { isPlainObject } from './is-plain-object.js';
import { parseJson } from './parse-json.js';
import { schemaForType, schemaTypes } from './schema-types.js';

/** The outcome of {@link coerceToSchema}. */
export interface CoercedArguments {
  /** The coerced value; the input itself when `changed` is false. */
  readonly value: unknown;
  /** Whether any property was converted or dropped. */
  readonly changed: boolean;
}

/** Nesting depth beyond which values are left as they are (guards self-referencing schema objects). */
const MAX_DEPTH = 64;

const integerText = /^-?(?:0|[1-9][0-9]*)$/;
const numberText = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;
const TRUE_TEXT = new Set(['true', 'True', 'TRUE']);
const FALSE_TEXT = new Set(['false', 'False', 'FALSE']);

/** Sets an own property, also for the key `__proto__` (plain assignment would set the prototype). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

function matchesType(value: unknown, types: readonly string[]): boolean {
  if (value === null) return types.includes('null');
  if (Array.isArray(value)) return types.includes('array');
  switch (typeof value) {
    case 'string':
      return types.includes('string');
    case 'boolean':
      return types.includes('boolean');
    case 'number':
      return types.includes('number') || (types.includes('integer') && Number.isInteger(value));
    case 'object':
      return types.includes('object');
    default:
      return true;
  }
}

function coerceItems(items: readonly unknown[], schema: JsonSchema, depth: number): readonly unknown[] {
  const { items: itemSchema, prefixItems } = schema;
  const tuple = Array.isArray(prefixItems) ? prefixItems : Array.isArray(itemSchema) ? itemSchema : undefined;
  let result: unknown[] | undefined;
  items.forEach((item, index) => {
    const schemaAt = tuple !== undefined ? tuple[index] : itemSchema;
    if (!isPlainObject(schemaAt)) return;
    const coerced = coerceValue(item, schemaAt, depth + 1);
    if (coerced === item) return;
    result ??= [...items];
    result[index] = coerced;
  });
  return result ?? items;
}

function coerceArrayText(text: string, trimmed: string, schema: JsonSchema, depth: number): unknown {
  const decoded = parseJson(trimmed);
  if (Array.isArray(decoded)) return coerceItems(decoded, schema, depth);
  if (decoded === null) return text;
  return coerceItems([decoded === undefined ? text : decoded], schema, depth);
}

function coerceString(text: string, types: readonly string[], schema: JsonSchema, depth: number): unknown {
  const trimmed = text.trim();
  if (types.includes('null') && trimmed === 'null') return null;
  if (types.includes('integer') && integerText.test(trimmed)) {
    const number = Number(trimmed);
    if (Number.isSafeInteger(number)) return number;
  }
  if (types.includes('number') && numberText.test(trimmed)) {
    const number = Number(trimmed);
    if (Number.isFinite(number)) return number;
  }
  if (types.includes('boolean')) {
    if (TRUE_TEXT.has(trimmed)) return true;
    if (FALSE_TEXT.has(trimmed)) return false;
  }
  if (types.includes('array')) return coerceArrayText(text, trimmed, schemaForType(schema, 'array'), depth);
  if (types.includes('object')) {
    const decoded = decodeObjectText(trimmed);
    if (decoded !== undefined) return coerceProperties(decoded, schemaForType(schema, 'object'), true, depth);
  }
  return text;
}

function coerceValue(value: unknown, schema: JsonSchema, depth: number): unknown {
  const types = depth > MAX_DEPTH ? undefined : schemaTypes(schema);
  if (types === undefined) return value;
  if (matchesType(value, types)) {
    if (Array.isArray(value)) return coerceItems(value, schemaForType(schema, 'array'), depth);
    if (isPlainObject(value)) return coerceProperties(value, schemaForType(schema, 'object'), false, depth);
    return value;
  }
  if (typeof value === 'string') return coerceString(value, types, schema, depth);
  if (typeof value === 'number' && types.includes('string')) return String(value);
  if ((typeof value === 'number' || typeof value === 'boolean') && types.includes('array')) {
    return coerceItems([value], schemaForType(schema, 'array'), depth);
  }
  return value;
}

/**
 * Coerces each declared property of an object. `fresh` marks a value built by this module, which
 * may be returned even when no property changed.
 */
function coerceProperties(value: Record<string, unknown>, schema: JsonSchema, fresh: boolean, depth: number): unknown {
  const properties = schema.properties;
  if (!isPlainObject(properties)) return value;
  const required = Array.isArray(schema.required) ? schema.required : [];
  let result: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(properties, key)) continue;
    const propertySchema = properties[key];
    if (!isPlainObject(propertySchema)) continue;
    const item = value[key];
    if (item === null && !required.includes(key)) {
      const types = schemaTypes(propertySchema);
      if (types !== undefined && !types.includes('null')) {
        result ??= fresh ? value : { ...value };
        delete result[key];
        continue;
      }
    }
    const coerced = coerceValue(item, propertySchema, depth + 1);
    if (coerced === item) continue;
    result ??= fresh ? value : { ...value };
    setOwn(result, key, coerced);
  }
  return result ?? value;
}

/**
 * Converts a call's argument values to the types its schema declares, for models that send
 * `"42"` for an integer or a JSON-encoded string for an array. Per declared property:
 * - integer text (`"42"`, `"-7"`) becomes an integer; `"42.0"` and `"4.2e1"` stay strings for an
 *   integer-only property (only integer text makes an integer), and integer text beyond 2^53 stays
 *   a string;
 * - number text (`"3.5"`, `"1e3"`) becomes a number for `number`;
 * - `"true"`/`"True"`/`"TRUE"` and the same `false` spellings become booleans;
 * - `"null"` becomes `null` when the property allows null;
 * - for arrays: a JSON array string is decoded; any other scalar (or scalar text) is wrapped,
 *   `"solo"` → `["solo"]`, `3` → `[3]`; items are coerced by `items` (or `prefixItems`);
 * - for objects: a JSON object string (fenced or relaxed JSON too) is decoded; nested objects are
 *   coerced by their own `properties`;
 * - a number becomes a string for `string`;
 * - `null` for an optional property whose declared type does not allow null is dropped (the model
 *   meant "not given"); a required one is kept.
 *
 * A string already allowed by the property's type is never converted (`"42"` stays for
 * `["string", "integer"]`). Type arrays (`["integer", "null"]`) and `anyOf`/`oneOf` unions of typed
 * members are read; values that convert to nothing are left for the validator to report. Keys the
 * schema does not declare are kept as they are.
 *
 * Values nested deeper than 64 levels are left as they are. Returns a new value when anything
 * changed and the input itself otherwise; never mutates `args`.
 * A non-object `args`, or a schema without `properties`, is returned unchanged.
 * A boolean schema (`true`/`false`) leaves `args` unchanged.
 * @throws {InvalidInputError} when `schema` is neither an object nor a boolean (`null`, a string, an array).
 */
export function coerceToSchema(args: unknown, schema: JsonSchema): CoercedArguments {
  if (typeof schema === 'boolean') return { value: args, changed: false };
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new InvalidInputError({
      entryPoint: 'coerceToSchema',
      reason: `\`schema\` must be a JSON Schema object, got ${schema === null ? 'null' : Array.isArray(schema) ? 'an array' : typeof schema}`,
    });
  }
  if (!isPlainObject(args)) return { value: args, changed: false };
  const value = coerceProperties(args, schema, false, 0);
  return { value, changed: value !== args };
}
