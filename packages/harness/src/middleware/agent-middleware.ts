import type {
  LanguageModelV1Request,
  LanguageModelV1Response,
  LanguageModelV1ResponseFormat,
  Message,
  ToolChoice,
  ToolSchema,
} from '@tiny/llm';
import type { JsonValue, ToolResult } from '@tiny/tools';
import type { RegisteredTool } from '../registry/tool-registry.js';
import type { RunContext } from '../run/run-context.js';
import type { MiddlewareEvent } from './middleware-event.js';

/** A call on its way through admission: the model's id, name and arguments. */
export interface PendingCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: unknown;
  /** Set when the provider could not decode the arguments (then `arguments` is the raw string). */
  readonly invalid?: string | undefined;
  /**
   * The adapter refused the call (`ToolCall.refused` of `@tiny/llm`): admission answers it with an
   * error before any hook sees it, and never repairs or runs it.
   */
  readonly refused?: true | undefined;
}

/**
 * What a hook may ask the loop to do, applied at the next safe checkpoint with a
 * `control_applied` event. Within one hook phase the first non-`continue` result wins; across a
 * turn the highest precedence wins: `interrupt` (4) > `stop_with_final` (3) > `jump_to` (2) >
 * `update_state` (1) > `continue` (0).
 * - `jump_to: model` asks the model again (unanswered calls on the last assistant turn are closed);
 *   `jump_to: tools` is accepted after the model and means "run the calls as usual";
 *   `jump_to: end` ends the run with the last narrative.
 * - `update_state` queues raw JSON on `AgentRun.stateUpdates` (no event).
 * - `stop_with_final` ends the run with `text` as the answer.
 * - `interrupt` ends the run with outcome `interrupted` and `AgentRun.interrupt`.
 */
export type MiddlewareControl =
  | { readonly type: 'continue' }
  | {
      readonly type: 'jump_to';
      readonly target: 'model' | 'tools' | 'end';
      /** With `model`: messages appended to the transcript before the model is asked again (a retry prompt is a user turn). */
      readonly messages?: readonly Message[] | undefined;
    }
  | { readonly type: 'update_state'; readonly update: JsonValue }
  | { readonly type: 'stop_with_final'; readonly text: string }
  | { readonly type: 'interrupt'; readonly node: string; readonly message: string };

/** What hooks can see about the run. `state` is the host's state from the run context. */
export interface MiddlewareContext {
  readonly runId: string;
  readonly turn: number;
  readonly run: RunContext;
  /**
   * The transcript when the hook was called: a frozen array of deep-frozen messages (an edit throws
   * in strict mode and changes nothing otherwise); hooks change the transcript only through their results.
   */
  readonly messages: readonly Message[];
  /** Whether a human approved this call id (set on resume). */
  isCallApproved(callId: string): boolean;
  /**
   * Emits an event on the run's stream: a `custom` payload, `tool_denied`, `output_retry` or
   * `output_fallback` (see `MIDDLEWARE_EVENT_TYPES`). The run records a frozen copy taken now.
   * @throws {InvalidInputError} for any other kind (the harness's own events cannot be forged).
   */
  emit(event: MiddlewareEvent): void;
  /** The registered tool of that name (any exposure), for policy decisions. */
  lookupTool(name: string): RegisteredTool | undefined;
}

/** Input of `beforeModel`: what the next request will carry, before the dialect shapes it. */
export interface BeforeModelInput {
  /** This turn's offered tool schemas (after `filterTools`). */
  readonly tools: readonly ToolSchema[];
  readonly toolChoice: ToolChoice | undefined;
  readonly responseFormat: LanguageModelV1ResponseFormat | undefined;
}

/**
 * A change to the next request. `tools` replaces the tool list the model sees (text dialects put
 * it in their catalogue); calls to tools that are not registered still reach `beforeTool`, which
 * must answer them (`{ respond }`) or they are treated as unknown. `systemMessages` are placed
 * before the transcript for this request only.
 */
