import { collapseDescription } from '../pformat/collapse-description.js';
import type { ToolSchema } from '../spec/tool-schema.js';
import { renderTypeScriptType } from './render-typescript-type.js';

/** Options for {@link renderTypeScriptDeclaration}. */
export interface TypeScriptDeclarationOptions {
  /** JSON Schema of the tool's result; its type is the promise's. Default the tool's `outputSchema`; neither: `Promise<unknown>`. */
  readonly outputSchema?: unknown;
}

/**
 * Renders a tool as an async function declaration taking one object argument, for programs that
 * call tools (code mode):
 * `/** Adds two numbers. *\/\ndeclare function add(args: { a: number; b: number }): Promise<number>;`
 *
 * The argument type is the model-facing parameters schema and the result type the output schema,
 * both rendered with the type rules of the code dialect's signatures (literal unions, inline
 * objects to depth 4 and 16 properties, else `object`). The description is collapsed to one line
 * (`*\/` escaped) and the comment left out when it is empty.
 */
export function renderTypeScriptDeclaration(tool: ToolSchema, options: TypeScriptDeclarationOptions = {}): string {
  const parameters = renderTypeScriptType({ type: 'object', ...tool.parameters });
  const output = options.outputSchema ?? tool.outputSchema;
  const result = output === undefined ? 'unknown' : renderTypeScriptType(output);
  const description = collapseDescription(tool.description).replaceAll('*/', '*\\/');
  const declaration = `declare function ${tool.name}(args: ${parameters}): Promise<${result}>;`;
  return description === '' ? declaration : `/** ${description} */\n${declaration}`;
}
