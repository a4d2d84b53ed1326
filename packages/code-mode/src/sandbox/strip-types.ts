import { transform } from 'sucrase';
import { CodeProgramError } from '../errors/code-program-error.js';

/**
 * Turns a TypeScript program body into JavaScript by removing type annotations, with sucrase's
 * `typescript` transform (no other transforms: modern syntax is kept as written, QuickJS runs it).
 * Plain JavaScript comes back unchanged in meaning. The body is wrapped in an async function first,
 * so top-level `await` and `return` parse.
 * @throws {CodeProgramError} (`syntax`) when sucrase cannot parse it.
 * @internal
 */
export function stripTypes(body: string): string {
  const wrapped = `async function __program() {\n${body}\n}`;
  let code: string;
  try {
    code = transform(wrapped, { transforms: ['typescript'], disableESTransforms: true }).code;
  } catch (error) {
    throw new CodeProgramError({
      failure: 'syntax',
      detail: error instanceof Error ? error.message : String(error),
      cause: error,
    });
  }
  const open = code.indexOf('{');
  const close = code.lastIndexOf('}');
  if (!code.trimStart().startsWith('async function __program()') || open < 0 || close < open) {
    throw new CodeProgramError({ failure: 'syntax', detail: 'the program must be the body of one function' });
  }
  return code.slice(open + 1, close);
}
