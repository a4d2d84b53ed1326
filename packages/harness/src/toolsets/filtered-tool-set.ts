import type { AnyTool, ToolResult } from '@tiny/tools';
import {
  listToolSet,
  type ToolSet,
  type ToolSetCallContext,
  type ToolSetContext,
  type ToolSetListing,
} from './tool-set.js';
import { recordWithheld } from './withheld-tools.js';
import { WrappingToolSet } from './wrapping-tool-set.js';

/** Decides whether a tool stays visible this turn. */
export type ToolPredicate = (tool: AnyTool, context: ToolSetContext) => boolean;

/**
 * Another toolset minus the tools failing `predicate` (each reported as `filtered_out`). Calls to a
 * filtered-out name throw `ToolNotFoundError`, so withholding a tool also makes it uncallable.
 */
export class FilteredToolSet extends WrappingToolSet {
  readonly label: string;

  constructor(
    inner: ToolSet,
    readonly predicate: ToolPredicate,
    options: { label?: string } = {},
  ) {
    super(inner);
    this.label = options.label ?? 'filtered';
  }

  /** Keeps only the tools named in `names` (an allow-list). */
  static allowing(inner: ToolSet, names: Iterable<string>, options: { label?: string } = {}): FilteredToolSet {
    const allowed = new Set(names);
    return new FilteredToolSet(inner, (tool) => allowed.has(tool.name), { label: options.label ?? 'allow_list' });
  }

  /** The inner set's tools that pass `predicate` this turn; the others are reported as `filtered_out`. */
  async tools(context: ToolSetContext): Promise<ToolSetListing> {
    const listing = await listToolSet(this.inner, context);
    const kept: AnyTool[] = [];
    const explanations = [...listing.explanations];
    for (const tool of listing.tools) {
      if (this.predicate(tool, context)) kept.push(tool);
      else {
        explanations.push({ name: tool.name, kind: 'filtered_out', by: this.label });
        // Hidden from the model, hidden from nested and code-mode calls of the run too.
        recordWithheld(context.run, tool);
      }
    }
    return { tools: kept, explanations };
  }

  /**
   * Delegates a call to a tool that passes `predicate`.
   * @throws {ToolNotFoundError} when the name is filtered out.
   */
  async call(name: string, args: unknown, context: ToolSetCallContext): Promise<ToolResult> {
    return this.callListed(name, args, context);
  }
}
