import { type ToolOutput, type ToolResult, toToolResult } from '@tiny/tools';
import type { LoopState } from '../agent/loop-state.js';
import type { RegisteredTool } from '../registry/tool-registry.js';

/** The tools of each run that already returned `undefined` once (so the warning is sent once). */
const warned = new WeakMap<LoopState, Set<string>>();

/**
 * What `execute` returned, as a result. `undefined` (a tool that forgot to `return`) is sent to the
 * model as `""`, as before, and reported the first time each tool does it in a run with a
 * `tool_returned_undefined` event, so a host sees why the model got an empty answer.
 */
export function resultOfOutput(state: LoopState, entry: RegisteredTool, output: ToolOutput): ToolResult {
  if (output === undefined) {
    let tools = warned.get(state);
    if (tools === undefined) {
      tools = new Set();
      warned.set(state, tools);
    }
    if (!tools.has(entry.name)) {
      tools.add(entry.name);
      if (state.sink.active) state.sink.emit({ type: 'tool_returned_undefined', toolName: entry.name, sent: '' });
    }
  }
  return toToolResult(output);
}
