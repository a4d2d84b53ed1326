import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolSetEvent } from '@tiny/harness';
import {
  changedFields,
  type McpPinFile,
  type McpPinnedField,
  type McpToolPin,
  pinToolDefinition,
} from './mcp-tool-pins.js';

/** A tool the toolset does not offer because its definition does not match its pin. */
export interface McpWithheldTool {
  /** The server's name for the tool. */
  readonly toolName: string;
  /** The parts that differ from the pin; `['new']` for a tool that has no pin. */
  readonly changed: readonly (McpPinnedField | 'new')[];
  readonly pinned?: string | undefined;
  /** SHA-256 of the definition listed now: pass it to `approveDefinition` once reviewed. */
  readonly current: string;
}

/** A listed tool the toolset offers, with the pin it is offered under. */
export interface McpOfferedTool {
  readonly tool: McpTool;
  readonly pin: McpToolPin;
}

/** How new tools are treated: offered (and pinned) on sight, or withheld until approved. */
export type McpNewToolsMode = 'offer' | 'withhold';

const MAX_LOGGED_EVENTS = 1024;
const MAX_TRACKED_RUNS = 64;

interface RunCursor {
  cursor: number;
  emit: (event: ToolSetEvent) => void;
}

/**
 * Follows one server's tool definitions from listing to listing: which are pinned (approved),
 * which are offered and which withheld, and one event per change (added, changed, removed). Events
 * go to `onEvent` at once and into a log each run reads from (`deliver`): a run first gets the
 * events no run has had yet, then every later one.
 * @internal
 */
export class McpDefinitionTracker {
  readonly pinned: Map<string, McpToolPin>;
  readonly withheld = new Map<string, McpWithheldTool>();
  private seen = new Map<string, McpToolPin>();
  private duplicates = new Set<string>();
  private listedOnce = false;
  private readonly log: ToolSetEvent[] = [];
  private base = 0;
  private delivered = 0;
  private readonly runs = new Map<string, RunCursor>();

  constructor(
    private readonly options: {
      readonly pins?: McpPinFile | undefined;
      readonly newTools: McpNewToolsMode;
      readonly label: () => string;
      readonly onEvent?: ((event: ToolSetEvent) => void) | undefined;
    },
  ) {
    this.pinned = new Map(Object.entries(options.pins?.tools ?? {}));
  }

  /**
   * Checks a listing against the pins and the previous listing: returns the tools to offer (a
   * pinned tool whose definition is its pin's), records the rest as withheld, and logs one event
   * per tool added, changed or removed since the previous listing. At the first listing without a
   * pin file every tool is pinned as listed (trust on first use), silently; later, a tool without
   * a pin is pinned on sight only in `newTools: 'offer'` mode. A name listed twice is never offered.
   */
  check(listed: readonly McpTool[]): McpOfferedTool[] {
    const first = !this.listedOnce;
    this.listedOnce = true;
    const counts = new Map<string, number>();
    for (const tool of listed) counts.set(tool.name, (counts.get(tool.name) ?? 0) + 1);
    const next = new Map<string, McpToolPin>();
    const offered: McpOfferedTool[] = [];
    const events: ToolSetEvent[] = [];
    this.duplicates = new Set([...counts].filter(([, count]) => count > 1).map(([name]) => name));
    for (const tool of listed) {
      if (next.has(tool.name)) continue;
      const current = pinToolDefinition(tool);
      next.set(tool.name, current);
      const previous = this.seen.get(tool.name);
      let pin = this.pinned.get(tool.name);
      const trusted = first ? this.options.pins === undefined : this.options.newTools === 'offer';
      if (pin === undefined && trusted) {
        pin = current;
        this.pinned.set(tool.name, current);
      }
      const offer = pin?.sha256 === current.sha256 && !this.duplicates.has(tool.name);
      if (offer) {
        this.withheld.delete(tool.name);
        offered.push({ tool, pin: pin as McpToolPin });
      } else {
        const changed = pin === undefined ? (['new'] as const) : changedFields(pin, current);
        this.withheld.set(tool.name, {
          toolName: tool.name,
          changed: changed.length === 0 ? ['name'] : changed,
          ...(pin === undefined ? {} : { pinned: pin.sha256 }),
          current: current.sha256,
        });
      }
      const base = { toolSet: this.options.label(), toolName: tool.name, current: current.sha256, withheld: !offer };
      if (previous === undefined ? pin !== undefined && !offer : previous.sha256 !== current.sha256) {
        events.push({
          type: 'tool_definition_changed',
          ...base,
          changed: changedFields(pin ?? (previous as McpToolPin), current),
          ...(pin === undefined ? {} : { pinned: pin.sha256 }),
        });
      } else if (previous === undefined && !(first && offer)) {
        events.push({ type: 'tool_definition_added', ...base });
      }
    }
    for (const [name, previous] of this.seen) {
      if (next.has(name)) continue;
      this.withheld.delete(name);
      events.push({
        type: 'tool_definition_removed',
        toolSet: this.options.label(),
        toolName: name,
        previous: previous.sha256,
      });
    }
    this.seen = next;
    for (const event of events) this.record(event);
    for (const event of events) this.options.onEvent?.(event);
    return offered;
  }

  /** Names listed more than once in the last listing (never offered). */
  get duplicated(): ReadonlySet<string> {
    return this.duplicates;
  }

  /** The pin of the definition the last listing holds for `name`; none when it is not listed (or listed twice). */
  current(name: string): McpToolPin | undefined {
    return this.duplicates.has(name) ? undefined : this.seen.get(name);
  }

  /**
   * Sends a run the events it has not had: with `emit`, remembered for the run (so calls, which
   * carry only the run id, can report too); without, through the run's remembered `emit`, if any.
   */
  deliver(runId: string | undefined, emit?: ((event: ToolSetEvent) => void) | undefined): void {
    if (runId === undefined) return;
    let run = this.runs.get(runId);
    if (run === undefined) {
      if (emit === undefined) return;
      run = { cursor: this.delivered, emit };
      if (this.runs.size >= MAX_TRACKED_RUNS) this.runs.delete(this.runs.keys().next().value as string);
    } else {
      if (emit !== undefined) run.emit = emit;
      this.runs.delete(runId);
    }
    this.runs.set(runId, run);
    const end = this.base + this.log.length;
    const from = Math.max(run.cursor, this.base);
    run.cursor = end;
    this.delivered = Math.max(this.delivered, end);
    for (let index = from; index < end; index += 1) run.emit(this.log[index - this.base] as ToolSetEvent);
  }

  private record(event: ToolSetEvent): void {
    this.log.push(event);
    if (this.log.length > MAX_LOGGED_EVENTS) {
      const dropped = this.log.length - MAX_LOGGED_EVENTS;
      this.log.splice(0, dropped);
      this.base += dropped;
    }
  }
}
