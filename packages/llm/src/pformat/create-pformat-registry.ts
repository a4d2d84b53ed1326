import type { ToolSchema } from '../spec/tool-schema.js';
import { isRecord } from './json-value.js';
import { pformatParameterOrder } from './pformat-parameter-order.js';
import { type PformatParameterType, pformatParameterType } from './pformat-parameter-type.js';

/** A tool's positional parameters: `names[i]` is slot `i`, `types[i]` its declared type. */
export interface PformatParameters {
  readonly names: readonly string[];
  readonly types: readonly PformatParameterType[];
}

/**
 * The tools a P-Format or code-call body may name, each with its positional parameters.
 * Lookups are exact and case-sensitive: the parsers never repair or invent names.
 */
export interface PformatRegistry {
  /** The parameters of `name`, or `undefined` when no such tool is offered. */
  get(name: string): PformatParameters | undefined;
  /** Whether `name` is an offered tool. */
  has(name: string): boolean;
  /** Every tool name, in the order the tools were given. */
  names(): string[];
}

/**
 * Builds the registry the P-Format and code-call parsers read, ordering each tool's parameters
 * with {@link pformatParameterOrder} so parsing matches the rendered signatures.
 * When two tools share a name the first one is kept.
 */
export function createPformatRegistry(tools: readonly ToolSchema[]): PformatRegistry {
  const entries = new Map<string, PformatParameters>();
  for (const tool of tools) {
    if (entries.has(tool.name)) continue;
    entries.set(tool.name, parametersOf(tool));
  }
  return {
    get: (name) => entries.get(name),
    has: (name) => entries.has(name),
    names: () => [...entries.keys()],
  };
}

function parametersOf(tool: ToolSchema): PformatParameters {
  const names = pformatParameterOrder(tool.parameters);
  const properties = isRecord(tool.parameters.properties) ? tool.parameters.properties : {};
  const types = names.map((name) =>
    Object.hasOwn(properties, name) ? pformatParameterType(properties[name]) : ('any' as const),
  );
  return { names, types };
}
