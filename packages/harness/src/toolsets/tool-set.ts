import type { AnyTool, ExecuteToolOptions, ToolResult } from '@tiny/tools';
import type { AgentEventOf } from '../events/agent-event.js';
import { declaredFields } from '../events/declared-fields.js';
import { recordedValue } from '../events/recorded-value.js';

/** The events a {@link ToolSet} may report into a run (through {@link ToolSetContext.emit}). */
export type ToolSetEvent = AgentEventOf<
  'tool_definition_added' | 'tool_definition_changed' | 'tool_definition_removed'
>;

const TOOL_SET_EVENT_TYPES: ReadonlySet<string> = new Set<ToolSetEvent['type']>([
  'tool_definition_added',
  'tool_definition_changed',
  'tool_definition_removed',
]);

/**
 * The `emit` the harness hands toolsets: passes {@link ToolSetEvent}s to the run's sink, drops anything else.
 * @internal
 */
export function toolSetEmitter(state: {
  readonly sink: { emit(event: ToolSetEvent): void };
}): (event: ToolSetEvent) => void {
  return (event) => {
    // The run's own copy, checked and then recorded: a getter cannot answer the check one way and
    // the record another. Only the fields its kind declares are recorded.
    const copy = recordedValue(event);
    if (isToolSetEvent(copy)) state.sink.emit({ ...declaredFields(copy.type, copy), type: copy.type } as ToolSetEvent);
  };
}

/** Whether `value` is an event a toolset may report (a {@link ToolSetEvent}). @internal */
export function isToolSetEvent(value: unknown): value is ToolSetEvent {
  const type = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
  return typeof type === 'string' && TOOL_SET_EVENT_TYPES.has(type);
}

/** What a {@link ToolSet} is told about the turn it serves. */
export interface ToolSetContext {
  readonly runId: string;
  /** 1-based turn number; 0 before the first turn (`forRun`) and outside the loop. */
  readonly turn: number;
  /** The host's per-run context (the harness passes its `RunContext`); opaque to toolsets. */
  readonly run?: unknown;
  /**
   * Reports a {@link ToolSetEvent} into the run's events (the harness passes it when the run has
   * listeners or records events; other event types are dropped). Absent outside the harness.
   */
  readonly emit?: ((event: ToolSetEvent) => void) | undefined;
}

/** What a {@link ToolSet.call} is given besides the turn: how to run the tool. */
export interface ToolSetCallContext extends ToolSetContext {
  /** Execution context fields (call id, signal, …) and host values for injected arguments. */
  readonly execution?: ExecuteToolOptions | undefined;
}

/** How an adaptor changed what the model sees, reported in the `tools_filtered` event. */
export type ToolExposureExplanationKind =
  | 'filtered_out'
  | 'renamed'
  | 'prefixed'
  | 'prepared'
  | 'approval_required'
  | 'deferred'
  | 'hidden';

/**
 * One change an adaptor made to one tool this turn. `name` is the name the tool had when it
 * reached the adaptor (for `renamed`/`prefixed`, `from` → `to` repeats it with the new name).
 */
export interface ToolExposureExplanation {
  readonly name: string;
  readonly kind: ToolExposureExplanationKind;
  /** The adaptor that made the change (its `label`). */
  readonly by: string;
  readonly from?: string | undefined;
  readonly to?: string | undefined;
}

/** A turn's catalogue from a {@link ToolSet}: the tools, and how adaptors changed them. */
export interface ToolSetListing {
  /** Every tool the set offers now, with its exposure (`direct`, `deferred`, `hidden`) on it. */
  readonly tools: readonly AnyTool[];
  /** In adaptor order, innermost first. Empty when nothing was withheld or changed. */
  readonly explanations: readonly ToolExposureExplanation[];
}

/**
 * A source of tools resolved every turn: the registry, an MCP server, a filtered or renamed view
 * of another set. Tools are `@tiny/tools` {@link AnyTool} objects, so policy, exposure, injected
 * arguments, concurrency and timeouts travel with them; running a listed tool's `execute` is the
 * same as {@link ToolSet.call} with its name.
 */
export interface ToolSet {
  /** Names the set in `tools_filtered` events (`by`). */
  readonly label: string;
  /**
   * The tools offered this turn. May differ from turn to turn. A plain array means "no
   * explanations"; read it through {@link listToolSet}.
   */
  tools(context: ToolSetContext): readonly AnyTool[] | ToolSetListing | Promise<readonly AnyTool[] | ToolSetListing>;
  /**
   * Runs a tool the set offers now.
   * @throws {ToolNotFoundError} when the name is not offered by this set right now ("not mine");
   * any other error means "mine, and it failed".
   */
  call(name: string, args: unknown, context: ToolSetCallContext): Promise<ToolResult>;
  /** Text for the system prompt about these tools; none by default. */
  instructions?(): string | undefined;
  /** Called once per run before the first turn (connect, warm caches); no-op by default. */
  forRun?(context: ToolSetContext): void | Promise<void>;
}

/** Reads a turn's catalogue from any {@link ToolSet}, normalising a plain array to a listing. */
export async function listToolSet(toolSet: ToolSet, context: ToolSetContext): Promise<ToolSetListing> {
  const listed = await toolSet.tools(context);
  return isListing(listed) ? listed : { tools: listed, explanations: [] };
}

function isListing(value: readonly AnyTool[] | ToolSetListing): value is ToolSetListing {
  return !Array.isArray(value);
}
