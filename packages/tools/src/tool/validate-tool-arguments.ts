import type { ResolvedSchema } from '../schema/resolve-schema.js';
import { type ValidateSchemaValueOptions, validateSchemaValue } from '../schema/validate-schema-value.js';
import type { ValidationResult } from '../validation/create-validator.js';
import type { Tool } from './tool.js';

const resolvedByTool = new WeakMap<object, ResolvedSchema>();

/**
 * Validates a call's prepared arguments (injected values in place) for `tool`: ajv against the
 * declared `parameters` first (the fail-closed gate; its issues are the model's to repair), then
 * the library's `~standard.validate` when the tool was defined from a Standard Schema. The
 * returned `value` is what `execute` receives (the library's output: transforms and defaults
 * applied). Synchronous unless the library validates asynchronously.
 */
export function validateToolArguments(
  tool: Pick<Tool<never>, 'parameters' | 'standardSchemas'>,
  value: unknown,
  options?: ValidateSchemaValueOptions,
): ValidationResult<Record<string, unknown>> | Promise<ValidationResult<Record<string, unknown>>> {
  let resolved = resolvedByTool.get(tool);
  if (resolved === undefined || resolved.jsonSchema !== tool.parameters) {
    resolved = { jsonSchema: tool.parameters, standard: tool.standardSchemas?.parameters, vendor: '' };
    resolvedByTool.set(tool, resolved);
  }
  return validateSchemaValue(resolved, value, options) as
    | ValidationResult<Record<string, unknown>>
    | Promise<ValidationResult<Record<string, unknown>>>;
}
