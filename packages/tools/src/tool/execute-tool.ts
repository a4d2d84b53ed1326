import { ModelRetry } from '../errors/model-retry.js';
import { ToolFailedError } from '../errors/tool-failed-error.js';
import { ToolInputError } from '../errors/tool-input-error.js';
import { ToolTimeoutError } from '../errors/tool-timeout-error.js';
import { ToolResult } from '../result/tool-result.js';
import { createToolTimeoutSettings, resolveToolTimeout, type ToolTimeoutSettings } from '../timeout/tool-timeout.js';
import { completeTool } from './complete-tool.js';
import { prepareToolArguments } from './injected-arguments.js';
import { type AnyTool, toToolResult } from './tool.js';
import { createToolExecutionContext, type ToolExecutionContext } from './tool-execution-context.js';
import { validateToolArguments } from './validate-tool-arguments.js';

/** Options for {@link executeTool}. */
export interface ExecuteToolOptions {
  /** Values for the tool's `host` injected arguments. Never shown to the model. */
  readonly hostValues?: Readonly<Record<string, unknown>>;
  /** Context fields (call id, signal, ...); the rest take the defaults of `createToolExecutionContext`. */
  readonly context?: Partial<Omit<ToolExecutionContext, 'emit' | 'reportProgress'>>;
  /** Host timeout settings; default `createToolTimeoutSettings()` (120 s inherited budget). */
  readonly timeouts?: ToolTimeoutSettings;
}

/**
 * Runs one tool call outside the agent loop, with the loop's argument rules: injected arguments
 * are stripped from the model's arguments and set from `hostValues`, the result is validated against
 * the declared schema (ajv, then the schema library's own `validate` for Standard Schema tools),
 * then `execute` runs under the resolved timeout and its output is checked against `outputSchema`.
 * A thrown `ModelRetry` becomes `ToolResult.retry`, a `ToolFailedError` becomes `ToolResult.failed`.
 *
 * @throws {InjectedArgumentError} when injected arguments cannot be prepared.
 * @throws {ToolInputError} when the arguments do not match the declared schema.
 * @throws {ToolTimeoutError} when the tool runs past its deadline (its signal is aborted).
 * @throws {ToolOutputError} when the tool's output does not match its `outputSchema`.
 */
export async function executeTool(tool: AnyTool, args: unknown, options: ExecuteToolOptions = {}): Promise<ToolResult> {
  const complete = completeTool(tool);
  const base = createToolExecutionContext(options.context);
  const prepared = prepareToolArguments(
    { id: base.callId, arguments: args },
    complete.injected,
    options.hostValues ?? {},
    tool.name,
  );
  const settings = options.timeouts ?? createToolTimeoutSettings();
  let budgetMs = 0;
  const checked = await validateToolArguments(tool, prepared, {
    timeoutMs: () => {
      const validation = resolveToolTimeout(complete.timeoutPolicy(prepared as never), settings);
      budgetMs = validation.budgetMs ?? 0;
      return validation.deadlineMs;
    },
    signal: base.signal,
    onTimeout: () => new ToolTimeoutError({ toolName: tool.name, timeoutMs: budgetMs }),
  });
  if (!checked.ok) throw new ToolInputError({ toolName: tool.name, issues: checked.issues });

  const timeout = resolveToolTimeout(complete.timeoutPolicy(checked.value as never), settings);
  const controller = new AbortController();
  const onAbort = () => controller.abort(base.signal.reason);
  base.signal.addEventListener('abort', onAbort, { once: true });
  const context: ToolExecutionContext = { ...base, signal: controller.signal };
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const run = Promise.resolve(complete.execute(checked.value as never, context));
    if (timeout.deadlineMs === undefined) return toToolResult(await run);
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new ToolTimeoutError({
          toolName: tool.name,
          timeoutMs: timeout.budgetMs ?? timeout.deadlineMs ?? 0,
        });
        controller.abort(error);
        reject(error);
      }, timeout.deadlineMs);
    });
    return toToolResult(await Promise.race([run, deadline]));
  } catch (error) {
    if (ModelRetry.isInstance(error)) return ToolResult.retry(error.advice);
    if (ToolFailedError.isInstance(error)) return ToolResult.failed(error.reason);
    throw error;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    base.signal.removeEventListener('abort', onAbort);
  }
}
