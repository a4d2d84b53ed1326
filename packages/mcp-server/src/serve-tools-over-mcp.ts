import type { AnyTool } from '@tiny/tools';
import { McpServerOptionsError } from './errors/mcp-server-options-error.js';
import { McpToolServer, type McpToolServerOptions } from './mcp-tool-server.js';
import { type McpHttpHandle, type McpHttpOptions, serveHttp } from './serve-http.js';

/** Options of {@link serveToolsOverMcp}: the server's, and the transport. */
export interface ServeToolsOverMcpOptions extends McpToolServerOptions {
  /** `stdio` (default): this process's stdin/stdout. `{ http }`: Streamable HTTP, on 127.0.0.1 unless told otherwise. */
  readonly transport?: 'stdio' | { readonly http: McpHttpOptions } | undefined;
}

/** What {@link serveToolsOverMcp} started. */
export interface ServedTools {
  /** The server: `setTools` to change the listing (clients are notified), `definitions()` to read it. */
  readonly server: McpToolServer;
  /** The HTTP endpoint, when served over HTTP. */
  readonly http?: McpHttpHandle | undefined;
  /** Closes every connection (and the HTTP listener). */
  close(): Promise<void>;
}

/**
 * Serves tools as an MCP server on the official MCP SDK. `tools/list` shows each tool's
 * model-facing schema (no injected parameters, no `x-tiny-*`), description, `outputSchema` and
 * annotations from its policy; `tools/call` runs through the harness's admission (validation,
 * injected host values, approvals asked through MCP elicitation, ledger, timeouts, result limits,
 * events and redaction). Over HTTP a bearer token or an authorizer is required.
 *
 * @throws {McpServerOptionsError} when the options cannot be served safely.
 */
export async function serveToolsOverMcp(
  tools: readonly AnyTool[],
  options: ServeToolsOverMcpOptions = {},
): Promise<ServedTools> {
  const { transport = 'stdio', ...rest } = options;
  const server = new McpToolServer(tools, rest);
  if (transport === 'stdio') {
    await server.serveStdio();
    return { server, close: () => server.close() };
  }
  if (typeof transport !== 'object' || transport === null || typeof transport.http !== 'object')
    throw new McpServerOptionsError({ option: 'transport', reason: "must be 'stdio' or { http: { ... } }" });
  const http = await serveHttp(server, transport.http);
  return {
    server,
    http,
    async close() {
      await http.close();
      await server.close();
    },
  };
}
