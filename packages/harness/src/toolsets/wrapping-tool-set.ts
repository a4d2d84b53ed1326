import { ToolNotFoundError, type ToolResult } from '@tiny/tools';
import type { ToolSet, ToolSetCallContext, ToolSetContext, ToolSetListing } from './tool-set.js';

/**
 * The shared part of adaptors that wrap one inner toolset: `instructions` and `forRun` pass
 * straight through, and `callListed` runs a call only when this set lists the name this turn.
 * @internal
 */
export abstract class WrappingToolSet implements ToolSet {
  abstract readonly label: string;

  constructor(readonly inner: ToolSet) {}

  abstract tools(context: ToolSetContext): Promise<ToolSetListing>;

  abstract call(name: string, args: unknown, context: ToolSetCallContext): Promise<ToolResult>;

  instructions(): string | undefined {
    return this.inner.instructions?.();
  }

  async forRun(context: ToolSetContext): Promise<void> {
    await this.inner.forRun?.(context);
  }

  /** Delegates to the inner set when `name` is in this set's current listing, else `ToolNotFoundError`. */
  protected async callListed(name: string, args: unknown, context: ToolSetCallContext): Promise<ToolResult> {
    const listing = await this.tools(context);
    if (!listing.tools.some((tool) => tool.name === name)) throw new ToolNotFoundError({ toolName: name });
    return this.inner.call(name, args, context);
  }
}
