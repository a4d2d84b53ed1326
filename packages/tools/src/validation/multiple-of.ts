import type { Ajv, ErrorObject } from 'ajv';

/** A finite number as `digits × 10^exponent` (the shortest decimal that reads back as it). */
function decimalOf(value: number): [bigint, number] {
  // String() writes the shortest decimal that parses back to the same double: what JSON wrote.
  const match = /^-?(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(value));
  if (match === null) throw new RangeError(`not a finite number: ${value}`);
  const fraction = match[2] ?? '';
  return [BigInt(`${match[1]}${fraction}`), Number(match[3] ?? 0) - fraction.length];
}

/**
 * Whether `value` is an integer multiple of `divisor` (> 0) as the decimal numbers JSON wrote:
 * `19.99` is a multiple of `0.01` (binary floating point says 1998.9999999999998 times), `0.015`
 * is not. Exact: both are scaled to integers (BigInt) at the smaller of their decimal exponents.
 */
export function isDecimalMultiple(value: number, divisor: number): boolean {
  if (!Number.isFinite(value) || !Number.isFinite(divisor) || divisor <= 0) return false;
  // Below 2^53 a double is the integer JSON wrote, and `%` on doubles is exact. Past it the double
  // differs from the decimal (1e23 is 99999999999999991611392): the decimal path decides.
  if (Number.isSafeInteger(value) && Number.isSafeInteger(divisor)) return value % divisor === 0;
  const [a, p] = decimalOf(Math.abs(value));
  const [b, q] = decimalOf(divisor);
  const exponent = Math.min(p, q);
  const scaledValue = a * 10n ** BigInt(p - exponent);
  const scaledDivisor = b * 10n ** BigInt(q - exponent);
  return scaledValue % scaledDivisor === 0n;
}

/**
 * Replaces ajv's `multipleOf` (a floating-point division, optionally with a fixed tolerance) with
 * {@link isDecimalMultiple}, reporting ajv's issue (keyword `multipleOf`, params `{ multipleOf }`,
 * the same message).
 */
export function useDecimalMultipleOf(ajv: Ajv): void {
  ajv.removeKeyword('multipleOf');
  const validate = (schema: unknown, data: unknown): boolean => {
    validate.errors = undefined;
    if (typeof schema !== 'number' || typeof data !== 'number') return true;
    if (isDecimalMultiple(data, schema)) return true;
    validate.errors = [
      { keyword: 'multipleOf', params: { multipleOf: schema }, message: `must be multiple of ${schema}` },
    ];
    return false;
  };
  validate.errors = undefined as Partial<ErrorObject>[] | undefined;
  ajv.addKeyword({ keyword: 'multipleOf', type: 'number', schemaType: 'number', errors: true, validate });
}
