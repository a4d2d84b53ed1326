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
  /**
   * The parts that differ from the pin; `['new']` for a tool that has no pin; led by `'duplicated'`
   * when the server listed the name more than once (never offered), then the parts in which the
   * copy named by `current` differs from the pin.
   */
  readonly changed: readonly (McpPinnedField | 'new' | 'duplicated')[];
  readonly pinned?: string | undefined;
  /** SHA-256 of the definition listed now (of a duplicated name: the first copy that is not the pin). */
  readonly current: string;
}

/** A listed tool the toolset offers, with the pin it is offered under. */
export interface McpOfferedTool {
  readonly tool: McpTool;
  readonly pin: McpToolPin;
}

/** How new tools are treated: offered (and pinned) on sight, or withheld until approved. */
export type McpNewToolsMode = 'offer' | 'withhold';

/** Events kept for the next run while no run has taken them; beyond, the oldest additions go first. */
const MAX_UNDELIVERED_EVENTS = 10_000;
/** Runs known by id only (a context without a `run` object), kept most recent first. */
const MAX_RUNS_WITHOUT_OBJECT = 1024;

interface Recorded {
  readonly seq: number;
  readonly event: ToolSetEvent;
}

interface RunState {
  pending: Recorded[];
  /** The run's own object (`context.run`): the run is forgotten once it is garbage. */
  ref?: WeakRef<object> | undefined;
  /** The run's `emit`, when the run has no object to hang it on. */
  emit?: ((event: ToolSetEvent) => void) | undefined;
}

interface Seen {
  readonly pin: McpToolPin;
  /** The definition's digest, or for a duplicated name every copy's digest. */
  readonly key: string;
}

/**
 * Follows one server's tool definitions from listing to listing: which are pinned (approved),
 * which are offered and which withheld, and one event per change (added, changed, removed;
 * changes and removals first). Events go to `onEvent` at once and into a queue per run
 * (`deliver`): a run first gets the events no run has had yet, then every later one. A run is
 * known by its id and, when its context carries one, its `run` object (held weakly: the run's
 * queue goes when the run does), so no run loses events because other runs came after it.
 * @internal
 */
export class McpDefinitionTracker {
  readonly pinned: Map<string, McpToolPin>;
  readonly withheld = new Map<string, McpWithheldTool>();
  private seen = new Map<string, Seen>();
  private duplicates = new Set<string>();
  private listedOnce = false;
  private readonly generations = new Map<string, number>();
  private seq = 0;
  private readonly undelivered = new Map<number, ToolSetEvent>();
  private readonly runs = new Map<string, RunState>();
  private readonly emits = new WeakMap<object, (event: ToolSetEvent) => void>();
  private readonly finalizer = new FinalizationRegistry<string>((runId) => {
    const run = this.runs.get(runId);
    if (run?.ref !== undefined && run.ref.deref() === undefined) this.runs.delete(runId);
  });

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
   * a pin is pinned on sight only in `newTools: 'offer'` mode. A name listed twice is never
   * offered, and is reported (`changed` led by `'duplicated'`).
   */
  check(listed: readonly McpTool[]): McpOfferedTool[] {
    const first = !this.listedOnce;
    this.listedOnce = true;
    const copies = new Map<string, McpToolPin[]>();
    const order: McpTool[] = [];
    for (const tool of listed) {
      const pins = copies.get(tool.name);
      if (pins === undefined) {
        copies.set(tool.name, [pinToolDefinition(tool)]);
        order.push(tool);
      } else pins.push(pinToolDefinition(tool));
    }
    const next = new Map<string, Seen>();
    const offered: McpOfferedTool[] = [];
    const changes: ToolSetEvent[] = [];
    const additions: ToolSetEvent[] = [];
    this.duplicates = new Set([...copies].filter(([, pins]) => pins.length > 1).map(([name]) => name));
    for (const tool of order) {
      const all = copies.get(tool.name) as McpToolPin[];
      const duplicated = all.length > 1;
      const previous = this.seen.get(tool.name);
      let pin = this.pinned.get(tool.name);
      const trusted = first ? this.options.pins === undefined : this.options.newTools === 'offer';
      if (pin === undefined && trusted && !duplicated) {
        pin = all[0] as McpToolPin;
        this.pinned.set(tool.name, pin);
      }
      const reference = pin ?? previous?.pin;
      const current =
        (reference === undefined ? undefined : all.find((copy) => copy.sha256 !== reference.sha256)) ??
        (all[0] as McpToolPin);
      const key = all.map((copy) => copy.sha256).join(',');
      next.set(tool.name, { pin: current, key });
      const offer = !duplicated && pin?.sha256 === current.sha256;
      const fields = pin === undefined ? (['new'] as const) : changedFields(pin, current);
      if (offer) {
        this.withheld.delete(tool.name);
        offered.push({ tool, pin: pin as McpToolPin });
      } else {
        this.withheld.set(tool.name, {
          toolName: tool.name,
          changed: duplicated ? ['duplicated', ...fields] : fields.length === 0 ? ['name'] : fields,
          ...(pin === undefined ? {} : { pinned: pin.sha256 }),
          current: current.sha256,
        });
      }
      const base = { toolSet: this.options.label(), toolName: tool.name, current: current.sha256, withheld: !offer };
      if (previous === undefined ? pin !== undefined && !offer : previous.key !== key) {
        const against = pin ?? (previous as Seen).pin;
        changes.push({
          type: 'tool_definition_changed',
          ...base,
          changed: [...(duplicated ? ['duplicated'] : []), ...changedFields(against, current)],
          ...(pin === undefined ? {} : { pinned: pin.sha256 }),
        });
      } else if (previous === undefined && !(first && offer)) {
        additions.push({ type: 'tool_definition_added', ...base });
      }
    }
    for (const [name, previous] of this.seen) {
      if (next.has(name)) continue;
      this.withheld.delete(name);
      changes.push({
        type: 'tool_definition_removed',
        toolSet: this.options.label(),
        toolName: name,
        previous: previous.pin.sha256,
      });
    }
    this.seen = next;
    const events = [...changes, ...additions];
    for (const event of events) {
      this.generations.set(event.toolName, (this.generations.get(event.toolName) ?? 0) + 1);
      this.record(event);
    }
    for (const event of events) this.options.onEvent?.(event);
    return offered;
  }

