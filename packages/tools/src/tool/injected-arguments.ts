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
 * The model-facing schema: `schema` with every injected name removed from every keyword that names
 * the tool's own argument properties, at the root and in the subschemas that apply to the same
 * object (`allOf`, `anyOf`, `oneOf`, `then`, `else`, `dependentSchemas` values, `dependencies`):
 * `properties`, `required`, `dependentRequired` (as a key and in its lists), `dependentSchemas` and
 * `dependencies` keys. A condition that names one (`not`, `if`) is dropped with its branches' test,
 * and a `oneOf` that names one becomes an `anyOf` (removing a name from exclusive branches could
 * make them overlap). So the result only ever relaxes the schema: the model is never asked for
 * what the host fills in, and the host's values are checked against the declared schema at call
 * time. Returns a new object; `schema` is not modified. Without injected arguments the schema
 * itself is returned.
 */
export function projectInjectedArguments(schema: JsonSchema, injected: readonly InjectedArgument[]): JsonSchema {
  if (injected.length === 0) return schema;
  const hidden = new Set(injected.map((argument) => argument.name));
  return projectNode(schema, hidden, 0) as JsonSchema;
}

/** How deep in-place subschemas are followed (`allOf` inside `anyOf` …); deeper ones are left whole. */
const MAX_PROJECTION_DEPTH = 32;
/** Keywords whose subschemas apply to the same object as the schema holding them. */
const IN_PLACE_LISTS = ['allOf', 'anyOf'] as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withoutKeys(map: Record<string, unknown>, hidden: ReadonlySet<string>, each: (value: unknown) => unknown) {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(map)) {
    if (hidden.has(key)) continue;
    Object.defineProperty(out, key, { value: each(value), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function projectNode(node: unknown, hidden: ReadonlySet<string>, depth: number): unknown {
  if (!isObject(node) || depth > MAX_PROJECTION_DEPTH) return node;
  const inner = (child: unknown): unknown => projectNode(child, hidden, depth + 1);
  const names = (list: unknown): unknown =>
    Array.isArray(list) ? list.filter((name) => !hidden.has(String(name))) : list;
  const out: Record<string, unknown> = { ...node };
  if (isObject(node.properties)) out.properties = withoutKeys(node.properties, hidden, (value) => value);
  if (Array.isArray(node.required)) out.required = names(node.required);
  if (isObject(node.dependentRequired)) out.dependentRequired = withoutKeys(node.dependentRequired, hidden, names);
  if (isObject(node.dependentSchemas)) out.dependentSchemas = withoutKeys(node.dependentSchemas, hidden, inner);
  if (isObject(node.dependencies)) {
    out.dependencies = withoutKeys(node.dependencies, hidden, (value) =>
      Array.isArray(value) ? names(value) : inner(value),
    );
  }
  for (const key of IN_PLACE_LISTS) {
    const list = node[key];
    if (Array.isArray(list)) out[key] = list.map(inner);
  }
  if (Array.isArray(node.oneOf)) {
    if (node.oneOf.some((branch) => namesHidden(branch, hidden, depth + 1))) {
      delete out.oneOf;
      const branches = node.oneOf.map(inner);
      if (out.anyOf === undefined) out.anyOf = branches;
      else out.allOf = [...(Array.isArray(out.allOf) ? out.allOf : []), { anyOf: branches }];
    }
  }
  if (node.not !== undefined && namesHidden(node.not, hidden, depth + 1)) delete out.not;
  if (node.if !== undefined && namesHidden(node.if, hidden, depth + 1)) {
    delete out.if;
    delete out.then;
    delete out.else;
  } else {
    for (const key of ['then', 'else'] as const) if (node[key] !== undefined) out[key] = inner(node[key]);
  }
  return out;
}

/** Whether a subschema applying to the same object names a hidden property anywhere a name counts. */
function namesHidden(node: unknown, hidden: ReadonlySet<string>, depth: number): boolean {
  if (!isObject(node)) return false;
  if (depth > MAX_PROJECTION_DEPTH) return true;
  const listed = (list: unknown): boolean => Array.isArray(list) && list.some((name) => hidden.has(String(name)));
  const keyed = (map: unknown): boolean => isObject(map) && Object.keys(map).some((key) => hidden.has(key));
  if (keyed(node.properties) || listed(node.required) || keyed(node.dependentSchemas) || keyed(node.dependencies))
    return true;
  if (
    keyed(node.dependentRequired) ||
    (isObject(node.dependentRequired) && Object.values(node.dependentRequired).some(listed))
  )
    return true;
  if (
    isObject(node.dependencies) &&
    Object.values(node.dependencies).some((value) => listed(value) || namesHidden(value, hidden, depth + 1))
  )
    return true;
  if (
    isObject(node.dependentSchemas) &&
    Object.values(node.dependentSchemas).some((value) => namesHidden(value, hidden, depth + 1))
  )
    return true;
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = node[key];
    if (Array.isArray(list) && list.some((branch) => namesHidden(branch, hidden, depth + 1))) return true;
  }
  return ['not', 'if', 'then', 'else'].some((key) => namesHidden(node[key], hidden, depth + 1));
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
