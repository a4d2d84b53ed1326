import type { Message } from '@tiny/llm';
import { ApprovalRequiredError, CallDeferredError, ToolResult } from '@tiny/tools';
import type { LoopState } from '../agent/loop-state.js';
import { historyView } from '../agent/sealed-history.js';
import { MiddlewareError } from '../errors/middleware-error.js';
import type { RegisteredTool } from '../registry/tool-registry.js';
import { isRunStop } from '../run/run-stop.js';
import { recordWithheld } from '../toolsets/withheld-tools.js';
import type {
  AgentMiddleware,
  BeforeModelInput,
  BeforeToolResult,
  MiddlewareContext,
  MiddlewareControl,
  ModelRequestPatch,
  NextTool,
  PendingCall,
} from './agent-middleware.js';
import { checkedControl } from './checked-control.js';
import { middlewareEvent } from './middleware-event.js';

/** Runs one hook; anything it throws (other than deferrals and cancellation) becomes a `MiddlewareError`. */
async function guarded<T>(middleware: AgentMiddleware, hook: string, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (
      MiddlewareError.isInstance(error) ||
      isRunStop(error) ||
      ApprovalRequiredError.isInstance(error) ||
      CallDeferredError.isInstance(error)
    ) {
      throw error;
    }
    throw new MiddlewareError({ middleware: middleware.name, hook, cause: error });
  }
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

/** A `MiddlewareError` for a hook that returned a value its type does not allow; the hook, not the tool, is blamed. */
function wrongReturn(middleware: AgentMiddleware, hook: string, reason: string): MiddlewareError {
  return new MiddlewareError({ middleware: middleware.name, hook, cause: new TypeError(reason) });
}

/** `value` when it is a `ToolResult` (made with its builders), else a {@link wrongReturn}. */
function checkedResult(value: unknown, middleware: AgentMiddleware, hook: string, field: string): ToolResult {
  if (ToolResult.isInstance(value)) return value;
  throw wrongReturn(middleware, hook, `${field} must be a ToolResult, got ${kindOf(value)}`);
}

/** The harness's own copy of a call `beforeTool` returned, each field read once and checked. */
function checkedCall(value: Record<string, unknown>, middleware: AgentMiddleware): PendingCall {
  const { id, name, arguments: args, invalid, refused } = value;
  const fail = (field: string, type: string, got: unknown): never => {
    throw wrongReturn(middleware, 'beforeTool', `the call's \`${field}\` must be ${type}, got ${kindOf(got)}`);
  };
  if (typeof id !== 'string') fail('id', 'a string', id);
  if (typeof name !== 'string') fail('name', 'a string', name);
  if (invalid !== undefined && typeof invalid !== 'string') fail('invalid', 'a string when set', invalid);
  if (refused !== undefined && refused !== true) fail('refused', 'true when set', refused);
  return {
    id: id as string,
    name: name as string,
    arguments: args,
    ...(invalid !== undefined && { invalid: invalid as string }),
    ...(refused !== undefined && { refused: true as const }),
  };
}

const isControl = (value: unknown): value is MiddlewareControl =>
  typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';

/** A control and the middleware that asked for it. @internal */
export interface AppliedControl {
  readonly control: MiddlewareControl;
  readonly by: string;
}

/** The hook context for the current turn. @internal */
export function middlewareContext(state: LoopState, turn: number): MiddlewareContext {
  const context: MiddlewareContext = {
    runId: state.runId,
    turn,
    run: state.context,
    // Without middleware no hook reads the transcript: the history itself, as a plain field (an
    // accessor defined on each context, several per call, cost a fresh harness a third of its CPU).
    messages: state.history,
    isCallApproved: (callId) => state.approvedCalls.has(callId),
    emit: (event) => {
      // Checked and copied whether or not the run still records events: a forged kind always throws.
      const recorded = middlewareEvent(event);
      if (state.sink.active) state.sink.emit(recorded);
    },
    // What the harness offers under `name` (toolsets included), so name-based policy sees toolset tools.
    lookupTool: (name) => state.offered.get(name) ?? state.deferredTools.get(name) ?? state.registry.get(name),
  };
  if (state.middleware.length === 0) return context;
  // The transcript as it is now, a frozen array of sealed messages, made when a hook first reads it
  // (the history only grows, so it is the same then) and shared by the hooks of a turn, not copied
  // per turn for hooks that never read it.
  const length = state.history.length;
  let view: readonly Message[] | undefined;
  return Object.defineProperty(context, 'messages', {
    enumerable: true,
    get: () => (view ??= historyView(state.history, length)),
  });
}

