import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { ValidationIssue } from '../validation/validation-issue.js';

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Maps a Standard Schema issue to a {@link ValidationIssue}: its path becomes a JSON pointer, its
 * message is kept, and the keyword is `library` (the library's own check: a refinement, a brand,
 * a transform that threw), since Standard Schema issues carry no keyword.
 *
 * @internal
 */
export function toValidationIssue(issue: StandardSchemaV1.Issue): ValidationIssue {
  let path = '';
  for (const segment of issue.path ?? []) {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
    path += `/${escapePointer(typeof key === 'symbol' ? (key.description ?? '') : String(key))}`;
  }
  return { path, keyword: 'library', message: typeof issue.message === 'string' ? issue.message : 'is invalid' };
}
