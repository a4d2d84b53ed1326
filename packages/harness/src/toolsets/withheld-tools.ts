import { toolOrigin } from '@tiny/tools';

const withheldByRun = new WeakMap<object, Set<object>>();

/**
 * Records that a run withheld `tool` from the model (a `FilteredToolSet` dropped it, or a
 * middleware's `filterTools`): its origin (see `toolOrigin`) stays refused for nested and code-mode
 * calls of that run whenever the harness does not offer it under some name. `run` is the run's
 * context object (`ToolSetContext.run`). @internal
 */
export function recordWithheld(run: unknown, tool: object): void {
  if (typeof run !== 'object' || run === null) return;
  let withheld = withheldByRun.get(run);
  if (withheld === undefined) {
    withheld = new Set();
    withheldByRun.set(run, withheld);
  }
  withheld.add(toolOrigin(tool));
}

/** Whether the run withheld a tool with the origin of `tool` (see {@link recordWithheld}). @internal */
export function isWithheld(run: object, tool: object): boolean {
  return withheldByRun.get(run)?.has(toolOrigin(tool)) === true;
}
