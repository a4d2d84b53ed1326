import { type AnyTool, executeTool, ToolNotFoundError, type ToolResult } from '@tiny/tools';
import type { ToolSet, ToolSetCallContext } from './tool-set.js';

/**
 * Runs `tool` the way a toolset's `call` does: injected arguments from the context's host values,
 * validation against the declared schema, then `execute` under its timeout.
 * @internal
 */
export function runTool(tool: AnyTool, args: unknown, context: ToolSetCallContext): Promise<ToolResult> {
  const execution = context.execution ?? {};
  return executeTool(tool, args, {
    ...execution,
    context: { runId: context.runId, ...execution.context },
  });
}

/**
 * A fixed {@link ToolSet} over `tools`, listed in the given order. `call` runs the named tool
 * (validated against its declared schema); a name not in the list throws `ToolNotFoundError`.
 */
export function toolSetFromTools(tools: readonly AnyTool[], options: { label?: string } = {}): ToolSet {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const list = [...tools];
  return {
    label: options.label ?? 'tools',
    tools: () => list,
    call: async (name, args, context) => {
      const tool = byName.get(name);
      if (tool === undefined) throw new ToolNotFoundError({ toolName: name });
      return runTool(tool, args, context);
    },
  };
}
