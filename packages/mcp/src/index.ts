export { createMcpToolSet } from './create-mcp-tool-set.js';
export { McpConnectionError } from './errors/mcp-connection-error.js';
export { contentFromMcp, type McpCallResult, resultFromMcp } from './map-call-result.js';
export { type McpToolAnnotations, policyFromAnnotations } from './map-tool-policy.js';
export { advertisedToolNames } from './mcp-tool-name.js';
export {
  type McpConnection,
  McpToolSet,
  type McpToolSetCallContext,
  type McpToolSetContext,
  type McpToolSetOptions,
} from './mcp-tool-set.js';
