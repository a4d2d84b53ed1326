/** Longest tool name accepted: the limit OpenAI, Anthropic and Gemini all honour. */
export const TOOL_NAME_MAX_LENGTH = 64;

/** Why a tool name was refused. */
export type ToolNameProblem = 'empty' | 'too_long' | 'contains_whitespace' | 'invalid_character' | 'invalid_start';

/**
 * Checks a tool name against the provider-safe rules and returns the first problem, or `undefined`.
 * Accepted: 1–64 ASCII letters, digits, `_` and `-`, starting with a letter or `_`
 * (snake_case is the convention). Anything else (spaces, dots, `/`, non-ASCII) would need
 * provider-specific escaping and is refused.
 */
export function checkToolName(name: string): ToolNameProblem | undefined {
  if (name.length === 0) return 'empty';
  if (name.length > TOOL_NAME_MAX_LENGTH) return 'too_long';
  if (/\s/.test(name)) return 'contains_whitespace';
  if (!/^[A-Za-z0-9_-]+$/.test(name)) return 'invalid_character';
  if (!/^[A-Za-z_]/.test(name)) return 'invalid_start';
  return undefined;
}

/** A sentence describing a {@link ToolNameProblem}, for error messages. */
export function describeToolNameProblem(problem: ToolNameProblem): string {
  switch (problem) {
    case 'empty':
      return 'the name is empty';
    case 'too_long':
      return `the name is longer than ${TOOL_NAME_MAX_LENGTH} characters`;
    case 'contains_whitespace':
      return 'the name contains whitespace';
    case 'invalid_character':
      return 'the name may only contain ASCII letters, digits, `_` and `-`';
    case 'invalid_start':
      return 'the name must start with a letter or `_`';
  }
}
