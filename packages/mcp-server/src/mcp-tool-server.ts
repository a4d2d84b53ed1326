import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { type AgentEvent, type AgentHarnessOptions, type RunContext, ToolRegistry } from '@tiny/harness';
import type { AnyTool } from '@tiny/tools';
import { McpServerOptionsError } from './errors/mcp-server-options-error.js';
import { runServedCall } from './run-served-call.js';
import { isServed, type ServedToolDefinition, servedDefinition } from './tool-definitions.js';

/** One client connection: the stdio process, or one Streamable HTTP session. */
export interface McpSessionInfo {
  /** `stdio`, or the HTTP session id the server minted. */
  readonly sessionId: string;
  /** Who the HTTP authorizer said the caller is (`bearer` for the token check); absent on stdio. */
  readonly principal?: string | undefined;
}

/** Options of {@link McpToolServer} and {@link serveToolsOverMcp}. */
export interface McpToolServerOptions {
  /** The server name and version clients see. Default `tiny-tools` `0.0.0`. */
  readonly name?: string | undefined;
  readonly version?: string | undefined;
  /**
   * The run context of each session: `hostValues` fill tools' injected arguments, `state`/`store`
   * reach them through their context. A function is called once per session, so sessions share
   * nothing unless it returns shared values. Default: no host values.
   */
  readonly context?: RunContext | ((session: McpSessionInfo) => RunContext) | undefined;
  /**
   * The harness options every served call runs under (policy, limits, middleware, ledger,
   * artifacts, approval secret...). `toolErrors` defaults to `return_error` (the client gets an
   * `isError` result); `unknownTool` is always `return_tool_error`.
   */
  readonly harness?: Omit<AgentHarnessOptions, 'model' | 'tools' | 'deferredToolHandler' | 'toolSets' | 'discovery'>;
  /** Receives the `tool_*` (and approval, ledger, limit) events of every served call, as in a run, redacted alike. */
  readonly onEvent?: ((event: AgentEvent, session: McpSessionInfo) => void) | undefined;
  /** Calls one session may have running at once; more are answered with an `isError` result. Default 4. */
  readonly maxConcurrentCalls?: number | undefined;
}

interface ToolCatalogue {
  readonly tools: ReadonlyMap<string, AnyTool>;
  readonly registry: ToolRegistry;
  readonly definitions: readonly ServedToolDefinition[];
  readonly json: string;
}

function catalogue(tools: readonly AnyTool[]): ToolCatalogue {
  if (!Array.isArray(tools)) throw new McpServerOptionsError({ option: 'tools', reason: 'must be an array of tools' });
  const registry = new ToolRegistry();
  for (const tool of tools) registry.register(tool);
  const served = tools.filter(isServed);
  const definitions = served.map(servedDefinition);
  return {
    tools: new Map(served.map((tool) => [tool.name, tool])),
    registry,
    definitions,
    json: JSON.stringify(definitions),
  };
}

interface Session {
  readonly info: McpSessionInfo;
  readonly server: Server;
  readonly context: RunContext;
  running: number;
}

/**
 * Tools of `@tiny/tools` served over MCP. Every connection (stdio, or each Streamable HTTP session)
 * gets its own SDK `Server` and its own run context; `tools/call` runs through the harness's
 * admission (see `runServedCall`).
 */
export class McpToolServer {
  private current: ToolCatalogue;
  private readonly options: McpToolServerOptions;
  private readonly sessions = new Set<Session>();
  private readonly maxConcurrent: number;
  private calls = 0;

  constructor(tools: readonly AnyTool[], options: McpToolServerOptions = {}) {
    const max = options.maxConcurrentCalls ?? 4;
    if (!Number.isInteger(max) || max < 1)
      throw new McpServerOptionsError({
        option: 'maxConcurrentCalls',
        reason: `must be an integer at least 1, got ${String(max)}`,
      });
    if (options.context !== undefined && typeof options.context !== 'object' && typeof options.context !== 'function')
      throw new McpServerOptionsError({
        option: 'context',
        reason: 'must be a RunContext or a function of the session',
      });
    this.maxConcurrent = max;
    this.options = options;
    this.current = catalogue(tools);
  }

  /** What `tools/list` answers: stable (sorted keys, registration order) across processes. */
  definitions(): readonly ServedToolDefinition[] {
    return this.current.definitions;
  }

  /**
   * Replaces the served tools. When the listing changed, every connected client gets
   * `notifications/tools/list_changed`; an identical listing sends nothing.
   */
  async setTools(tools: readonly AnyTool[]): Promise<void> {
    const next = catalogue(tools);
    const changed = next.json !== this.current.json;
    this.current = next;
    if (!changed) return;
    await Promise.all([...this.sessions].map((session) => session.server.sendToolListChanged().catch(() => undefined)));
  }

  /** Serves one connection over `transport` (an SDK server transport); resolves once connected. */
  async connect(transport: Transport, info: McpSessionInfo = { sessionId: randomUUID() }): Promise<Server> {
    const server = new Server(
      { name: this.options.name ?? 'tiny-tools', version: this.options.version ?? '0.0.0' },
      { capabilities: { tools: { listChanged: true } } },
    );
    const contextOption = this.options.context;
    const context = typeof contextOption === 'function' ? contextOption(info) : (contextOption ?? {});
    const session: Session = { info, server, context, running: 0 };
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...this.current.definitions] as never }));
    server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
      this.call(session, request.params.name, request.params.arguments, extra.signal, extra.requestId),
    );
    server.onclose = () => {
      this.sessions.delete(session);
    };
    this.sessions.add(session);
    await server.connect(transport);
    return server;
  }

  /** Serves this process's stdin/stdout (one session, `stdio`). */
  async serveStdio(): Promise<Server> {
    return this.connect(new StdioServerTransport(), { sessionId: 'stdio' });
  }

  /** Closes every connection. */
  async close(): Promise<void> {
    await Promise.all([...this.sessions].map((session) => session.server.close().catch(() => undefined)));
    this.sessions.clear();
  }

  private async call(
    session: Session,
    name: string,
    args: unknown,
    signal: AbortSignal,
    requestId: string | number,
  ): Promise<CallToolResult> {
    const { tools, registry } = this.current;
    const tool = tools.get(name);
    if (tool === undefined)
      return {
        content: [{ type: 'text', text: `unknown tool \`${name}\`; valid tools: [${[...tools.keys()].join(', ')}]` }],
        isError: true,
      };
    if (session.running >= this.maxConcurrent)
      return {
        content: [
          { type: 'text', text: `too many calls at once in this session (limit ${this.maxConcurrent}); try again` },
        ],
        isError: true,
      };
    session.running += 1;
    this.calls += 1;
    const sink = this.options.onEvent;
    try {
      return await runServedCall({
        server: session.server,
        registry,
        tool,
        callId: `mcp-${this.calls}`,
        arguments: args ?? {},
        context: session.context,
        harness: this.options.harness ?? {},
        onEvent: sink === undefined ? undefined : (event) => sink(event, session.info),
        signal,
        requestId,
      });
    } finally {
      session.running -= 1;
    }
  }
}
