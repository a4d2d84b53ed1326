/**
 * Serve `@tiny/tools` tools as an MCP server, over stdio or Streamable HTTP, through the harness's
 * fail-closed admission, approvals (MCP elicitation) and redaction.
 * @module @tiny/mcp-server
 */
export { McpServerOptionsError } from './errors/mcp-server-options-error.js';
export { type McpSessionInfo, McpToolServer, type McpToolServerOptions } from './mcp-tool-server.js';
export type { McpHttpHandle, McpHttpOptions } from './serve-http.js';
export { type ServedTools, type ServeToolsOverMcpOptions, serveToolsOverMcp } from './serve-tools-over-mcp.js';
export {
  annotationsFromPolicy,
  type ServedToolAnnotations,
  type ServedToolDefinition,
  servedDefinition,
} from './tool-definitions.js';
