import {
  acceptsObject,
  coerceToSchema,
  nestsDeeperThan,
  recoverToolArguments,
  unwrapArgumentsEnvelope,
} from '@tiny/llm';
import { createValidator, type JsonSchema } from '@tiny/tools';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * How deep tool arguments may nest: objects and arrays inside the arguments object, counted from 1
 * for the arguments themselves. Deeper arguments are answered as invalid before anything walks
 * them recursively (validation, redaction, canonical JSON for idempotency keys and approval
 * digests), far below the depth where a recursive walker would overflow the stack (a few thousand).
 */
export const MAX_ARGUMENT_DEPTH = 64;

const FENCE = /^```[A-Za-z0-9_-]*[ \t]*\r?\n([\s\S]*?)\r?\n?```$/;

/**
 * Decodes a string that should hold one JSON object: one code fence removed, strict JSON (one level
 * of double encoding undone), then the relaxed repair ladder. `undefined` when no object comes out:
 * the text is never replaced by `{}`.
 */
function decodeObjectString(text: string, nested = false): Record<string, unknown> | undefined {
  const trimmed = text.trim();
  const body = FENCE.exec(trimmed)?.[1]?.trim() ?? trimmed;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return recoverToolArguments(body);
  }
  if (isPlainObject(parsed)) return parsed;
  if (typeof parsed === 'string' && !nested) return decodeObjectString(parsed, true);
  return undefined;
}

/**
 * The `normalize_then_return_tool_error` repairs (H5) for arguments that failed validation:
 * absent arguments (`undefined`, a blank string) mean `{}`; a string holding one JSON object (also
 * fenced or double-encoded) is decoded; one envelope level (`{"arguments": {...}}`) is unwrapped;
 * scalars are coerced to the declared types. A value that holds something other than an object
 * (`5`, `null`, `true`, an array, a string that is not an object) is never rewritten, so it stays an
 * invalid call and is answered with a repairable tool error: normalisation never manufactures `{}`.
 * Schemas that accept top-level primitives or arrays are never rewritten. Returns the rewritten
 * arguments, or `undefined` when nothing changed.
 */
export function normalizeArguments(args: unknown, schema: JsonSchema): unknown {
  if (!acceptsObject(schema)) return undefined;
  const type = schema.type;
  const acceptsOtherShapes = Array.isArray(type) && type.some((entry) => entry !== 'object');
  if (acceptsOtherShapes) return undefined;
  let value: unknown = args;
  let changed = false;
  if (args === undefined || (typeof args === 'string' && args.trim() === '')) {
    value = {};
    changed = true;
  } else if (typeof args === 'string') {
    const decoded = decodeObjectString(args);
    if (decoded === undefined || nestsDeeperThan(decoded, MAX_ARGUMENT_DEPTH)) return undefined;
    value = decoded;
    changed = true;
  } else if (!isPlainObject(args)) {
    return undefined;
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