  /** Names listed more than once in the last listing (never offered). */
  get duplicated(): ReadonlySet<string> {
    return this.duplicates;
  }

  /** The pin of the definition the last listing holds for `name`; none when it is not listed (or listed twice). */
  current(name: string): McpToolPin | undefined {
    return this.duplicates.has(name) ? undefined : this.seen.get(name)?.pin;
  }

  /**
   * How many definition events `name` has had: a call compares it before and after its check
   * listing, so a change any listing showed in between refuses the call, even if the definition
   * is the pinned one again by the time the call's own listing answered.
   */
  generation(name: string): number {
    return this.generations.get(name) ?? 0;
  }

  /**
   * Sends a run the events it has not had. `emit` (and the run's object, `run`) come with the
   * run's listings and calls: they are remembered for the run, so a call that carries only the
   * run id reports through them too.
   */
  deliver(runId: string | undefined, emit?: ((event: ToolSetEvent) => void) | undefined, run?: unknown): void {
    if (runId === undefined) return;
    let state = this.runs.get(runId);
    if (state === undefined) {
      if (emit === undefined) return;
      state = { pending: [...this.undelivered].map(([seq, event]) => ({ seq, event })) };
      this.runs.set(runId, state);
    }
    if (emit !== undefined) {
      if (typeof run === 'object' && run !== null) {
        if (state.ref?.deref() !== run) {
          state.ref = new WeakRef(run);
          this.finalizer.register(run, runId);
        }
        this.emits.set(run, emit);
        state.emit = undefined;
      } else {
        state.emit = emit;
        state.ref = undefined;
        // Keep the most recent runs known by id alone (each holds its `emit` strongly).
        this.runs.delete(runId);
        this.runs.set(runId, state);
        this.trimRunsWithoutObject();
      }
    }
    const owner = state.ref?.deref();
    const target = state.emit ?? (owner === undefined ? undefined : this.emits.get(owner));
    if (target === undefined) return;
    const pending = state.pending;
    state.pending = [];
    for (const { seq, event } of pending) {
      this.undelivered.delete(seq);
      target(event);
    }
  }

  private record(event: ToolSetEvent): void {
    this.seq += 1;
    const recorded = { seq: this.seq, event };
    this.undelivered.set(this.seq, event);
    for (const [runId, state] of this.runs) {
      if (state.ref !== undefined && state.ref.deref() === undefined) {
        this.runs.delete(runId);
        continue;
      }
      state.pending.push(recorded);
    }
    if (this.undelivered.size > MAX_UNDELIVERED_EVENTS) {
      // Nobody takes events (no run has come): forget the oldest addition, else the oldest event.
      const [oldest] = this.undelivered.keys();
      let drop = oldest as number;
      for (const [seq, queued] of this.undelivered) {
        if (queued.type === 'tool_definition_added') {
          drop = seq;
          break;
        }
      }
      this.undelivered.delete(drop);
    }
  }

  private trimRunsWithoutObject(): void {
    let count = 0;
    for (const state of this.runs.values()) if (state.ref === undefined) count += 1;
    for (const [runId, state] of this.runs) {
      if (count <= MAX_RUNS_WITHOUT_OBJECT) return;
      if (state.ref !== undefined) continue;
      this.runs.delete(runId);
      count -= 1;
    }
  }
}
