import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type ListToolsResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';

/** A tool definition with a one-string-property input schema. */
export const def = (name: string, description: string, extra: Partial<Tool> = {}): Tool => ({
  name,
  description,
  inputSchema: { type: 'object', properties: { v: { type: 'string' } } },
  ...extra,
});

/** What the scripted server answers; `ran` logs each call with `describe()` at the time it ran. */
export interface ScriptedServer {
  list: (count: number, cursor: string | undefined) => ListToolsResult | Promise<ListToolsResult>;
  call?: (name: string) => string | undefined | Promise<string | undefined>;
  describe?: () => string;
  ran: Array<{ name: string; defs: string | undefined }>;
  lists: number;
  server?: Server;
}

/** Starts an in-memory SDK server answering from `script`; returns the client side of the transport. */
export async function scriptedServer(script: ScriptedServer): Promise<InMemoryTransport> {
  const server = new Server({ name: 'scripted', version: '1' }, { capabilities: { tools: { listChanged: true } } });
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    script.lists += 1;
    return script.list(script.lists, request.params?.cursor);
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name } = request.params;
    script.ran.push({ name, defs: script.describe?.() });
    const text = (await script.call?.(name)) ?? `ran ${name}`;
    return { content: [{ type: 'text', text }] };
  });
  const [client, side] = InMemoryTransport.createLinkedPair();
  await server.connect(side);
  script.server = server;
  return client;
}
