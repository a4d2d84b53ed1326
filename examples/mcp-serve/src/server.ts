import { serveToolsOverMcp } from '@tiny/mcp-server';
import { createNoteTool, sendSms, weather } from './tools.js';

// The MCP server an MCP client starts (`node dist/server.js`): stdout is the protocol, so the
// served calls' events go to stderr.
const outbox: string[] = [];
await serveToolsOverMcp([weather, createNoteTool(outbox), sendSms], {
  name: 'tiny-quickstart',
  version: '0.0.0',
  context: { hostValues: { apiKey: process.env.SMS_API_KEY ?? 'sk-demo-key' } },
  onEvent: (event) => {
    if (event.type === 'tool_completed' || event.type === 'tool_denied' || event.type === 'invalid_tool_args')
      process.stderr.write(`[tiny-quickstart] ${event.type} ${event.toolName}\n`);
  },
});
