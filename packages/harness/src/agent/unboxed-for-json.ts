import { types } from 'node:util';

/**
 * The primitive `JSON.stringify` reads from a wrapper object, known by its internal slot as JSON knows
 * it (whatever its prototype or realm): a Number by ToNumber, a String by ToString (either may call the
 * object's own `valueOf`/`toString`), a Boolean by its slot, a BigInt as its bigint (which JSON then
 * rejects). Any other object, a Symbol wrapper too (an ordinary object to JSON), is returned as it is.
 * @internal
 */
export function unboxedForJson(value: object): unknown {
  if (!types.isBoxedPrimitive(value)) return value;
  if (types.isNumberObject(value)) return Number(value);
  if (types.isStringObject(value)) return String(value);
  if (types.isBooleanObject(value)) return Boolean.prototype.valueOf.call(value);
  if (types.isBigIntObject(value)) return BigInt.prototype.valueOf.call(value);
  return value;
}
