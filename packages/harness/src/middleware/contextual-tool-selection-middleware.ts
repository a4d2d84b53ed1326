import type { RegisteredTool } from '../registry/tool-registry.js';
import type { AgentMiddleware } from './agent-middleware.js';

/** Allow and deny lists. An absent `allow` means "no restriction"; `deny` always wins. */
export interface ToolSelectionLists {
  readonly allow?: readonly string[] | undefined;
  readonly deny?: readonly string[] | undefined;
}

/**
 * Shows the model only the tools the lists allow (a `tools_filtered` event names the rest); a
 * withheld tool called anyway is answered as unknown by admission, so it never runs.
 */
export class ContextualToolSelectionMiddleware implements AgentMiddleware {
  readonly name = 'tool_selection';
  readonly allow: ReadonlySet<string> | undefined;
  readonly deny: ReadonlySet<string>;

  private constructor(lists: ToolSelectionLists) {
    this.allow = lists.allow === undefined ? undefined : new Set(lists.allow);
    this.deny = new Set(lists.deny ?? []);
  }

  /** Deny always hides; when `allow` is present, only listed tools are shown. */
  static fromLists(lists: ToolSelectionLists): ContextualToolSelectionMiddleware {
    return new ContextualToolSelectionMiddleware(lists);
  }

  /**
   * Lists for a sub-run that may never see more than its parent: deny lists are united, allow
   * lists intersected when both restrict (else the one that restricts applies).
   */
  static inheriting(parent: ToolSelectionLists, child: ToolSelectionLists): ContextualToolSelectionMiddleware {
    const deny = [...new Set([...(parent.deny ?? []), ...(child.deny ?? [])])];
    let allow: string[] | undefined;
    if (parent.allow && child.allow) allow = parent.allow.filter((name) => child.allow?.includes(name));
    else allow = parent.allow ? [...parent.allow] : child.allow ? [...child.allow] : undefined;
    return new ContextualToolSelectionMiddleware({ allow, deny });
  }

  /** Whether the lists let the model see `name`. */
  permits(name: string): boolean {
    return !this.deny.has(name) && (this.allow === undefined || this.allow.has(name));
  }

  filterTools(tools: readonly RegisteredTool[]): readonly RegisteredTool[] {
    return tools.filter((tool) => this.permits(tool.name));
  }
}
