import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolResultSchema,
  ErrorCode,
  McpError,
  type Tool as McpTool,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ToolSet } from '@tiny/harness';
import {
  type AnyTool,
  checkToolOutput,
  createValidator,
  type JsonSchema,
  type JsonValue,
  sanitizeToolMetadata,
  type ToolExposure,
  ToolNotFoundError,
  ToolResult,
  toToolResult,
} from '@tiny/tools';
import { McpConnectionError } from './errors/mcp-connection-error.js';
import { McpListingLimitError } from './errors/mcp-listing-limit-error.js';
import { McpToolDefinitionChangedError } from './errors/mcp-tool-definition-changed-error.js';
import { resultFromMcp } from './map-call-result.js';
import { policyFromAnnotations } from './map-tool-policy.js';
import {
  McpDefinitionTracker,
  type McpNewToolsMode,
  type McpOfferedTool,
  type McpWithheldTool,
} from './mcp-definition-tracker.js';
import { normalizeInputSchema, sanitizeSchemaText } from './mcp-input-schema.js';
import { McpToolNames } from './mcp-tool-name.js';
import { MCP_PIN_FILE_VERSION, type McpPinFile, type McpToolPin, pinToolDefinition } from './mcp-tool-pins.js';
import type { McpToolSetCallContext, McpToolSetContext, McpToolSetOptions } from './mcp-tool-set-options.js';

export type {
  McpConnection,
  McpToolSetCallContext,
  McpToolSetContext,
  McpToolSetOptions,
} from './mcp-tool-set-options.js';
export type { McpNewToolsMode, McpWithheldTool };

interface Entry {
  readonly tool: AnyTool;
  readonly mcpName: string;
  /** The definition the tool is offered (and its calls admitted) under. */
  readonly pin: McpToolPin;
}

const DEFAULT_DEFER_THRESHOLD = 15;
const DEFAULT_DESCRIPTION_BYTES = 4096;
const DEFAULT_MAX_LISTING_PAGES = 100;
const DEFAULT_MAX_LISTED_TOOLS = 10_000;
const DEFAULT_LISTING_TIMEOUT_MS = 60_000;

/**
 * An MCP server's tools as a harness `ToolSet`. Each MCP tool becomes a `@tiny/tools` tool: the
 * input schema as its parameters (validated by admission), sanitised description, policy from the
 * server's annotations, family = server name, exposure `deferred` for large catalogues. Running a
 * tool calls the server; content blocks map to result blocks, `isError` and server (JSON-RPC)
 * errors to error results. A `tools/list_changed` notification refreshes the catalogue.
 * Every definition is pinned (see the `pins` and `newTools` options): a changed or new tool is
 * withheld and reported (`tool_definition_*` events, into the run through `ToolSetContext.emit`),
 * and a call runs only under the definition it was admitted under. If the connection drops, calls in flight and every later call reject with
 * {@link McpConnectionError}, as does `tools()`.
 */
export class McpToolSet implements ToolSet {
  /** Tools the server listed that could not be offered (bad name or uncompilable schema), with why. */
  skipped: ReadonlyArray<{ readonly name: string; readonly reason: string }> = [];
  private entries = new Map<string, Entry>();
  private readonly tracker: McpDefinitionTracker;
  private listed: readonly McpTool[] = [];
  private entriesKey: string | undefined;
  private readonly names: McpToolNames;
  private refreshing: Promise<void> | undefined;
  private queuedListing: Promise<void> | undefined;
  private failure: McpConnectionError | undefined;
  private closing = false;

  /** @internal Use {@link createMcpToolSet}. */
  constructor(
    readonly client: Client,
    private readonly options: McpToolSetOptions,
    private readonly stderrTail: () => string | undefined,
  ) {
    this.tracker = new McpDefinitionTracker({
      pins: options.pins,
      newTools: options.newTools ?? 'withhold',
      label: () => this.label,
      onEvent: options.onEvent,
    });
    this.names = new McpToolNames(options.prefix ?? '');
  }

  /** Tools withheld because their definition changed since it was pinned (or is not in the pin file). */
  get withheld(): readonly McpWithheldTool[] {
    return [...this.tracker.withheld.values()];
  }

