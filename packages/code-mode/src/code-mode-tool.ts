import { LimitExceededError, MiddlewareError, RunCancelledError, type ToolSet } from '@tiny/harness';
import {
  type AnyTool,
  checkToolName,
  completeTool,
  describeToolNameProblem,
  InvalidInputError,
  type JsonValue,
  type Tool,
  type ToolExecutionContext,
  ToolResult,
} from '@tiny/tools';
import { type CodeModeEntry, globalNameOf, renderDeclarations } from './declaration.js';
import { CodeModeLimitError } from './errors/code-mode-limit-error.js';
import { CodeProgramError } from './errors/code-program-error.js';
import { CodeSandboxError } from './errors/code-sandbox-error.js';
import { type CodeModeLimits, resolveCodeModeLimits } from './limits.js';
import { runSandboxed } from './sandbox/run-sandboxed.js';

/** Options for {@link codeModeTool}. Give `tools` or `toolSet` (or both). */
export interface CodeModeToolOptions {
  /** The tools programs may call. They are not offered to the model unless the host registers them too. */
  readonly tools?: readonly AnyTool[] | undefined;
  /** A toolset whose current listing is read once, synchronously, when the tool is made. */
  readonly toolSet?: ToolSet | undefined;
  /** The tool's name. Default `run_code`. */
  readonly name?: string | undefined;
  /** Sandbox limits; see {@link CodeModeLimits} for the defaults. */
  readonly limits?: Partial<CodeModeLimits> | undefined;
}

/** The argument of a code-mode tool. */
export interface CodeModeArguments {
  readonly code: string;
}

const isFatal = (error: unknown) =>
  RunCancelledError.isInstance(error) || LimitExceededError.isInstance(error) || MiddlewareError.isInstance(error);

/** A tool result as a JSON value for the program: a single JSON block is its data, anything else its text. */
function programValue(result: ToolResult): JsonValue {
  const [first] = result.content;
  if (result.content.length === 1 && first?.type === 'json') return first.data;
  return result.output();
}

function listToolSetNow(toolSet: ToolSet): readonly AnyTool[] {
  const listed = toolSet.tools({ runId: 'code-mode', turn: 0 });
  if (listed instanceof Promise) {
    listed.catch(() => undefined);
    throw new InvalidInputError({
      entryPoint: 'codeModeTool',
      reason: `toolset \`${toolSet.label}\` lists its tools asynchronously; await \`listToolSet(toolSet, context)\` and pass its \`tools\``,
    });
  }
  const tools: unknown = Array.isArray(listed) ? listed : (listed as { tools?: unknown } | null)?.tools;
  if (!Array.isArray(tools)) {
    throw new InvalidInputError({
      entryPoint: 'codeModeTool',
      reason: `toolset \`${toolSet.label}\` listed no array of tools`,
    });
  }
  return tools as readonly AnyTool[];
}

