/**
 * One reason a value failed its schema.
 * `path` is a JSON pointer into the value (`''` is the root, `/items/0/name` a nested field).
 */
export interface ValidationIssue {
  /** JSON pointer (RFC 6901) to the offending value; for a missing property, the pointer it would have. */
  readonly path: string;
  /** The JSON Schema keyword that failed (`type`, `required`, `additionalProperties`, `enum`, ...). */
  readonly keyword: string;
  /** A human-readable sentence without the path, e.g. `must be integer`. */
  readonly message: string;
}

/** Renders issues as `"<path> <message>"` joined by `; ` (`<root>` stands for the empty path). */
export function formatValidationIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((issue) => `${issue.path === '' ? '<root>' : issue.path} ${issue.message}`).join('; ');
}
