// A stdio MCP server (low-level SDK Server) whose tools declare an output schema, for the
// structured-result tests: `forecast` answers as declared, `bad_forecast` breaks its schema,
// `no_forecast` sends no structured content, `failing_forecast` is an `isError` result.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const outputSchema = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    celsius: { type: 'number' },
    conditions: { type: 'string', enum: ['sunny', 'cloudy', 'rain'] },
  },
  required: ['city', 'celsius', 'conditions'],
  additionalProperties: false,
};
const inputSchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const names = ['forecast', 'bad_forecast', 'no_forecast', 'failing_forecast'];

const server = new Server({ name: 'structured', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [
    ...names.map((name) => ({
      name,
      description: `Weather forecast (${name}).`,
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: true },
    })),
    { name: 'plain', description: 'No output schema.', inputSchema, annotations: { readOnlyHint: true } },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, (request) => {
  const city = String(request.params.arguments?.city ?? '');
  const forecast = { city, celsius: 21.5, conditions: 'sunny' };
  switch (request.params.name) {
    case 'forecast':
      return { content: [{ type: 'text', text: JSON.stringify(forecast) }], structuredContent: forecast };
    case 'bad_forecast': {
      const bad = { city, celsius: 'warm', conditions: 'sunny' };
      return { content: [{ type: 'text', text: JSON.stringify(bad) }], structuredContent: bad };
    }
    case 'no_forecast':
      return { content: [{ type: 'text', text: `It is sunny in ${city}.` }] };
    case 'failing_forecast':
      return { content: [{ type: 'text', text: `no station near ${city}` }], isError: true };
    default:
      return { content: [{ type: 'text', text: `plain ${city}` }], structuredContent: { anything: true } };
  }
});
await server.connect(new StdioServerTransport());
