import { ApprovalRequiredError, ToolResult, type ToolSideEffects } from '@tiny/tools';
import type { RegisteredTool } from '../registry/tool-registry.js';
import type { AgentMiddleware, BeforeToolResult, MiddlewareContext, PendingCall } from './agent-middleware.js';

/** The rules a {@link ToolPolicyMiddleware} enforces. */
export interface ToolPolicyRules {
  /** Unclassified tools are refused; destructive and payment tools are denied. */
  readonly strict?: boolean | undefined;
  /** Unclassified tools are refused. */
  readonly requireClassification?: boolean | undefined;
  /** Tools not declared `backgroundSafe` are refused (for unattended runs). */
  readonly requireBackgroundSafe?: boolean | undefined;
  /** Tools declaring any of these side effects are refused. */
  readonly denySideEffects?: Partial<Record<keyof ToolSideEffects, boolean>> | undefined;
  /** Tools whose policy needs a sandbox run only when the run's workspace is sandboxed. */
  readonly requireSandbox?: boolean | undefined;
  /** These tools need a human approval per call (deferred until approved). */
  readonly requireApproval?: readonly string[] | undefined;
  /** Successful results longer than the tool's `runtime.maxResultBytes` are truncated, with a note. */
  readonly enforceResultBytes?: boolean | undefined;
}

function truncateBytes(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return `${bytes.subarray(0, end).toString('utf8')}\n[truncated to ${maxBytes} bytes by policy (max_result_bytes)]`;
}

/**
 * Enforces declared tool policies: a tool the rules forbid is hidden from the model (exposure, a
 * `tools_filtered` event) and, if called anyway, answered with a denial instead of running
 * (execution, a `tool_denied` event). Both sides use one decision per tool per turn. Build it with
 * the static constructors and chain more rules; every builder returns a new middleware.
 */
export class ToolPolicyMiddleware implements AgentMiddleware {
  readonly name = 'tool_policy';
  readonly rules: ToolPolicyRules;
  private decisions: { turn: number; runId: string; byTool: Map<string, string | undefined> } | undefined;

  constructor(rules: ToolPolicyRules = {}) {
    this.rules = rules;
  }

  /** Unclassified tools refused; destructive and payment tools denied. */
  static strict(): ToolPolicyMiddleware {
    return new ToolPolicyMiddleware({ strict: true });
  }

  /** A copy that also refuses tools without a declared policy. */
  requireClassification(): ToolPolicyMiddleware {
    return this.with({ requireClassification: true });
  }

  /** A copy that also refuses tools not declared `backgroundSafe` (for unattended runs). */
  requireBackgroundSafe(): ToolPolicyMiddleware {
    return this.with({ requireBackgroundSafe: true });
  }

  /** A copy that also refuses tools declaring any side effect set in `mask` (added to those already denied). */
  denySideEffects(mask: Partial<Record<keyof ToolSideEffects, boolean>>): ToolPolicyMiddleware {
    return this.with({ denySideEffects: { ...this.rules.denySideEffects, ...mask } });
  }

  /** A copy that runs sandbox-requiring tools only when the run's workspace is sandboxed. */
  requireSandbox(): ToolPolicyMiddleware {
    return this.with({ requireSandbox: true });
  }

  /** A copy that also defers every call of the named tools until a human approves it. */
  requireApproval(names: readonly string[]): ToolPolicyMiddleware {
    return this.with({ requireApproval: [...(this.rules.requireApproval ?? []), ...names] });
  }

  /** A copy that truncates successful results longer than the tool's `runtime.maxResultBytes`, with a note. */
  enforceResultBytes(): ToolPolicyMiddleware {
    return this.with({ enforceResultBytes: true });
  }

  /** Why the rules refuse `tool` in this run, or `undefined` when they allow it. */
  refusal(tool: RegisteredTool, context: MiddlewareContext): string | undefined {
    const { policy } = tool.tool;
    const rules = this.rules;
    if ((rules.strict || rules.requireClassification) && !policy.classified) return 'the tool has no declared policy';
    if (rules.strict && policy.sideEffects.destructive) return 'destructive tools are denied';
    if (rules.strict && policy.sideEffects.payment) return 'payment tools are denied';
    if (rules.requireBackgroundSafe && !policy.access.backgroundSafe) return 'the tool is not background-safe';
    for (const [flag, denied] of Object.entries(rules.denySideEffects ?? {})) {
      if (denied && policy.sideEffects[flag as keyof ToolSideEffects]) return `side effect \`${flag}\` is denied`;
    }
    if (rules.requireSandbox && policy.runtime.sandbox === 'required' && context.run.workspace?.sandboxed !== true) {
      return 'the tool needs a sandboxed workspace';
    }
    return undefined;
  }

  filterTools(tools: readonly RegisteredTool[], context: MiddlewareContext): readonly RegisteredTool[] {
    return tools.filter((tool) => this.decide(tool, context) === undefined);
  }

  beforeTool(call: PendingCall, context: MiddlewareContext): BeforeToolResult {
    // `lookupTool` sees what the harness offers (toolsets and deferred tools included); a name it
    // does not know is left to admission (an unknown-tool answer), never asked to be approved.
    const tool = context.lookupTool(call.name);
    if (tool === undefined) return undefined;
    const refusal = this.decide(tool, context);
    if (refusal !== undefined) {
      const message = `tool \`${call.name}\` is not allowed by policy: ${refusal}`;
      context.emit({ type: 'tool_denied', callId: call.id, toolName: call.name, message });
      return { respond: ToolResult.error(message) };
    }
    if (this.rules.requireApproval?.includes(call.name) && !context.isCallApproved(call.id)) {
      throw new ApprovalRequiredError({ reason: 'approval_required', metadata: { policy: this.name } });
    }
    return undefined;
  }

  afterTool(
    call: PendingCall & { readonly toolName: string },
    result: ToolResult,
    context: MiddlewareContext,
  ): ToolResult | undefined {
    if (!this.rules.enforceResultBytes || result.isError) return undefined;
    const max = context.lookupTool(call.toolName)?.tool.policy.runtime.maxResultBytes;
    if (max === undefined) return undefined;
    const text = result.output();
    const cut = truncateBytes(text, max);
    if (cut === text) return undefined;
    const truncated = ToolResult.success(cut);
    return result.metadata === undefined ? truncated : truncated.withMetadata(result.metadata);
  }

  private decide(tool: RegisteredTool, context: MiddlewareContext): string | undefined {
    const current = this.decisions;
    if (current === undefined || current.turn !== context.turn || current.runId !== context.runId) {
      this.decisions = { turn: context.turn, runId: context.runId, byTool: new Map() };
    }
    const byTool = (this.decisions as { byTool: Map<string, string | undefined> }).byTool;
    if (!byTool.has(tool.name)) byTool.set(tool.name, this.refusal(tool, context));
    return byTool.get(tool.name);
  }

  private with(rules: ToolPolicyRules): ToolPolicyMiddleware {
    return new ToolPolicyMiddleware({ ...this.rules, ...rules });
  }
}