/** `filterTools` of every middleware, in order; each withholding emits `tools_filtered`. @internal */
export async function filterOfferedTools(
  state: LoopState,
  tools: readonly RegisteredTool[],
  context: MiddlewareContext,
): Promise<readonly RegisteredTool[]> {
  let current = tools;
  for (const middleware of state.middleware) {
    if (!middleware.filterTools) continue;
    const before = current;
    const returned: unknown = await guarded(
      middleware,
      'filterTools',
      () => middleware.filterTools?.(before, context) ?? before,
    );
    // The tools to keep are tools it was given: anything else would be offered unvetted.
    if (!Array.isArray(returned))
      throw wrongReturn(middleware, 'filterTools', `it must return an array, got ${kindOf(returned)}`);
    const given = new Set<unknown>(before);
    const kept = [...returned] as RegisteredTool[];
    for (const tool of kept)
      if (!given.has(tool))
        throw wrongReturn(middleware, 'filterTools', `it must return tools it was given, got ${kindOf(tool)}`);
    if (kept.length !== before.length) {
      const names = new Set(kept.map((tool) => tool.name));
      // A withheld tool is refused to nested and code-mode calls of the run as well.
      for (const tool of before) if (!names.has(tool.name)) recordWithheld(state.context, tool.tool);
    }
    if (kept.length !== before.length && state.sink.active) {
      const names = new Set(kept.map((tool) => tool.name));
      state.sink.emit({
        type: 'tools_filtered',
        by: middleware.name,
        excluded: before.filter((tool) => !names.has(tool.name)).map((tool) => tool.name),
        remaining: kept.length,
      });
    }
    current = kept;
  }
  return current;
}

/**
 * `beforeModel` of every middleware, in registration order: patches merge (later fields win); the
 * first control stops the phase. @internal
 */
export async function runBeforeModel(
  state: LoopState,
  input: BeforeModelInput,
  context: MiddlewareContext,
): Promise<{ patch: ModelRequestPatch; control?: AppliedControl }> {
  let patch: ModelRequestPatch = {};
  for (const middleware of state.middleware) {
    if (!middleware.beforeModel) continue;
    const current: BeforeModelInput = {
      tools: patch.tools ?? input.tools,
      toolChoice: patch.toolChoice ?? input.toolChoice,
      responseFormat: patch.responseFormat ?? input.responseFormat,
    };
    const result = await guarded(middleware, 'beforeModel', () => middleware.beforeModel?.(current, context));
    if (result === undefined) continue;
    if (isControl(result)) {
      const control = checkedControl(result, middleware.name, 'beforeModel');
      if (control.type === 'continue') continue;
      return { patch, control: { control, by: middleware.name } };
    }
    patch = {
      ...patch,
      ...result,
      systemMessages: [...(patch.systemMessages ?? []), ...(result.systemMessages ?? [])],
    };
  }
  return { patch };
}

/** Runs a control-returning hook of every middleware in reverse order; the first control wins. @internal */
export async function runAfterHooks(
  state: LoopState,
  hook: 'afterModel' | 'afterTools',
  call: (middleware: AgentMiddleware) => MiddlewareControl | undefined | Promise<MiddlewareControl | undefined>,
): Promise<AppliedControl | undefined> {
  for (let index = state.middleware.length - 1; index >= 0; index -= 1) {
    const middleware = state.middleware[index] as AgentMiddleware;
    if (!middleware[hook]) continue;
    const returned = await guarded(middleware, hook, () => call(middleware));
    if (returned === undefined) continue;
    const control = checkedControl(returned, middleware.name, hook);
    if (control.type !== 'continue') return { control, by: middleware.name };
  }
  return undefined;
}

