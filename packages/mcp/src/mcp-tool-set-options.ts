import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ToolSetEvent } from '@tiny/harness';
import type { ToolExposure, UnknownFormats } from '@tiny/tools';
import type { McpNewToolsMode } from './mcp-definition-tracker.js';
import type { McpPinFile } from './mcp-tool-pins.js';

/** How to reach the server: an MCP `Client` (connected or not), a transport, or a command over stdio. */
export type McpConnection =
  | { readonly client: Client }
  | { readonly transport: Transport }
  | {
      /** Executable to start (`process.execPath` for a Node script). */
      readonly command: string;
      readonly args?: readonly string[] | undefined;
      /** Extra environment variables; the SDK's safe default environment is kept. */
      readonly env?: Readonly<Record<string, string>> | undefined;
      readonly cwd?: string | undefined;
    };

/** Options for {@link createMcpToolSet}. */
export type McpToolSetOptions = McpConnection & {
  /** Prepended verbatim to every tool name (`'fs_'`); none by default. */
  readonly prefix?: string | undefined;
  /** `auto` (default): `deferred` when the server lists more than `deferThreshold` tools, else `direct`. */
  readonly exposure?: ToolExposure | 'auto' | undefined;
  /** Default 15. */
  readonly deferThreshold?: number | undefined;
  /** Tool family for discovery rankers; default the server's reported name. */
  readonly family?: string | undefined;
  /** Names the toolset in events and errors; default `mcp:<server name>`. */
  readonly label?: string | undefined;
  /** Largest description kept per tool, in UTF-8 bytes (after sanitising); default 4,096. */
  readonly maxDescriptionBytes?: number | undefined;
  /** Per-request timeout in ms; default the SDK's 60 s. */
  readonly requestTimeoutMs?: number | undefined;
  /**
   * What a tool whose input or output schema names a `format` tiny does not enforce gets:
   * `'refuse'` (default: the tool is skipped, see `McpToolSet.skipped`) or `'annotate'` (offered,
   * the unknown format treated as an annotation that is NOT checked, as JSON Schema allows: a
   * server's `format: "textarea"`). Known formats are enforced either way.
   */
  readonly unknownFormats?: UnknownFormats | undefined;
  /** Roots offered to the server (`file:///…` URIs); none by default. */
  readonly roots?: ReadonlyArray<{ readonly uri: string; readonly name?: string }> | undefined;
  /** Called after a `tools/list_changed` notification refreshed the catalogue. */
  readonly onToolsChanged?: ((names: readonly string[]) => void) | undefined;
  /**
   * Approved tool definitions (a pin file, see `readMcpPinFile`). A listed tool whose definition
   * differs from its pin, or that the file does not know, is withheld. Without it, the tools of
   * the first listing are pinned as listed (trust on first use) and a later change withholds one.
   */
  readonly pins?: McpPinFile | undefined;
  /**
   * Tools without a pin listed later (added or renamed mid-session) or missing from the pin file:
   * `withhold` (default) until `approveDefinition`, or `offer` (pinned as first listed). Either way
   * each is reported as `tool_definition_added`.
   */
  readonly newTools?: McpNewToolsMode | undefined;
  /**
   * Re-read the server's tool list at every `tools()` (each turn) and before every call, and refuse
   * a call (`McpToolDefinitionChangedError`) when the tool's definition is not the one it was
   * admitted under. Default true. `false` trusts the last listing, kept current by `list_changed`
   * notifications (a pending refresh is awaited): one round trip less per turn and per call, but a
   * server that changes a tool without notifying is caught late or not at all.
   */
  readonly freshListings?: boolean | undefined;
  /**
   * Bounds on one `tools/list` read (all its pages): `maxPages` (default 100), `maxTools` (default
   * 10,000) and `timeoutMs` for the whole read (default 60,000; each page also within
   * `requestTimeoutMs`). A listing past a bound, or one whose `nextCursor` repeats, fails with
   * `McpListingLimitError`: `tools()` keeps the last good listing and calls are refused.
   */
  readonly listingLimits?:
    | {
        readonly maxPages?: number | undefined;
        readonly maxTools?: number | undefined;
        readonly timeoutMs?: number | undefined;
      }
    | undefined;
  /**
   * Receives every `tool_definition_added` / `_changed` / `_removed` as the toolset sees it (the
   * harness run gets them too, through `ToolSetContext.emit`).
   */
  readonly onEvent?: ((event: ToolSetEvent) => void) | undefined;
};

/** The per-turn context an {@link McpToolSet} is given (compatible with the harness `ToolSetContext`). */
export interface McpToolSetContext {
  readonly runId: string;
  readonly turn: number;
  /**
   * The run's own object (the harness passes its `RunContext`): the toolset remembers the run's
   * `emit` on it, weakly, so a call that carries only the run id still reports into the run, and
   * the run is forgotten when it is garbage. Without it, the last 1,024 runs are remembered by id.
   */
  readonly run?: unknown;
  /** Where the run takes definition events (the harness passes it); none outside the harness. */
  readonly emit?: ((event: ToolSetEvent) => void) | undefined;
}

/** What {@link McpToolSet.call} reads from a call context: the cancellation signal. */
export interface McpToolSetCallContext extends McpToolSetContext {
  readonly execution?: { readonly context?: { readonly signal?: AbortSignal | undefined } | undefined } | undefined;
}
