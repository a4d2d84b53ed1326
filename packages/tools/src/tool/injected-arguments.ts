import { InjectedArgumentError } from '../errors/injected-argument-error.js';
import type { JsonSchema } from '../validation/json-schema.js';

/**
 * A host-only argument: part of the tool's declared schema (so `execute` sees it typed) but removed
 * from what the model sees, and filled in by the host at call time. `tool_call_id` injects the id
 * of the call being executed.
 */
export interface InjectedArgument {
  readonly name: string;
  readonly source: 'host' | 'tool_call_id';
}

/**
 * The model-facing schema: `schema` with every injected name removed from `properties` and
 * `required`. Returns a new object; `schema` is not modified. Without injected arguments the
 * schema itself is returned.
 */
export function projectInjectedArguments(schema: JsonSchema, injected: readonly InjectedArgument[]): JsonSchema {
  if (injected.length === 0) return schema;
  const hidden = new Set(injected.map((argument) => argument.name));
  const projected: Record<string, unknown> = { ...schema };
  const properties = schema.properties;
  if (typeof properties === 'object' && properties !== null) {
    projected.properties = Object.fromEntries(Object.entries(properties).filter(([key]) => !hidden.has(key)));
  }
  if (Array.isArray(schema.required)) {
    projected.required = schema.required.filter((key) => !hidden.has(String(key)));
  }
  return projected;
}

/**
 * Builds the arguments a tool executes with: the model's arguments with every injected name first
 * **removed** (a model cannot smuggle a value in) and then set to the host's authoritative value.
 * Validate the result against the declared schema afterwards.
 *
 * @throws {InjectedArgumentError} when the arguments are not an object, a name is declared twice,
 *   or the host has no value for a `host` argument. The message never contains a value.
 */
export function prepareToolArguments(
  call: { readonly id: string; readonly arguments: unknown },
  injected: readonly InjectedArgument[],
  hostValues: Readonly<Record<string, unknown>>,
  toolName?: string,
): Record<string, unknown> {
  const args = call.arguments;
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new InjectedArgumentError({ reason: 'not_an_object', toolName });
  }
  if (injected.length === 0) return args as Record<string, unknown>;
  const prepared: Record<string, unknown> = { ...(args as Record<string, unknown>) };
  const seen = new Set<string>();
  for (const argument of injected) {
    if (seen.has(argument.name)) {
      throw new InjectedArgumentError({ reason: 'declared_twice', argumentName: argument.name, toolName });
    }
    seen.add(argument.name);
    delete prepared[argument.name];
  }
  for (const argument of injected) {
    if (argument.source === 'tool_call_id') {
      prepared[argument.name] = call.id;
      continue;
    }
    const value = Object.hasOwn(hostValues, argument.name) ? hostValues[argument.name] : undefined;
    if (value === undefined) {
      throw new InjectedArgumentError({ reason: 'missing_host_value', argumentName: argument.name, toolName });
    }
    prepared[argument.name] = value;
  }
  return prepared;
}
