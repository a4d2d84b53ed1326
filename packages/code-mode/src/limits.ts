import { InvalidInputError } from '@tiny/tools';

/** Limits of one program run. Every limit stops the program with a typed error (or cuts output). */
export interface CodeModeLimits {
  /** QuickJS heap limit in bytes. Default 32 MiB. */
  readonly memoryBytes: number;
  /**
   * QuickJS stack limit in bytes (deep recursion). Default 256 KiB, at most 1 MiB: the sandbox
   * thread's own stack must stay larger than it (past it, recursion still stops as a stack limit).
   */
  readonly stackBytes: number;
  /** CPU time the program may spend running (time awaiting tools not counted), in ms. Default 2000. */
  readonly cpuTimeMs: number;
  /** Nested tool calls one program may make. Default 100. */
  readonly maxNestedCalls: number;
  /** Longest tool result handed into the program, in characters (larger ones reject). Default 1,000,000. */
  readonly maxNestedResultChars: number;
  /** Longest program text, in characters. Default 100,000. */
  readonly maxProgramChars: number;
  /** Captured `console` output kept, in characters (the rest is dropped and counted). Default 8,000. */
  readonly maxLogChars: number;
  /** Longest result given back to the model, in characters (cut beyond). Default 20,000. */
  readonly maxOutputChars: number;
}

/** The defaults of {@link CodeModeLimits}. */
export const DEFAULT_CODE_MODE_LIMITS: CodeModeLimits = Object.freeze({
  memoryBytes: 32 * 1024 * 1024,
  stackBytes: 256 * 1024,
  cpuTimeMs: 2000,
  maxNestedCalls: 100,
  maxNestedResultChars: 1_000_000,
  maxProgramChars: 100_000,
  maxLogChars: 8000,
  maxOutputChars: 20_000,
});

/** The largest `stackBytes` accepted. */
export const MAX_STACK_BYTES = 1024 * 1024;

/**
 * Fills in defaults and checks every limit is a positive integer (and `stackBytes` at most 1 MiB).
 * @throws {InvalidInputError} naming the bad limit.
 */
export function resolveCodeModeLimits(limits: Partial<CodeModeLimits> | undefined): CodeModeLimits {
  const resolved = { ...DEFAULT_CODE_MODE_LIMITS };
  for (const [key, value] of Object.entries(limits ?? {})) {
    if (!(key in DEFAULT_CODE_MODE_LIMITS)) {
      throw new InvalidInputError({ entryPoint: 'codeModeTool', reason: `unknown limit \`${key}\`` });
    }
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
      throw new InvalidInputError({
        entryPoint: 'codeModeTool',
        reason: `limit \`${key}\` must be a positive integer, got ${String(value)}`,
      });
    }
    if (key === 'stackBytes' && value > MAX_STACK_BYTES) {
      throw new InvalidInputError({
        entryPoint: 'codeModeTool',
        reason: `limit \`stackBytes\` must be at most ${MAX_STACK_BYTES}, got ${value}`,
      });
    }
    (resolved as Record<string, number>)[key] = value;
  }
  return resolved;
}