export interface ModelRequestPatch {
  readonly tools?: readonly ToolSchema[] | undefined;
  readonly toolChoice?: ToolChoice | undefined;
  readonly responseFormat?: LanguageModelV1ResponseFormat | undefined;
  readonly systemMessages?: readonly string[] | undefined;
}

/** Input of `afterModel`: the response and the calls read from it (with their settled ids). */
export interface AfterModelInput {
  readonly response: LanguageModelV1Response;
  /**
   * The calls, as a deep-frozen copy: admission decides from its own copy taken before the hooks,
   * so a hook drops or answers calls through a control, never renames, edits or un-refuses one.
   */
  readonly calls: readonly PendingCall[];
  /** The narrative text of the response. */
  readonly text: string;
}

/**
 * What `beforeTool` may return: nothing (keep the call), a changed call, or an answer that is sent
 * to the model instead of running the tool (a denial, a cached result). Throwing
 * `ApprovalRequiredError` / `CallDeferredError` defers the call; throwing anything else fails the
 * run with `MiddlewareError` (and releases the call's budget slot).
 */
export type BeforeToolResult = PendingCall | { readonly respond: ToolResult } | undefined;

/** Calls the rest of the onion (inner middleware, then the tool itself). */
export type NextTool = (call: PendingCall) => Promise<ToolResult>;

/** Calls the rest of the model onion (inner middleware, then the model, retries included). */
export type NextModel = (request: LanguageModelV1Request) => Promise<LanguageModelV1Response>;

/**
 * A hook set that shapes every turn. All members are optional; `name` appears in events and in
 * `MiddlewareError`. Before hooks run in registration order, after hooks in reverse; in the
 * wrap-tool onion the first registered middleware is outermost.
 */
export interface AgentMiddleware {
  readonly name: string;
  /** Chooses which offered tools the model sees this turn (exposure). Return the tools to keep, of those given. */
  filterTools?(
    tools: readonly RegisteredTool[],
    context: MiddlewareContext,
  ): readonly RegisteredTool[] | Promise<readonly RegisteredTool[]>;
  /** May change the next request (a response format, an extra tool, a system message) or return a control. */
  beforeModel?(
    input: BeforeModelInput,
    context: MiddlewareContext,
  ): ModelRequestPatch | MiddlewareControl | undefined | Promise<ModelRequestPatch | MiddlewareControl | undefined>;
  /** Sees the response before calls are admitted; may return a control. */
  afterModel?(
    input: AfterModelInput,
    context: MiddlewareContext,
  ): MiddlewareControl | undefined | Promise<MiddlewareControl | undefined>;
  /** Runs before each call is admitted (after the budget check). */
  beforeTool?(call: PendingCall, context: MiddlewareContext): BeforeToolResult | Promise<BeforeToolResult>;
  /**
   * Wraps each model call (first registered outermost); may call `next` zero, one or many times,
   * or answer from elsewhere (a cache, a durable journal). The response must be plain JSON data; a
   * stored response must keep each call's `refused` and `invalid` as given, or a refused call would
   * come back runnable.
   */
  wrapModel?(
    request: LanguageModelV1Request,
    next: NextModel,
    context: MiddlewareContext,
  ): Promise<LanguageModelV1Response>;
  /** Wraps execution of an admitted call; may call `next` zero, one or many times. */
  wrapTool?(call: PendingCall, next: NextTool, context: MiddlewareContext): Promise<ToolResult>;
  /** Sees (and may replace) each result before it is folded, recoveries included. */
  afterTool?(
    call: PendingCall & { readonly toolName: string },
    result: ToolResult,
    context: MiddlewareContext,
  ): ToolResult | undefined | Promise<ToolResult | undefined>;
  /** Runs once after a batch is folded; may return a control (for example `jump_to: end`). */
  afterTools?(context: MiddlewareContext): MiddlewareControl | undefined | Promise<MiddlewareControl | undefined>;
}
