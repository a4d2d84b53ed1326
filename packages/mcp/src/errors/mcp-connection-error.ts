import { isMarked, TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.McpConnectionError');

/**
 * The connection to an MCP server is gone (the process exited, the transport failed or the toolset
 * was closed). Calls in flight reject with it and later calls fail fast with it: nothing hangs.
 */
export class McpConnectionError extends TinyError {
  readonly [marker] = true;
  /** The server's name, as it reported it (or the toolset label before the handshake). */
  readonly server: string;
  /** `closed` when the toolset was closed on purpose, `lost` when the connection dropped, `connect` when it never came up. */
  readonly reason: 'closed' | 'lost' | 'connect';
  /** The last lines the server wrote to stderr, when the toolset started it and captured them. */
  readonly stderr: string | undefined;

  constructor(options: {
    server: string;
    reason: 'closed' | 'lost' | 'connect';
    detail?: string;
    stderr?: string | undefined;
    cause?: unknown;
  }) {
    const detail = options.detail === undefined ? '' : `: ${options.detail}`;
    const what =
      options.reason === 'closed' ? 'was closed' : options.reason === 'lost' ? 'was lost' : 'could not be opened';
    super('McpConnectionError', `the connection to MCP server "${options.server}" ${what}${detail}`, options);
    this.server = options.server;
    this.reason = options.reason;
    this.stderr = options.stderr;
  }

  static override isInstance(value: unknown): value is McpConnectionError {
    return isMarked(value, marker);
  }
}
