import { type AnyTool, ToolNotFoundError, type ToolResult } from '@tiny/tools';
import {
  listToolSet,
  type ToolExposureExplanation,
  type ToolSet,
  type ToolSetCallContext,
  type ToolSetContext,
  type ToolSetListing,
} from './tool-set.js';

/**
 * Several toolsets as one. `tools` concatenates the members' tools in member order, duplicates
 * kept (wrap members in a `PrefixedToolSet` to avoid collisions); `call` goes to the first member
 * whose current tools include the name, else throws `ToolNotFoundError`. Instructions are joined
 * with blank lines; `forRun` runs on every member, in order.
 */
export class CombinedToolSet implements ToolSet {
  readonly label: string;
  readonly members: readonly ToolSet[];

  constructor(members: readonly ToolSet[], options: { label?: string } = {}) {
    this.members = [...members];
    this.label = options.label ?? 'combined';
  }

  async tools(context: ToolSetContext): Promise<ToolSetListing> {
    const tools: AnyTool[] = [];
    const explanations: ToolExposureExplanation[] = [];
    for (const member of this.members) {
      const listing = await listToolSet(member, context);
      tools.push(...listing.tools);
      explanations.push(...listing.explanations);
    }
    return { tools, explanations };
  }

  async call(name: string, args: unknown, context: ToolSetCallContext): Promise<ToolResult> {
    for (const member of this.members) {
      const listing = await listToolSet(member, context);
      if (listing.tools.some((tool) => tool.name === name)) return member.call(name, args, context);
    }
    throw new ToolNotFoundError({ toolName: name });
  }

  instructions(): string | undefined {
    const parts = this.members
      .map((member) => member.instructions?.())
      .filter((text): text is string => text !== undefined && text.trim().length > 0);
    return parts.length === 0 ? undefined : parts.join('\n\n');
  }

  async forRun(context: ToolSetContext): Promise<void> {
    for (const member of this.members) await member.forRun?.(context);
  }
}
