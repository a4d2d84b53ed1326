const marker = Symbol.for('tiny.error');

/**
 * Reports whether `value` carries the global marker `marker`.
 * Markers are `Symbol.for` keys, so the check survives two copies of a package in one app.
 *
 * @internal
 */
export function isMarked(value: unknown, marker: symbol): boolean {
  if (typeof value !== 'object' || value === null) return false;
  try {
    return (value as Record<symbol, unknown>)[marker] === true;
  } catch {
    // A proxy whose `get` trap throws, or a revoked one: not one of ours (an `isInstance` never throws).
    return false;
  }
}

/**
 * Root of every error thrown by `@tiny/*` packages.
 * `name` is the concrete class name; facts live in readonly fields of the subclasses.
 * Use `TinyError.isInstance(error)` (or a subclass's `isInstance`) rather than `instanceof`,
 * which fails when an app ends up with two copies of a package.
 */
export class TinyError extends Error {
  readonly [marker] = true;

  constructor(name: string, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = name;
  }

  /** True for any `@tiny/*` error, from any copy of the package. */
  static isInstance(value: unknown): value is TinyError {
    return isMarked(value, marker);
  }
}
