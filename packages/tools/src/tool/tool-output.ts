import { ToolOutputError } from '../errors/tool-output-error.js';
import { ToolResult } from '../result/tool-result.js';
import type { ResolvedSchema } from '../schema/resolve-schema.js';
import { validateSchemaValue } from '../schema/validate-schema-value.js';
import type { ValidationResult } from '../validation/create-validator.js';
import type { JsonValue } from '../validation/json-schema.js';
import type { Tool, ToolOutput } from './tool.js';
import type { ToolExecutionContext } from './tool-execution-context.js';

const isPromiseLike = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

/**
 * Validates one output of `tool`: its Standard Schema first, if any (turning the returned value into
 * the library's output), then ajv against `outputSchema` (the output side), and returns it with the validated value in place. `isError` results pass unchecked; a result
 * without JSON content, or whose first JSON block does not match, throws {@link ToolOutputError}.
 *
 * @throws {ToolOutputError} when the output does not match.
 */
export function checkToolOutput(
  tool: Pick<Tool<never>, 'name' | 'outputSchema' | 'standardSchemas'>,
  output: ToolOutput,
): ToolOutput | Promise<ToolOutput> {
  const schema = tool.outputSchema;
  if (schema === undefined) return output;
  const resolved: ResolvedSchema = { jsonSchema: schema, standard: tool.standardSchemas?.output, vendor: '' };
  let candidate: unknown = output;
  let rebuild = (value: unknown): ToolOutput => value as ToolOutput;
  if (ToolResult.isInstance(output)) {
    if (output.isError) return output;
    const index = output.content.findIndex((block) => block.type === 'json');
    if (index < 0) {
      throw new ToolOutputError({
        toolName: tool.name,
        issues: [
          { path: '', keyword: 'outputSchema', message: 'has no JSON content (the tool declares an output schema)' },
        ],
      });
    }
    const block = output.content[index] as { type: 'json'; data: JsonValue };
    candidate = block.data;
    rebuild = (value) => {
      if (value === block.data) return output;
      const content = output.content.map((item, at) =>
        at === index ? { type: 'json' as const, data: value as JsonValue } : item,
      );
      return ToolResult.fromJSON({ ...output.toJSON(), content });
    };
  }
  const settle = (checked: ValidationResult<unknown>): ToolOutput => {
    if (!checked.ok) throw new ToolOutputError({ toolName: tool.name, issues: checked.issues });
    return rebuild(checked.value);
  };
  const checked = validateSchemaValue(resolved, candidate, { order: 'library_first' });
  return checked instanceof Promise ? checked.then(settle) : settle(checked);
}

/** Wraps `execute` so every output is checked by {@link checkToolOutput}; unchanged without an output schema. @internal */
export function checkingOutput<TArgs>(
  tool: Tool<TArgs>,
  execute: (args: TArgs, context: ToolExecutionContext) => ToolOutput | Promise<ToolOutput>,
): (args: TArgs, context: ToolExecutionContext) => ToolOutput | Promise<ToolOutput> {
  // A wrapper copies an already-checking `execute`: checking twice would run a transform twice.
  if (tool.outputSchema === undefined || checking.has(tool.execute)) return execute;
  const target = tool as unknown as Tool<never>;
  const checked = (args: TArgs, context: ToolExecutionContext) => {
    const output = execute(args, context);
    if (isPromiseLike(output)) return Promise.resolve(output).then((value) => checkToolOutput(target, value));
    return checkToolOutput(target, output);
  };
  checking.add(checked);
  return checked;
}

const checking = new WeakSet<object>();
