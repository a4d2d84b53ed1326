import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createMcpToolSet } from './create-mcp-tool-set.js';

describe('a server whose tools/list starts failing (in-memory SDK server)', () => {
  it('keeps the last listing for tools() and refuses calls while it cannot re-read its tools', async () => {
    let listings = 0;
    let ran = 0;
    const server = new Server({ name: 'flaky-list', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => {
      listings += 1;
      if (listings > 1) throw new Error('listing is down');
      return { tools: [{ name: 'ping', description: 'Pings.', inputSchema: { type: 'object', properties: {} } }] };
    });
    server.setRequestHandler(CallToolRequestSchema, () => {
      ran += 1;
      return { content: [{ type: 'text', text: 'pong' }] };
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const toolSet = await createMcpToolSet({ transport: clientSide });
    try {
      const tools = await toolSet.tools({ runId: 'r', turn: 1 });
      expect(tools.map((tool) => tool.name)).toEqual(['ping']);
      const result = await toolSet.call('ping', {}, { runId: 'r', turn: 1 });
      expect(result.isError).toBe(true);
      expect(result.output()).toMatch(/could not re-read its tools/);
      expect(ran).toBe(0);
    } finally {
      await toolSet.close();
      await server.close();
    }
  });
});
