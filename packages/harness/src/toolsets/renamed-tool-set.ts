import { ToolNotFoundError, type ToolResult } from '@tiny/tools';
import {
  listToolSet,
  type ToolSet,
  type ToolSetCallContext,
  type ToolSetContext,
  type ToolSetListing,
} from './tool-set.js';
import { wrapTool } from './wrap-tool.js';
import { WrappingToolSet } from './wrapping-tool-set.js';

/**
 * Another toolset with some tools renamed (`map`: declared name → advertised name); unmapped names
 * are unchanged. `call` accepts only names advertised this turn, so the **old** name of a renamed
 * tool throws `ToolNotFoundError`; it maps the name back and delegates. Each renamed tool is
 * reported as `renamed`.
 */
export class RenamedToolSet extends WrappingToolSet {
  readonly label: string;
  private readonly map: ReadonlyMap<string, string>;

  constructor(
    inner: ToolSet,
    map: Readonly<Record<string, string>> | ReadonlyMap<string, string>,
    options: { label?: string } = {},
  ) {
    super(inner);
    this.map = map instanceof Map ? new Map(map) : new Map(Object.entries(map));
    this.label = options.label ?? 'renamed';
  }

  /** The inner set's tools, renamed as `map` says (unmapped names unchanged). */
  async tools(context: ToolSetContext): Promise<ToolSetListing> {
    const listing = await listToolSet(this.inner, context);
    const explanations = [...listing.explanations];
    const tools = listing.tools.map((tool) => {
      const to = this.map.get(tool.name);
      if (to === undefined || to === tool.name) return tool;
      explanations.push({ name: tool.name, kind: 'renamed', by: this.label, from: tool.name, to });
      return wrapTool(tool, { name: to });
    });
    return { tools, explanations };
  }

  /**
   * Maps an advertised name back to the inner tool's name and delegates.
   * @throws {ToolNotFoundError} for a name not advertised this turn (the old name of a renamed tool included).
   */
  async call(name: string, args: unknown, context: ToolSetCallContext): Promise<ToolResult> {
    const listing = await listToolSet(this.inner, context);
    for (const tool of listing.tools) {
      const advertised = this.map.get(tool.name) ?? tool.name;
      if (advertised === name) {
        return this.inner.call(tool.name, args, context).catch((error: unknown) => {
          throw ToolNotFoundError.isInstance(error) ? new ToolNotFoundError({ toolName: name, cause: error }) : error;
        });
      }
    }
    throw new ToolNotFoundError({ toolName: name });
  }
}
