import { asRecord } from '@tiny/provider-utils';

/** Why the calls of a turn whose prompt was blocked are refused. @internal */
export function blockRefusal(raw: string): string {
  return `the prompt was blocked (${raw}): its calls never run`;
}

/**
 * The `promptFeedback.blockReason` of a response or chunk, when it has one: any value at all
 * (an unknown string, a number) blocks the prompt, spelled as sent. @internal
 */
export function blockReasonOf(chunk: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const reason = asRecord(chunk?.promptFeedback)?.blockReason;
  if (reason === undefined || reason === null) return undefined;
  return typeof reason === 'string' ? reason : JSON.stringify(reason);
}

/** True for a candidate that is candidate 0: `index` absent or exactly the number 0. @internal */
export function isFirstCandidate(candidate: Readonly<Record<string, unknown>> | undefined): boolean {
  return candidate !== undefined && (candidate.index === undefined || candidate.index === 0);
}
