import { type AgentHarness, REDACTED, redactToolArguments } from '@tiny/harness';
import type { AnyTool } from '@tiny/tools';

/** Where a stream finds a tool's definition by name, to redact arguments shown outside the run. */
export type ToolLookup = AgentHarness | readonly AnyTool[] | ((name: string) => AnyTool | undefined);

/** The tool named `name`, or `undefined` when `lookup` does not know it. */
export function findTool(lookup: ToolLookup | undefined, name: string): AnyTool | undefined {
  if (lookup === undefined) return undefined;
  if (typeof lookup === 'function') return lookup(name);
  if (Array.isArray(lookup)) return (lookup as readonly AnyTool[]).find((tool) => tool.name === name);
  return (lookup as AgentHarness).registry.get(name)?.tool as AnyTool | undefined;
}

/**
 * A paused call's arguments as a UI may show them: the tool's sensitive fields `[redacted]`
 * (`redactToolArguments`). Fails closed: a tool the lookup does not know shows `[redacted]` whole.
 */
export function displayArguments(lookup: ToolLookup | undefined, toolName: string, args: unknown): unknown {
  const tool = findTool(lookup, toolName);
  return tool === undefined ? REDACTED : redactToolArguments(tool, args);
}

/** Whether a tool's arguments hold a sensitive field (its raw argument text is redacted whole). */
export function hasSensitiveArguments(lookup: ToolLookup | undefined, toolName: string): boolean {
  const tool = findTool(lookup, toolName);
  return tool !== undefined && redactToolArguments(tool, '{}') === REDACTED;
}

/** Whether `value` holds the redaction mark anywhere (a sensitive field was replaced). */
export function containsRedacted(value: unknown, depth = 0): boolean {
  if (value === REDACTED) return true;
  if (depth > 64 || typeof value !== 'object' || value === null) return false;
  return Object.values(value).some((item) => containsRedacted(item, depth + 1));
}