function entriesOf(tools: readonly AnyTool[]): CodeModeEntry[] {
  const entries: CodeModeEntry[] = [];
  const names = new Set<string>();
  const globals = new Set<string>();
  for (const tool of tools) {
    if (typeof tool !== 'object' || tool === null || typeof tool.execute !== 'function') {
      throw new InvalidInputError({
        entryPoint: 'codeModeTool',
        reason: 'every tool needs `name`, `parameters` and `execute`',
      });
    }
    const problem = checkToolName(tool.name);
    if (problem)
      throw new InvalidInputError({
        entryPoint: 'codeModeTool',
        reason: `\`${tool.name}\`: ${describeToolNameProblem(problem)}`,
      });
    const global = globalNameOf(tool.name);
    if (names.has(tool.name) || globals.has(global)) {
      throw new InvalidInputError({
        entryPoint: 'codeModeTool',
        reason: `two tools are called \`${global}\` in programs`,
      });
    }
    names.add(tool.name);
    globals.add(global);
    const complete = completeTool(tool);
    const unavailable = complete.policy.access.approvalRequired ? 'requires approval' : undefined;
    entries.push({ name: tool.name, global, tool: complete, unavailable });
  }
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

const PROGRAM_HELP =
  'The body of an async JavaScript function (TypeScript type annotations are allowed and stripped). ' +
  'Call the declared functions with `await`, combine their results, and `return` a JSON value.';

/**
 * A tool (default name `run_code`) whose argument is a program that calls other tools as async
 * functions, run in a QuickJS WebAssembly sandbox. Its description is the TypeScript declaration
 * of the callable tools. Each call the program makes is a nested call of the `run_code` call
 * (`<call id>/<n>`) that the harness admits like a model's (allow-list, `beforeTool` hooks,
 * validation, injected host values, approval, ledger, events); a refused or failed call rejects
 * in the program with the tool-error text. Tools that require approval are listed as unavailable
 * and refused; a call that would defer (an external tool) is refused by the harness.
 *
 * The given tools ride on the returned tool's `nestedTools`, so registering only the code-mode
 * tool is enough and they are not offered to the model. A given tool the harness also knows is
 * reached through the harness (by provenance, whatever name a toolset gives it): the program meets
 * that entry's gates (an approval toolset or middleware on `bank_pay` holds for the program's
 * `pay`), and a tool the run withholds (a filtered toolset, a denying selection) is unknown to it. The result is `{ result, console }` as
 * JSON, cut at `limits.maxOutputChars`; limits and program failures are tool errors whose text
 * says which (`CodeModeLimitError` / `CodeProgramError` messages). Run-ending errors from a nested
 * call (cancellation, run budgets, middleware faults) stop the program and propagate.
 *
 * Outside a harness (no `context.callTool`) every run is refused: nothing runs unadmitted.
 * @throws {InvalidInputError} for bad options (no tools, bad names, bad limits, an async toolset).
 */
export function codeModeTool(options: CodeModeToolOptions): Tool<CodeModeArguments> {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidInputError({ entryPoint: 'codeModeTool', reason: 'expected options with `tools` or `toolSet`' });
  }
  const limits = resolveCodeModeLimits(options.limits);
  const name = options.name ?? 'run_code';
  const problem = checkToolName(name);
  if (problem)
    throw new InvalidInputError({
      entryPoint: 'codeModeTool',
      reason: `\`${name}\`: ${describeToolNameProblem(problem)}`,
    });
  if (options.tools !== undefined && !Array.isArray(options.tools)) {
    throw new InvalidInputError({ entryPoint: 'codeModeTool', reason: '`tools` must be an array of tools' });
  }
  if (options.toolSet !== undefined && typeof (options.toolSet as { tools?: unknown })?.tools !== 'function') {
    throw new InvalidInputError({ entryPoint: 'codeModeTool', reason: '`toolSet` must be a toolset (with `tools()`)' });
  }
  const given = [...(options.tools ?? []), ...(options.toolSet === undefined ? [] : listToolSetNow(options.toolSet))];
  if (given.length === 0) throw new InvalidInputError({ entryPoint: 'codeModeTool', reason: 'no tools to call' });
  const entries = entriesOf(given);
  if (entries.some((entry) => entry.name === name)) {
    throw new InvalidInputError({ entryPoint: 'codeModeTool', reason: `a callable tool is itself called \`${name}\`` });
  }
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  const callable = entries.filter((entry) => entry.unavailable === undefined).map((entry) => entry.name);
  const description = [
    `Runs a program in a sandbox (no network, files, timers or imports). ${PROGRAM_HELP} ` +
      `Only the returned value and console output come back. A failed tool call rejects with its error text. ` +
      `Limits: ${limits.cpuTimeMs} ms CPU, ${Math.round(limits.memoryBytes / 1048576)} MiB memory, ${limits.maxNestedCalls} tool calls.`,
    '',
    '```ts',
    renderDeclarations(entries),
    '```',
  ].join('\n');

  const execute = async (args: CodeModeArguments, context: ToolExecutionContext): Promise<ToolResult> => {
    const callTool = context.callTool;
    if (callTool === undefined) {
      return ToolResult.error(`\`${name}\` runs only inside a harness, which admits every call the program makes`);
    }
    const code = args.code;
    if (code.length > limits.maxProgramChars) {
      return ToolResult.error(
        new CodeModeLimitError({ limitKind: 'program_size', limit: limits.maxProgramChars }).message,
      );
    }
    let fatal: unknown;
    // Aborted when the program ends (finish, limit, error, timeout): its nested calls are aborted with it.
    const programEnd = new AbortController();
    const nestedOptions = { signal: programEnd.signal };
    const callNested = callTool as (name: string, args: unknown, options: typeof nestedOptions) => Promise<ToolResult>;
    try {
      // Types are stripped inside the sandbox, under the program's limits (a parser can be driven
      // into long backtracking by hostile text; the host's event loop never runs it).
      const outcome = await runSandboxed(
        code,
        {
          names: callable,
          refuses: (toolName) => {
            const entry = byName.get(toolName);
            if (entry === undefined) {
              const shown =
                toolName.length > 64 ? `${toolName.slice(0, 64)}… (${toolName.length} characters)` : toolName;
              return `unknown tool \`${shown}\`; callable: [${callable.join(', ')}]`;
            }
            if (entry.unavailable !== undefined) {
              return `tool \`${toolName}\` is not callable from code: it ${entry.unavailable}`;
            }
            return undefined;
          },
          ended: () => programEnd.abort(new DOMException('the program ended', 'AbortError')),
          call: async (toolName, toolArgs) => {
            let result: ToolResult;
            try {
              result = await callNested(toolName, toolArgs, nestedOptions);
            } catch (error) {
              if (isFatal(error)) fatal ??= error;
              throw error;
            }
            if (result.isError) throw new Error(result.output());
            return programValue(result);
          },
          stops: isFatal,
        },
        limits,
        { signal: context.signal, typescript: true },
      );
      return render(outcome.json, outcome.logs, outcome.droppedLogChars, limits.maxOutputChars).withMetadata({
        nestedCalls: outcome.nestedCalls,
        cpuTimeMs: outcome.cpuTimeMs,
      });
    } catch (error) {
      if (fatal !== undefined) throw fatal;
      if (CodeModeLimitError.isInstance(error)) {
        return ToolResult.error(withLogs(error.message, error.logs)).withMetadata({ limit: error.limitKind });
      }
      if (CodeSandboxError.isInstance(error)) {
        return ToolResult.error(withLogs(error.message, error.logs)).withMetadata({ failure: 'sandbox' });
      }
      if (CodeProgramError.isInstance(error)) {
        return ToolResult.error(withLogs(error.message, error.logs)).withMetadata({ failure: error.failure });
      }
      throw error;
    }
  };

  return {
    name,
    description,
    parameters: {
      type: 'object',
      properties: { code: { type: 'string', description: PROGRAM_HELP } },
      required: ['code'],
      additionalProperties: false,
    },
    nestedTools: given,
    maxResultSizeChars: limits.maxOutputChars + 200,
    execute,
  };
}

function withLogs(message: string, logs: readonly string[]): string {
  return logs.length === 0 ? message : `${message}\nconsole:\n${logs.join('\n')}`;
}

/** `{ result, console }` as compact JSON, cut at `max` characters with a note saying so. */
function render(json: string, logs: readonly string[], dropped: number, max: number): ToolResult {
  const consoleText = dropped > 0 ? [...logs, `[${dropped} more console characters dropped]`] : logs;
  const text = `{"result":${json}${consoleText.length > 0 ? `,"console":${JSON.stringify(consoleText)}` : ''}}`;
  if (text.length <= max) return ToolResult.success(text);
  const note = `\n[output cut at ${max} of ${text.length} characters]`;
  return ToolResult.success(text.slice(0, Math.max(0, max - note.length)) + note);
}
