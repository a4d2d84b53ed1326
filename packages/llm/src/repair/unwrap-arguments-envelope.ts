import { createValidator, type JsonSchema } from '@tiny/tools';
import { isPlainObject } from './is-plain-object.js';

/** Keys models wrap arguments in, in the order they are tried. */
const ENVELOPE_KEYS = ['properties', 'arguments', 'args', 'parameters', 'params', 'param', 'input'] as const;

function validatorFor(schema: JsonSchema): (value: Record<string, unknown>) => boolean {
  try {
    const validator = createValidator(schema);
    return (value) => validator.validate(value).ok;
  } catch {
    return () => false;
  }
}

/**
 * Unwraps one envelope level a model put around a call's arguments: `{"arguments": {"city":
 * "Oslo"}}`, or a schema echo such as `{"type": "object", "properties": {"city": "Oslo"}}`, becomes
 * `{"city": "Oslo"}`. Keys tried, in order: `properties`, `arguments`, `args`, `parameters`,
 * `params`, `param`, `input`.
 *
 * A key is unwrapped only when the tool's schema does not declare it as a property, its value is an
 * object, and that inner object is valid (by `isValid`, default: validation against `schema` with
 * `createValidator`; a schema that fails to compile validates nothing). Returns the inner object
 * (not a copy), or `undefined` when nothing was unwrapped. Never mutates `args`.
 */
export function unwrapArgumentsEnvelope(
  args: unknown,
  schema: JsonSchema,
  isValid?: (value: Record<string, unknown>) => boolean,
): Record<string, unknown> | undefined {
  if (!isPlainObject(args)) return undefined;
  const declared = isPlainObject(schema.properties) ? schema.properties : {};
  let check = isValid;
  for (const key of ENVELOPE_KEYS) {
    if (!Object.hasOwn(args, key) || Object.hasOwn(declared, key)) continue;
    const inner = args[key];
    if (!isPlainObject(inner)) continue;
    check ??= validatorFor(schema);
    if (check(inner)) return inner;
  }
  return undefined;
}
