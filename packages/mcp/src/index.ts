/**
 * MCP client toolset for `@tiny/harness`: a Model Context Protocol server's tools as a ToolSet.
 * @module @tiny/mcp
 */
export { createMcpToolSet } from './create-mcp-tool-set.js';
export { McpConnectionError } from './errors/mcp-connection-error.js';
export { type McpListingLimit, McpListingLimitError } from './errors/mcp-listing-limit-error.js';
export { McpPinFileError } from './errors/mcp-pin-file-error.js';
export { McpToolDefinitionChangedError } from './errors/mcp-tool-definition-changed-error.js';
export { contentFromMcp, type McpCallResult, type ResultFromMcpOptions, resultFromMcp } from './map-call-result.js';
export { type McpToolAnnotations, policyFromAnnotations } from './map-tool-policy.js';
export { advertisedToolNames } from './mcp-tool-name.js';
export {
  changedFields,
  MCP_PIN_FILE_VERSION,
  MCP_PINNED_FIELDS,
  type McpPinFile,
  type McpPinnedField,
  type McpToolDefinitionChangedEvent,
  type McpToolDefinitionEvent,
  type McpToolPin,
  parseMcpPinFile,
  pinToolDefinition,
  readMcpPinFile,
  writeMcpPinFile,
} from './mcp-tool-pins.js';
export {
  type McpConnection,
  type McpNewToolsMode,
  McpToolSet,
  type McpToolSetCallContext,
  type McpToolSetContext,
  type McpToolSetOptions,
  type McpWithheldTool,
} from './mcp-tool-set.js';
