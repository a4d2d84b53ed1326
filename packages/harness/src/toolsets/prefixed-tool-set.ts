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
 * Another toolset with every name prefixed: advertised name = `prefix + name`, concatenated
 * verbatim (include your own separator: `'github_'`). `call` requires the prefix, strips it and
 * delegates; an un-prefixed name throws `ToolNotFoundError`. Each tool is reported as `prefixed`.
 */
export class PrefixedToolSet extends WrappingToolSet {
  readonly label: string;

  constructor(
    inner: ToolSet,
    readonly prefix: string,
    options: { label?: string } = {},
  ) {
    super(inner);
    this.label = options.label ?? `prefixed:${prefix}`;
  }

  /** The inner set's tools, each advertised as `prefix + name`. */
  async tools(context: ToolSetContext): Promise<ToolSetListing> {
    const listing = await listToolSet(this.inner, context);
    const explanations = [...listing.explanations];
    const tools = listing.tools.map((tool) => {
      const to = this.prefix + tool.name;
      explanations.push({ name: tool.name, kind: 'prefixed', by: this.label, from: tool.name, to });
      return wrapTool(tool, { name: to });
    });
    return { tools, explanations };
  }

  /**
   * Strips the prefix and delegates.
   * @throws {ToolNotFoundError} when the name does not start with the prefix.
   */
  call(name: string, args: unknown, context: ToolSetCallContext): Promise<ToolResult> {
    if (!name.startsWith(this.prefix) || name.length === this.prefix.length) {
      return Promise.reject(new ToolNotFoundError({ toolName: name }));
    }
    return this.inner.call(name.slice(this.prefix.length), args, context).catch((error: unknown) => {
      throw ToolNotFoundError.isInstance(error) ? new ToolNotFoundError({ toolName: name, cause: error }) : error;
    });
  }
}
