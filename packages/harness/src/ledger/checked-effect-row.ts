import { InvalidInputError } from '@tiny/tools';
import type { EffectSettled, EffectStarted } from './tool-effect-ledger.js';

const SETTLED_STATUSES: ReadonlySet<unknown> = new Set(['completed', 'failed', 'interrupted']);

const describe = (value: unknown): string =>
  value === null ? 'null' : typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : typeof value;

/** Reads `field` of `row`, refusing a row that is not an object or whose getter throws. */
function fieldOf(entryPoint: string, row: unknown, field: string): unknown {
  if (typeof row !== 'object' || row === null) {
    throw new InvalidInputError({ entryPoint, reason: `the row must be an object, got ${describe(row)}` });
  }
  try {
    return (row as Record<string, unknown>)[field];
  } catch (error) {
    throw new InvalidInputError({ entryPoint, reason: `\`${field}\` cannot be read`, cause: error });
  }
}

function text(entryPoint: string, row: unknown, field: string, optional = false): string | undefined {
  const value = fieldOf(entryPoint, row, field);
  if (optional && value === undefined) return undefined;
  if (typeof value !== 'string' || (field !== 'effectSummary' && value.length === 0)) {
    throw new InvalidInputError({
      entryPoint,
      reason: `\`${field}\` must be a ${field === 'effectSummary' ? 'string' : 'non-empty string'}${optional ? ' or undefined' : ''}, got ${describe(value)}`,
    });
  }
  return value;
}

/**
 * A ledger's run id argument, or an {@link InvalidInputError}: a non-empty string (a number or an
 * object is never coerced, so `1` and `'1'` are never taken for each other). @internal
 */
export function checkedLedgerRunId(entryPoint: string, runId: unknown): string {
  if (typeof runId !== 'string' || runId.length === 0) {
    throw new InvalidInputError({
      entryPoint,
      reason: `the run id must be a non-empty string, got ${describe(runId)}`,
    });
  }
  return runId;
}

/**
 * A copy of a `started` row with every field checked: `runId`, `callId`, `tool` and
 * `idempotencyKey` non-empty strings, `effectSummary` a string or absent.
 * @throws {InvalidInputError} naming the first malformed field.
 * @internal
 */
export function checkedStartedRow(entryPoint: string, row: unknown): EffectStarted {
  const runId = text(entryPoint, row, 'runId') as string;
  const callId = text(entryPoint, row, 'callId') as string;
  const tool = text(entryPoint, row, 'tool') as string;
  const idempotencyKey = text(entryPoint, row, 'idempotencyKey') as string;
  const effectSummary = text(entryPoint, row, 'effectSummary', true);
  return { runId, callId, tool, idempotencyKey, ...(effectSummary === undefined ? {} : { effectSummary }) };
}

/**
 * A copy of a `settled` row with every field checked: `runId` and `callId` non-empty strings,
 * `status` one of `completed`, `failed`, `interrupted`, `effectSummary` a string or absent.
 * @throws {InvalidInputError} naming the first malformed field.
 * @internal
 */
export function checkedSettledRow(entryPoint: string, row: unknown): EffectSettled {
  const runId = text(entryPoint, row, 'runId') as string;
  const callId = text(entryPoint, row, 'callId') as string;
  const status = fieldOf(entryPoint, row, 'status');
  if (!SETTLED_STATUSES.has(status)) {
    throw new InvalidInputError({
      entryPoint,
      reason: `\`status\` must be 'completed', 'failed' or 'interrupted', got ${describe(status)}`,
    });
  }
  const effectSummary = text(entryPoint, row, 'effectSummary', true);
  return {
    runId,
    callId,
    status: status as EffectSettled['status'],
    ...(effectSummary === undefined ? {} : { effectSummary }),
  };
}
