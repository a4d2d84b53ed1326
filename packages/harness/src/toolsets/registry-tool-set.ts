import { type CompleteTool, ToolNotFoundError } from '@tiny/tools';
import type { ToolSet } from './tool-set.js';
import { runTool } from './tool-set-from-tools.js';

/** The part of `ToolRegistry` that {@link registryToolSet} reads. */
export interface ToolRegistryView {
  /** The registered tool names, in registration order. */
  names(): readonly string[];
  /** The registered tool and whether it is executed by the host (`external`), or `undefined`. */
  get(name: string): { readonly tool: CompleteTool<never>; readonly external: boolean } | undefined;
}

/**
 * The registry as a {@link ToolSet}: every registered tool (any exposure, name-sorted) each turn,
 * read live so later registrations show up. `call` runs the tool with default state (no typed
 * run state; external tools throw `CallDeferredError`); an unregistered name throws
 * `ToolNotFoundError`. Its listing carries no explanations.
 */
export function registryToolSet(registry: ToolRegistryView, options: { label?: string } = {}): ToolSet {
  return {
    label: options.label ?? 'registry',
    tools: () => {
      const tools: CompleteTool<never>[] = [];
      for (const name of registry.names()) {
        const entry = registry.get(name);
        if (entry !== undefined) tools.push(entry.tool);
      }
      return tools;
    },
    call: async (name, args, context) => {
      const entry = registry.get(name);
      if (entry === undefined) throw new ToolNotFoundError({ toolName: name });
      return runTool(entry.tool, args, context);
    },
  };
}
