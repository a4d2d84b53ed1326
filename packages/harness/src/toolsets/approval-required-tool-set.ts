import { completeTool, type ToolResult } from '@tiny/tools';
import type { ToolPredicate } from './filtered-tool-set.js';
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
 * Another toolset whose tools matching `predicate` need a human's approval: their policy gets
 * `access.approvalRequired` (which classifies it), so the loop defers each call to them as an
 * approval after validation. Reported as `approval_required`. Everything else is delegated;
 * `call` itself does not ask for approval (the loop does, from the policy).
 */
export class ApprovalRequiredToolSet extends WrappingToolSet {
  readonly label: string;

  constructor(
    inner: ToolSet,
    readonly predicate: ToolPredicate = () => true,
    options: { label?: string } = {},
  ) {
    super(inner);
    this.label = options.label ?? 'approval_required';
  }

  /** The inner set's tools, those matching `predicate` with `access.approvalRequired` set on their policy. */
  async tools(context: ToolSetContext): Promise<ToolSetListing> {
    const listing = await listToolSet(this.inner, context);
    const explanations = [...listing.explanations];
    const tools = listing.tools.map((tool) => {
      if (!this.predicate(tool, context)) return tool;
      explanations.push({ name: tool.name, kind: 'approval_required', by: this.label });
      return wrapTool(tool, { policy: completeTool(tool).policy.requiringApproval() });
    });
    return { tools, explanations };
  }

  /** Delegates to the inner set unchanged (the loop asks for the approval before it gets here). */
  call(name: string, args: unknown, context: ToolSetCallContext): Promise<ToolResult> {
    return this.inner.call(name, args, context);
  }
}
