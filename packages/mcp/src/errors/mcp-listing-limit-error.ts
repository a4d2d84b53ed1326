import { isMarked, TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.McpListingLimitError');

/** Which bound a `tools/list` answer broke. */
export type McpListingLimit = 'pages' | 'tools' | 'time' | 'cursor_loop';

/**
 * An MCP server's tool listing went past a bound (`listingLimits`): too many pages, too many
 * tools, longer than the listing time budget, or a `nextCursor` it had already sent (a loop). The
 * listing is dropped: `tools()` keeps the last good one, and every call is refused while the
 * server's tools cannot be read.
 */
export class McpListingLimitError extends TinyError {
  readonly [marker] = true;
  /** The server's reported name. */
  readonly server: string;
  /** The bound that was reached. */
  readonly limit: McpListingLimit;
  /** The bound's value (pages, tools or milliseconds; the page number for `cursor_loop`). */
  readonly max: number;

  constructor(options: { server: string; limit: McpListingLimit; max: number; cause?: unknown }) {
    const what =
      options.limit === 'pages'
        ? `took more than ${options.max} pages`
        : options.limit === 'tools'
          ? `held more than ${options.max} tools`
          : options.limit === 'time'
            ? `took longer than ${options.max} ms`
            : `repeated a page cursor at page ${options.max} (a pagination loop)`;
    super('McpListingLimitError', `the tool listing of MCP server "${options.server}" ${what}`, options);
    this.server = options.server;
    this.limit = options.limit;
    this.max = options.max;
  }

  static override isInstance(value: unknown): value is McpListingLimitError {
    return isMarked(value, marker);
  }
}
