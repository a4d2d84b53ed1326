import { ApprovalRequiredError, ToolResult } from '@tiny/tools';
import type { AgentMiddleware, BeforeToolResult, MiddlewareContext, PendingCall } from './agent-middleware.js';

/** What to do with a flagged call: run it, answer the model with a denial, or pause for a human. */
export type ApprovalOutcome = 'allow' | 'defer' | { readonly deny: string };

/** Options for {@link HumanApprovalMiddleware}. */
export interface HumanApprovalOptions {
  /** Which calls need approval: tool names, or a predicate over the call. */
  readonly requireFor: readonly string[] | ((call: PendingCall, context: MiddlewareContext) => boolean);
  /**
   * Decides inline for flagged calls that are not approved yet. Without it every flagged call is
   * deferred (the run pauses with it in `deferred.approvals`).
   */
  readonly outcome?:
    | ((call: PendingCall, context: MiddlewareContext) => ApprovalOutcome | Promise<ApprovalOutcome>)
    | undefined;
}

/**
 * Gates flagged calls on a human: deferred for approval (`ApprovalRequiredError`), denied with a
 * message the model reads (`tool_denied`), or allowed, per the outcome callback. The callback is
 * asked for approved calls too, and a deny wins over an earlier approval (the policy may have
 * changed since the pause); a call approved on resume (`isCallApproved`) is never deferred again.
 */
export class HumanApprovalMiddleware implements AgentMiddleware {
  readonly name = 'human_approval';
  private readonly options: HumanApprovalOptions;

  constructor(options: HumanApprovalOptions) {
    this.options = options;
  }

  async beforeTool(call: PendingCall, context: MiddlewareContext): Promise<BeforeToolResult> {
    const { requireFor, outcome } = this.options;
    const flagged = typeof requireFor === 'function' ? requireFor(call, context) : requireFor.includes(call.name);
    if (!flagged) return undefined;
    const decision = outcome ? await outcome(call, context) : 'defer';
    if (decision === 'allow' || (decision === 'defer' && context.isCallApproved(call.id))) return undefined;
    if (decision === 'defer')
      throw new ApprovalRequiredError({ reason: 'approval_required', metadata: { middleware: this.name } });
    context.emit({ type: 'tool_denied', callId: call.id, toolName: call.name, message: decision.deny });
    return { respond: ToolResult.error(decision.deny) };
  }
}
