import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpConnectionError } from './errors/mcp-connection-error.js';
import { McpToolSet, type McpToolSetOptions } from './mcp-tool-set.js';

const STDERR_TAIL_BYTES = 4096;

/**
 * Connects to an MCP server and reads its tools. With `command`, the server is started over stdio
 * (its stderr is kept, last 4 KiB, for connection errors); with `transport` or an unconnected
 * `client`, that is connected; a connected `client` is used as it is.
 *
 * @throws {McpConnectionError} when the connection or the first `tools/list` fails.
 */
export async function createMcpToolSet(options: McpToolSetOptions): Promise<McpToolSet> {
  let stderr = '';
  const tail = () => (stderr === '' ? undefined : stderr);
  const client =
    'client' in options
      ? options.client
      : new Client(
          { name: 'tiny-mcp', version: '0.0.0' },
          { capabilities: options.roots === undefined ? {} : { roots: { listChanged: false } } },
        );
  if (options.roots !== undefined && !('client' in options)) {
    const roots = options.roots.map((root) => ({ ...root }));
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots }));
  }
  const toolSet = new McpToolSet(client, options, tail);
  toolSet.attach();
  const label = options.label ?? 'mcp';
  try {
    if ('command' in options) {
      const transport = new StdioClientTransport({
        command: options.command,
        args: [...(options.args ?? [])],
        ...(options.env === undefined ? {} : { env: { ...options.env } }),
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
        stderr: 'pipe',
      });
      transport.stderr?.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
      });
      await client.connect(transport);
    } else if ('transport' in options) {
      await client.connect(options.transport);
    } else if (client.transport === undefined) {
      throw new Error('the MCP client is not connected; pass a transport or a command');
    }
  } catch (error) {
    throw new McpConnectionError({
      server: label,
      reason: 'connect',
      detail: describe(error),
      stderr: tail(),
      cause: error,
    });
  }
  try {
    await toolSet.refresh();
  } catch (error) {
    if (McpConnectionError.isInstance(error)) throw error;
    await client.close().catch(() => undefined);
    throw new McpConnectionError({
      server: toolSet.serverName,
      reason: 'connect',
      detail: describe(error),
      cause: error,
    });
  }
  return toolSet;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
