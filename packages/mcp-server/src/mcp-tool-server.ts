import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  type AgentEvent,
  type AgentHarnessOptions,
  approvalPolicyDigest,
  type RunContext,
  ToolRegistry,
} from '@tiny/harness';
import { type AnyTool, completeTool, recordToolOrigin, type ToolExecutionContext } from '@tiny/tools';
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
  /**
   * Receives the `tool_*` (and approval, ledger, limit) events of every served call, as in a run,
   * redacted alike. What it throws (or a promise it returns rejects with) is ignored: a sink never
   * changes a call's result.
   */
  readonly onEvent?: ((event: AgentEvent, session: McpSessionInfo) => void) | undefined;
  /**
   * Calls one session may have running at once; more are answered with an `isError` result. A call
   * counts until its tool body has settled, even when the client cancelled it first. Default 4.
   */
  readonly maxConcurrentCalls?: number | undefined;
}

interface ToolCatalogue {
  readonly tools: ReadonlyMap<string, AnyTool>;
  readonly registry: ToolRegistry;
  readonly definitions: readonly ServedToolDefinition[];
  readonly json: string;
}

/** Called with a served call's tool body as it starts (its id is the harness call id). */
type BodyTracker = (callId: string, settled: PromiseLike<unknown>) => void;

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * `tool` with an `execute` that reports its body to `track` when it returns a promise, so a call
 * counts until the body settles, not until the harness stopped waiting for it (a cancelled call's
 * body may run on). Starts from `completeTool`, so every other member is the tool's own.
 */
function tracked(tool: AnyTool, track: BodyTracker): AnyTool {
  const complete = completeTool(tool);
  const wrapper = {
    ...complete,
    execute(args: never, context: ToolExecutionContext) {
      const output = complete.execute(args, context);
      if (isPromiseLike(output)) track(context.callId, output);
      return output;
    },
  } as AnyTool;
  // The same tool to the harness (nested-call matching, withheld tools): it runs the same `execute`.
  recordToolOrigin(wrapper, tool);
  return wrapper;
}

function catalogue(tools: readonly AnyTool[], track: BodyTracker): ToolCatalogue {
  if (!Array.isArray(tools)) throw new McpServerOptionsError({ option: 'tools', reason: 'must be an array of tools' });
  const registry = new ToolRegistry();
  for (const tool of tools) registry.register(tracked(tool, track));
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

/** Hands `event` to the host's sink; what the sink throws or rejects with is dropped (it never changes a call). */
function deliver(
  sink: (event: AgentEvent, session: McpSessionInfo) => void,
  event: AgentEvent,
  session: McpSessionInfo,
): void {
  try {
    const returned: unknown = sink(event, session);
    if (isPromiseLike(returned)) Promise.resolve(returned).catch(() => undefined);
  } catch {
    // A failing sink is the host's problem to log; the call's result stays what the tool did.
  }
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
  /** The served calls in progress by harness call id: told when their tool body starts. */
  private readonly bodies = new Map<string, (settled: PromiseLike<unknown>) => void>();
  private readonly track: BodyTracker = (callId, settled) => this.bodies.get(callId)?.(settled);

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
    this.current = catalogue(tools, this.track);
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
    const next = catalogue(tools, this.track);
    const changed = next.json !== this.current.json;
    this.current = next;
    if (!changed) return;
    await Promise.all([...this.sessions].map((session) => session.server.sendToolListChanged().catch(() => undefined)));
  }

  /** How many connections are open (stdio, or initialised HTTP sessions). */
  sessionCount(): number {
    return this.sessions.size;
  }

  /**
   * Whether `tool` is still served under the same definition (the approval digest: name,
   * description, parameters, policy, injected arguments, nested tools) as when its call began.
   */
  private stillServed(tool: AnyTool): boolean {
    const now = this.current.tools.get(tool.name);
    if (now === undefined) return false;
    return now === tool || approvalPolicyDigest(completeTool(now)) === approvalPolicyDigest(completeTool(tool));
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
    let closed = false;
    server.onclose = () => {
      closed = true;
      this.sessions.delete(session);
    };
    // Registered only once connected (and not already closed): a failed connection leaves nothing behind.
    await server.connect(transport);
    if (!closed) this.sessions.add(session);
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
    const callId = `mcp-${this.calls}`;
    // The call holds its place until its tool body settles: a cancelled request returns at once,
    // but the body it started may run on, and it still counts against the session's limit.
    let body: PromiseLike<unknown> | undefined;
    this.bodies.set(callId, (settled) => {
      body = settled;
    });
    const release = () => {
      session.running -= 1;
    };
    const sink = this.options.onEvent;
    try {
      return await runServedCall({
        server: session.server,
        registry,
        tool,
        callId,
        arguments: args ?? {},
        context: session.context,
        harness: this.options.harness ?? {},
        onEvent: sink === undefined ? undefined : (event) => deliver(sink, event, session.info),
        signal,
        requestId,
        stillServed: () => this.stillServed(tool),
      });
    } finally {
      this.bodies.delete(callId);
      if (body === undefined) release();
      else Promise.resolve(body).then(release, release);
    }
  }
}