/**
 * `beforeTool` of every middleware, in order. Returns the (possibly changed) call or an answer.
 * `checkAlive` runs before each hook and throws when the call may no longer go on (a nested call whose
 * caller or run ended while an earlier hook awaited): no later hook runs for it. @internal
 */
export async function runBeforeTool(
  state: LoopState,
  call: PendingCall,
  context: MiddlewareContext,
  checkAlive?: () => void,
): Promise<PendingCall | { respond: ToolResult; by: string }> {
  let current = call;
  for (const middleware of state.middleware) {
    if (!middleware.beforeTool) continue;
    checkAlive?.();
    const pending = current;
    const result: BeforeToolResult = await guarded(middleware, 'beforeTool', () =>
      middleware.beforeTool?.(pending, context),
    );
    if (result === undefined) continue;
    if (typeof result !== 'object' || result === null || Array.isArray(result))
      throw wrongReturn(middleware, 'beforeTool', `it must return a call, a respond or nothing, got ${kindOf(result)}`);
    if ('respond' in result)
      return { respond: checkedResult(result.respond, middleware, 'beforeTool', '`respond`'), by: middleware.name };
    current = checkedCall(result as unknown as Record<string, unknown>, middleware);
  }
  return current;
}

/** `afterTool` of every middleware, in reverse order. @internal */
export async function runAfterTool(
  state: LoopState,
  call: PendingCall & { readonly toolName: string },
  result: ToolResult,
  context: MiddlewareContext,
): Promise<ToolResult> {
  let current = result;
  for (let index = state.middleware.length - 1; index >= 0; index -= 1) {
    const middleware = state.middleware[index] as AgentMiddleware;
    if (!middleware.afterTool) continue;
    const seen = current;
    const returned = await guarded(middleware, 'afterTool', () => middleware.afterTool?.(call, seen, context));
    current = returned === undefined ? seen : checkedResult(returned, middleware, 'afterTool', 'its return');
  }
  return current;
}

const toolErrors = new WeakSet<object>();

/** Marks an error as thrown by the tool itself, so a wrap layer that rethrows it is not blamed. @internal */
export function markToolError(error: unknown): void {
  if (typeof error === 'object' && error !== null) toolErrors.add(error);
}

/** Whether `error` came from a tool (through `next`) rather than from a wrap layer. @internal */
export function isToolError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && toolErrors.has(error);
}

/**
 * Builds the wrap-tool onion around `innermost`: the first registered middleware is outermost.
 * A layer that throws something other than what `next` threw fails the run (`MiddlewareError`).
 * `checkAlive` runs before each layer is entered and throws (an error it marks with
 * {@link markToolError}) when the call may no longer run: a layer that awaited past the call's end
 * never enters the layers inside it. @internal
 */
export function wrapToolOnion(
  state: LoopState,
  innermost: NextTool,
  context: MiddlewareContext,
  checkAlive?: () => void,
): NextTool {
  let next = innermost;
  for (let index = state.middleware.length - 1; index >= 0; index -= 1) {
    const middleware = state.middleware[index] as AgentMiddleware;
    const wrap = middleware.wrapTool;
    if (!wrap) continue;
    const inner = next;
    next = async (call) => {
      try {
        checkAlive?.();
        const result = await wrap.call(middleware, call, inner, context);
        return checkedResult(result, middleware, 'wrapTool', 'its return');
      } catch (error) {
        if (isToolError(error) || isRunStop(error) || MiddlewareError.isInstance(error)) throw error;
        throw new MiddlewareError({ middleware: middleware.name, hook: 'wrapTool', cause: error });
      }
    };
  }
  return next;
}
