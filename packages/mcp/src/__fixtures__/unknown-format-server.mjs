// A stdio MCP server (low-level SDK Server) whose `note` tool names a format tiny does not know
// (`format: "textarea"`, as form-oriented servers write), beside a known one (`email`), for the
// `unknownFormats` option tests. `note` echoes its arguments.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const inputSchema = {
  type: 'object',
  properties: { text: { type: 'string', format: 'textarea' }, to: { type: 'string', format: 'email' } },
  required: ['text'],
};

const server = new Server({ name: 'forms', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [{ name: 'note', description: 'Takes a note.', inputSchema, annotations: { readOnlyHint: true } }],
}));
server.setRequestHandler(CallToolRequestSchema, (request) => ({
  content: [{ type: 'text', text: `noted ${JSON.stringify(request.params.arguments ?? {})}` }],
}));
await server.connect(new StdioServerTransport());