  /** The current pins (approved definitions), as a pin file; write it with `writeMcpPinFile`. */
  pins(): McpPinFile {
    return {
      version: MCP_PIN_FILE_VERSION,
      server: this.serverName,
      tools: Object.fromEntries([...this.tracker.pinned].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    };
  }

  /**
   * Approves the definition of a withheld tool (by the server's name for it) that the host
   * reviewed, named by its SHA-256 (`current` of the `tool_definition_*` event or of `withheld`):
   * it becomes the pin, and the tool is offered again from the next `tools()`. Returns the new pin.
   * Breaking since 0.1: the digest is required; approving "whatever is current" is not possible.
   * @throws {ToolNotFoundError} when no tool of that name is withheld.
   * @throws {McpToolDefinitionChangedError} (`during: 'approval'`) when `sha256` is not the
   * definition the server listed last (it changed again since the host looked): nothing is approved.
   */
  approveDefinition(toolName: string, sha256: string): McpToolPin {
    const withheld = this.tracker.withheld.get(toolName);
    const tool = this.listed.find((item) => item.name === toolName);
    if (withheld === undefined || tool === undefined)
      throw new ToolNotFoundError({ toolName, availableTools: [...this.tracker.withheld.keys()] });
    const pin = pinToolDefinition(tool);
    if (typeof sha256 !== 'string' || sha256 !== withheld.current || pin.sha256 !== sha256) {
      throw new McpToolDefinitionChangedError({
        server: this.serverName,
        toolName,
        during: 'approval',
        expected: typeof sha256 === 'string' ? sha256 : undefined,
        current: withheld.current,
      });
    }
    this.tracker.pinned.set(toolName, pin);
    this.tracker.withheld.delete(toolName);
    this.entries = this.buildEntries(this.listed);
    return pin;
  }

  /** Names the toolset in events and errors: the `label` option, else `mcp:<server name>`. */
  get label(): string {
    return this.options.label ?? `mcp:${this.serverName}`;
  }

  /** The server's reported name (`serverInfo.name`), or `mcp` before the handshake. */
  get serverName(): string {
    return this.client.getServerVersion()?.name ?? 'mcp';
  }

  /** Whether the connection is gone (closed or lost). */
  get closed(): boolean {
    return this.failure !== undefined;
  }

  /**
   * The current tools, read afresh from the server (unless `freshListings: false`: the last
   * listing, refreshed after list-changed notifications). Definition events the run has not had
   * yet go to `context.emit`.
   */
  async tools(context?: McpToolSetContext): Promise<readonly AnyTool[]> {
    this.assertOpen();
    try {
      await (this.options.freshListings === false ? this.refreshing : this.refresh());
    } catch (error) {
      // The server answered the listing with a JSON-RPC error: keep the last listing (each call
      // is checked again before it runs, and refused while the server cannot list its tools);
      // the same for a listing past its bounds.
      if (!(error instanceof McpError) && !McpListingLimitError.isInstance(error)) throw error;
    }
    this.assertOpen();
    this.tracker.deliver(context?.runId, context?.emit, context?.run);
    return [...this.entries.values()].map((entry) => entry.tool);
  }

  /**
   * Calls the tool advertised as `name`. With an output schema, the result's `structuredContent`
   * (its first, JSON block) is checked against it; `isError` results are not.
   * @throws {ToolNotFoundError} when the server does not offer that name now.
   * @throws {McpToolDefinitionChangedError} when the server's definition of the tool changed since it was listed.
   * @throws {ToolOutputError} when the structured result is missing or does not match the output schema.
   * @throws {McpConnectionError} when the connection is gone (also for a call in flight).
   */
  async call(name: string, args: unknown, context?: McpToolSetCallContext): Promise<ToolResult> {
    if (this.refreshing) await this.refreshing;
    this.assertOpen();
    const entry = this.entries.get(name);
    if (entry === undefined) throw new ToolNotFoundError({ toolName: name });
    this.tracker.deliver(context?.runId, context?.emit, context?.run);
    const result = await this.runAdmitted(entry, args, context?.execution?.context?.signal, context?.runId);
    return entry.tool.outputSchema !== undefined ? toToolResult(await checkToolOutput(entry.tool, result)) : result;
  }

  /** The server's instructions (sanitised), if it sent any. */
  instructions(): string | undefined {
    const text = this.client.getInstructions();
    if (text === undefined) return undefined;
    const clean = sanitizeToolMetadata(text, { maxBytes: 16_384 }).trim();
    return clean === '' ? undefined : clean;
  }

  /** Waits for a pending catalogue refresh; fails fast when the connection is gone. */
  async forRun(_context?: McpToolSetContext): Promise<void> {
    if (this.refreshing) await this.refreshing;
    this.assertOpen();
  }

  /**
   * Re-reads the server's tool list (all pages, within `listingLimits`). Listings run one at a
   * time, each applied as it answers (so answers can never be applied out of order); a refresh
   * asked for while one runs joins the next listing, which starts when the running one ends.
   */
  refresh(): Promise<void> {
    if (this.queuedListing !== undefined) return this.queuedListing;
    const before = this.refreshing ?? Promise.resolve();
    const run: Promise<void> = before
      .catch(() => undefined)
      .then(() => {
        if (this.queuedListing === run) this.queuedListing = undefined;
        return this.loadTools();
      })
      .finally(() => {
        if (this.refreshing === run) this.refreshing = undefined;
      });
    this.queuedListing = run;
    this.refreshing = run;
    return run;
  }

  /** Closes the connection (and stops a server this toolset started). Later calls throw. */
  async close(): Promise<void> {
    this.closing = true;
    this.failure ??= new McpConnectionError({ server: this.serverName, reason: 'closed' });
    await this.client.close();
  }

  /** @internal Wires connection and notification handlers; called once after connecting. */
  attach(): void {
    const previousClose = this.client.onclose;
    this.client.onclose = () => {
      previousClose?.();
      this.failure ??= new McpConnectionError({
        server: this.serverName,
        reason: this.closing ? 'closed' : 'lost',
        stderr: this.stderrTail(),
      });
    };
    this.client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      await this.refresh().catch(() => undefined);
      this.options.onToolsChanged?.([...this.entries.keys()]);
    });
  }

  private assertOpen(): void {
    if (this.failure !== undefined) throw this.failure;
  }

  private async loadTools(): Promise<void> {
    const limits = this.options.listingLimits;
    const maxPages = limits?.maxPages ?? DEFAULT_MAX_LISTING_PAGES;
    const maxTools = limits?.maxTools ?? DEFAULT_MAX_LISTED_TOOLS;
    const timeoutMs = limits?.timeoutMs ?? DEFAULT_LISTING_TIMEOUT_MS;
    const deadline = performance.now() + timeoutMs;
    const fail = (limit: McpListingLimitError['limit'], max: number): never => {
      throw new McpListingLimitError({ server: this.serverName, limit, max });
    };
    const listed: McpTool[] = [];
    const cursors = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    do {
      if (pages >= maxPages) fail('pages', maxPages);
      const left = Math.ceil(deadline - performance.now());
      if (left <= 0) fail('time', timeoutMs);
      const timeout = Math.min(this.options.requestTimeoutMs ?? DEFAULT_LISTING_TIMEOUT_MS, left);
      const page = await this.request(() => this.client.listTools(cursor === undefined ? {} : { cursor }, { timeout }));
      pages += 1;
      if (listed.length + page.tools.length > maxTools) fail('tools', maxTools);
      listed.push(...page.tools);
      cursor = page.nextCursor;
      if (cursor !== undefined) {
        if (cursors.has(cursor)) fail('cursor_loop', pages);
        cursors.add(cursor);
      }
    } while (cursor !== undefined);
    this.listed = listed;
    this.entries = this.buildEntries(listed);
  }

  private buildEntries(all: readonly McpTool[]): Map<string, Entry> {
    const offered = this.tracker.check(all);
    // The same definitions as last time: keep the same tool objects (the harness caches per object).
    const key = [
      ...offered.map((item) => `${item.tool.name}\u0000${item.pin.sha256}`),
      ...this.tracker.duplicated,
    ].join('\n');
    if (key === this.entriesKey) return this.entries;
    this.entriesKey = key;
    const pins = new Map(offered.map((item: McpOfferedTool) => [item.tool.name, item.pin]));
    const listed = offered.map((item) => item.tool);
    const exposure = this.resolveExposure(listed.length);
    const family = this.options.family ?? sanitizeToolMetadata(this.serverName, { maxBytes: 64 });
    // Stable for the session: an advertised name keeps meaning the MCP tool it was first given to.
    const names = this.names.assign(listed.map((tool) => tool.name));
    const byMcpName = new Map(listed.map((tool) => [tool.name, tool]));
    const skipped: Array<{ name: string; reason: string }> = [...this.tracker.duplicated].map((name) => ({
      name,
      reason: 'listed more than once',
    }));
    const advertised = new Set(names.values());
    for (const tool of listed)
      if (!advertised.has(tool.name)) skipped.push({ name: tool.name, reason: 'invalid name' });
    const entries = new Map<string, Entry>();
    for (const [name, mcpName] of names) {
      const tool = byMcpName.get(mcpName);
      const pin = pins.get(mcpName);
      if (tool === undefined || pin === undefined) continue;
      const parameters = sanitizeSchemaText(normalizeInputSchema(tool.inputSchema)) as JsonSchema;
      // The validator is kept per schema object, with the tool set's unknownFormats choice.
      const formats = { unknownFormats: this.options.unknownFormats };
      try {
        createValidator(parameters, formats);
      } catch (error) {
        skipped.push({ name: mcpName, reason: `input schema does not compile: ${String(error)}` });
        continue;
      }
      let outputSchema: JsonSchema | undefined;
      if (tool.outputSchema !== undefined) {
        outputSchema = sanitizeSchemaText(tool.outputSchema) as JsonSchema;
        try {
          createValidator(outputSchema, formats);
        } catch (error) {
          skipped.push({ name: mcpName, reason: `output schema does not compile: ${String(error)}` });
          continue;
        }
      }
      const description = sanitizeToolMetadata(tool.description ?? tool.title ?? '', {
        maxBytes: this.options.maxDescriptionBytes ?? DEFAULT_DESCRIPTION_BYTES,
      });
      const annotations = tool.annotations;
      const readOnly = annotations?.readOnlyHint === true;
      const entry: Entry = {
        mcpName,
        pin,
        tool: {
          name,
          description,
          parameters,
          ...(outputSchema === undefined ? {} : { outputSchema }),
          exposure,
          family,
          category: 'integration',
          policy: policyFromAnnotations(
            annotations === undefined ? undefined : { ...annotations, title: annotations.title ?? tool.title },
          ),
          // Not `readOnlyHint`: the server sets it, and a call running beside another could be
          // changed by it between its check and its run. Calls to one server run one at a time.
          isConcurrencySafe: () => false,
          externalEffect: () => !readOnly,
          execute: (args, context) => this.runAdmitted(entry, args, context.signal, context.runId),
        },
      };
      entries.set(name, entry);
    }
    this.skipped = skipped;
    return entries;
  }

  /**
   * Runs a call under the definition it was admitted under (`entry.pin`, fixed when the tool was
   * listed): re-lists the server's tools first (unless `freshListings: false`, then waits for a
   * pending refresh) and refuses the call when the server's definition is another one now, or
   * when any listing since the call began showed it changed. After the call, re-lists again: if
   * the definition changed while the call ran, the result is not returned (the server may have
   * run another definition) and the call fails with `during: 'result'`.
   */
  private async runAdmitted(
    entry: Entry,
    args: unknown,
    signal: AbortSignal | undefined,
    runId: string | undefined,
  ): Promise<ToolResult> {
    this.assertOpen();
    const generation = this.tracker.generation(entry.mcpName);
    const fresh = this.options.freshListings !== false;
    const reread = await this.reread(fresh, signal, 'call');
    if (reread !== undefined) return reread;
    this.tracker.deliver(runId);
    this.assertPinned(entry, generation, 'call');
    const checked = this.tracker.generation(entry.mcpName);
    const result = await this.callServer(entry.mcpName, args, signal, entry.tool.outputSchema !== undefined);
    if (fresh) {
      // A failed re-read leaves the answer unconfirmed: it is not returned as the pinned tool's.
      const after = await this.reread(true, signal, 'result');
      this.tracker.deliver(runId);
      if (after !== undefined) return after;
    } else if (this.refreshing) {
      await this.refreshing.catch(() => undefined);
      this.tracker.deliver(runId);
    }
    this.assertPinned(entry, checked, 'result');
    return result;
  }

  /** Re-reads the tool list for a call's check; a server or listing error becomes the call's error result. */
  private async reread(
    fresh: boolean,
    signal: AbortSignal | undefined,
    phase: 'call' | 'result',
  ): Promise<ToolResult | undefined> {
    if (!fresh) {
      if (this.refreshing) await this.refreshing.catch(() => undefined);
      return undefined;
    }
    try {
      await this.refresh();
      return undefined;
    } catch (error) {
      if (McpConnectionError.isInstance(error) || signal?.aborted) throw error;
      if (error instanceof McpError || McpListingLimitError.isInstance(error))
        return ToolResult.error(
          phase === 'call'
            ? `MCP server "${this.serverName}": could not re-read its tools: ${error.message}`
            : `MCP server "${this.serverName}": the call was made, but its tools could not be re-read to confirm the definition it ran under, so its answer is withheld: ${error.message}`,
        );
      throw error;
    }
  }

  private assertPinned(entry: Entry, generation: number, during: 'call' | 'result'): void {
    const current = this.tracker.current(entry.mcpName);
    if (current?.sha256 === entry.pin.sha256 && this.tracker.generation(entry.mcpName) === generation) return;
    throw new McpToolDefinitionChangedError({
      server: this.serverName,
      toolName: entry.mcpName,
      during,
      expected: entry.pin.sha256,
      current: current?.sha256,
    });
  }

  private resolveExposure(count: number): ToolExposure {
    const exposure = this.options.exposure ?? 'auto';
    if (exposure !== 'auto') return exposure;
    return count > (this.options.deferThreshold ?? DEFAULT_DEFER_THRESHOLD) ? 'deferred' : 'direct';
  }

  /**
   * Sends `tools/call` as a plain request rather than `Client.callTool`, whose own output-schema
   * check would turn a mismatch into an error answer for the model: the tool's `outputSchema`
   * (checked by `@tiny/tools`) makes it a `ToolOutputError`, under the run's tool-error policy.
   */
  private async callServer(
    mcpName: string,
    args: unknown,
    signal: AbortSignal | undefined,
    structured = false,
  ): Promise<ToolResult> {
    const argumentsObject =
      typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
    try {
      const result = await this.request(() =>
        this.client.request(
          { method: 'tools/call', params: { name: mcpName, arguments: argumentsObject } },
          CallToolResultSchema,
          this.requestOptions(signal),
        ),
      );
      const structuredContent = result.structuredContent as JsonValue | undefined;
      return resultFromMcp(
        result,
        {
          mcpServer: this.serverName,
          mcpTool: mcpName,
          ...(structuredContent === undefined ? {} : { structuredContent }),
        },
        { structured },
      );
    } catch (error) {
      if (McpConnectionError.isInstance(error) || signal?.aborted) throw error;
      if (error instanceof McpError) return ToolResult.error(`MCP server "${this.serverName}": ${error.message}`);
      throw error;
    }
  }

  private requestOptions(signal?: AbortSignal): { signal?: AbortSignal; timeout?: number } {
    return {
      ...(signal === undefined ? {} : { signal }),
      ...(this.options.requestTimeoutMs === undefined ? {} : { timeout: this.options.requestTimeoutMs }),
    };
  }

  /** Runs a request, turning a lost or closed connection into {@link McpConnectionError}. */
  private async request<T>(send: () => Promise<T>): Promise<T> {
    this.assertOpen();
    try {
      return await send();
    } catch (error) {
      const lost =
        (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) ||
        (error instanceof Error && error.message === 'Not connected');
      if (lost || this.failure !== undefined) {
        throw (
          this.failure ??
          new McpConnectionError({
            server: this.serverName,
            reason: 'lost',
            stderr: this.stderrTail(),
            cause: error,
          })
        );
      }
      throw error;
    }
  }
}
