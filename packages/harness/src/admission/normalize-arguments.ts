import { acceptsObject, coerceToSchema, decodeArguments, unwrapArgumentsEnvelope } from '@tiny/llm';
import { createValidator, type JsonSchema } from '@tiny/tools';

/**
 * The `normalize_then_return_tool_error` repairs (H5) for arguments that failed validation:
 * a string (or fenced JSON) is decoded into an object, one envelope level is unwrapped, scalars are
 * coerced to the declared types, and a non-object becomes `{}` only when the schema requires no
 * field. Schemas that accept top-level primitives or arrays are never rewritten. Returns the
 * rewritten arguments, or `undefined` when nothing changed.
 */
export function normalizeArguments(args: unknown, schema: JsonSchema): unknown {
  if (!acceptsObject(schema)) return undefined;
  const type = schema.type;
  const acceptsOtherShapes = Array.isArray(type) && type.some((entry) => entry !== 'object');
  if (acceptsOtherShapes) return undefined;
  let value: unknown = args;
  let changed = false;
  if (typeof value === 'string') {
    const decoded = decodeArguments(value);
    const required = Array.isArray(schema.required) ? schema.required : [];
    if (Object.keys(decoded).length === 0 && required.length > 0 && value.trim() !== '') return undefined;
    value = decoded;
    changed = true;
  } else if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const required = Array.isArray(schema.required) ? schema.required : [];
    if (required.length > 0) return undefined;
    value = {};
    changed = true;
  }
  // An envelope is unwrapped when its inner object validates once scalars are coerced.
  const validator = createValidator(schema);
  const unwrapped = unwrapArgumentsEnvelope(
    value,
    schema,
    (inner) => validator.validate(coerceToSchema(inner, schema).value).ok,
  );
  if (unwrapped !== undefined) {
    value = unwrapped;
    changed = true;
  }
  const coerced = coerceToSchema(value, schema);
  if (coerced.changed) {
    value = coerced.value;
    changed = true;
  }
  return changed ? value : undefined;
}
