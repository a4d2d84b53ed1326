import { isMarked, TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.McpToolDefinitionChangedError');

/**
 * An MCP tool's definition is not the one expected: at a `call`, the server now lists the tool
 * with a definition other than the one the call was admitted under (or no longer lists it, or a
 * listing since the call began showed it changed), so the call is refused and never reaches the
 * server; at `result`, the definition changed while the call ran (the server may have run another
 * one), so the call reached the server but its answer is withheld; at `approval`, the digest the
 * host reviewed is not the tool's current one, so nothing is approved.
 */
export class McpToolDefinitionChangedError extends TinyError {
  readonly [marker] = true;
  /** The server's reported name. */
  readonly server: string;
  /** The server's name for the tool. */
  readonly toolName: string;
  /**
   * `call`: refused before it reached the server; `result`: the call reached the server, and its
   * answer is withheld; `approval`: `approveDefinition` refused.
   */
  readonly during: 'call' | 'result' | 'approval';
  /** SHA-256 of the definition expected: the one the call was admitted under, or the one the host reviewed. */
  readonly expected: string | undefined;
  /** SHA-256 of the definition the server lists now; absent when it no longer lists the tool. */
  readonly current: string | undefined;

  constructor(options: {
    server: string;
    toolName: string;
    during: 'call' | 'result' | 'approval';
    expected: string | undefined;
    current: string | undefined;
    cause?: unknown;
  }) {
    const now =
      options.current === undefined ? 'no longer lists it' : `now lists definition ${options.current.slice(0, 12)}`;
    const message =
      options.during === 'call'
        ? `MCP tool "${options.toolName}" (server "${options.server}") was not called: it was admitted under definition ${String(options.expected).slice(0, 12)}, and the server ${now}`
        : options.during === 'result'
          ? `MCP tool "${options.toolName}" (server "${options.server}") was called under definition ${String(options.expected).slice(0, 12)}, but the definition changed while it ran (the server ${now}): its answer is withheld`
          : typeof options.expected !== 'string'
            ? `MCP tool "${options.toolName}" (server "${options.server}") was not approved: pass the SHA-256 of the definition you reviewed (the event's \`current\`)`
            : `MCP tool "${options.toolName}" (server "${options.server}") was not approved: the reviewed definition ${options.expected.slice(0, 12)} is not the current one (the server ${now})`;
    super('McpToolDefinitionChangedError', message, options);
    this.server = options.server;
    this.toolName = options.toolName;
    this.during = options.during;
    this.expected = options.expected;
    this.current = options.current;
  }

  static override isInstance(value: unknown): value is McpToolDefinitionChangedError {
    return isMarked(value, marker);
  }
}
