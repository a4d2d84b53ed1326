import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { ToolExposure } from '../policy/tool-exposure.js';
import type { ToolPolicy } from '../policy/tool-policy.js';
import { ToolResult } from '../result/tool-result.js';
import type { ToolTimeout } from '../timeout/tool-timeout.js';
import type { JsonSchema, JsonValue } from '../validation/json-schema.js';
import type { InjectedArgument } from './injected-arguments.js';
import type { ToolExecutionContext } from './tool-execution-context.js';

/** How much a call may change: used by permission checks. */
export type PermissionLevel = 'none' | 'read_only' | 'write' | 'execute' | 'dangerous';

/** Where a tool may be used: by the model and hosts (`all`), only by agents, or only by the host. */
export type ToolScope = 'all' | 'agent' | 'host';

/** A coarse grouping for display and selection. */
export type ToolCategory = 'system' | 'skill' | 'integration';

/** What `execute` may return: a {@link ToolResult}, a string (a text result) or JSON data (a JSON result). */
// biome-ignore lint/suspicious/noConfusingVoidType: `execute` may return nothing (an empty text result).
export type ToolOutput = ToolResult | string | JsonValue | undefined | void;

/**
 * A capability the model can call. Only `name`, `description`, `parameters` and `execute` are
 * required; every other member is optional and {@link completeTool} supplies its default:
 * policy unclassified, exposure `direct`, no injected arguments, not concurrency-safe, no external
 * effect (fails open: effectful tools must say so), `permissionLevel` read-only, scope `all`,
 * category `system`, timeout from the policy, no markdown, no `returnDirect`.
 *
 * `parameters` is the **declared** schema, injected arguments included; the model sees it with
 * the injected names projected out. Throwing from `execute` means "could not run"; returning
 * `ToolResult.error(...)` means "ran and refused".
 */
export interface Tool<TArgs = Record<string, unknown>> {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
  /**
   * JSON Schema of the tool's structured result (draft 2020-12). When set, whatever `execute`
   * returns is validated against it (a JSON result's data, or the returned value itself; `isError`
   * results are not checked); a mismatch throws {@link ToolOutputError}. Catalogues may render it
   * as the tool's return type. `defineTool` fills it from any schema kind.
   */
  readonly outputSchema?: JsonSchema;
  /**
   * The Standard Schema values `parameters` and `outputSchema` were derived from (set by
   * `defineTool`). Their `~standard.validate` runs after ajv has passed the JSON Schema, and its
   * output value (transforms, defaults applied) is what `execute` receives or what the result holds.
   */
  readonly standardSchemas?: {
    readonly parameters?: StandardSchemaV1 | undefined;
    readonly output?: StandardSchemaV1 | undefined;
  };
  readonly injected?: readonly InjectedArgument[];
  readonly policy?: ToolPolicy;
  readonly exposure?: ToolExposure;
  /** A group name (an MCP server, an integration) used by discovery rankers. */
  readonly family?: string;
  readonly tags?: readonly string[];
  readonly category?: ToolCategory;
  readonly scope?: ToolScope;
  /** Whether results carry a markdown rendering worth preferring. */
  readonly supportsMarkdown?: boolean;
  /** Whether this tool's output ends the run by default (a result's explicit `returnDirect` wins). */
  readonly returnDirect?: boolean;
  /** Longest output (in characters) the host should pass to the model. */
  readonly maxResultSizeChars?: number;
  /** Opaque data for the host. */
  readonly hostExtension?: unknown;
  /**
   * Tools only this tool may call, through `context.callTool`, without them being offered to the
   * model (a code-mode tool's callable functions, a dispatcher's targets). A harness looks a nested
   * call's name up here first, then in its registry, and admits it like any other call: allow-list,
   * `beforeTool` hooks and policy, injected arguments, validation, approval, ledger, events.
   */
  readonly nestedTools?: readonly Tool<never>[];
  /** How much this call may do (`none` to `dangerous`), for host permission checks. Default `read_only`. */
  permissionLevel?(args: TArgs): PermissionLevel;
  /** Whether this call may run alongside others in the same batch. Default false; a throw counts as false. */
  isConcurrencySafe?(args: TArgs): boolean;
  /** Whether this call has an effect outside the process. Default false (fails open). */
  externalEffect?(args: TArgs): boolean;
  /** For dispatcher tools: the name of the real target, so rules can check it. */
  indirectTarget?(args: TArgs): string | undefined;
  /** Overrides the timeout derived from `policy.runtime`. */
  timeoutPolicy?(args: TArgs): ToolTimeout;
  /** Opaque per-call data for the host. */
  hostCallExtension?(args: TArgs): unknown;
  /**
   * The key that identifies this call's effect for deduplication (recorded in the tool-effect
   * ledger and handed to the tool as `context.idempotencyKey`). Default: a SHA-256 of the tool name
   * and its canonical arguments.
   */
  idempotencyKey?(args: TArgs): string | undefined;
  /** A short human label for this call in a UI. Default: the policy's `display.label`, else the humanised tool name. */
  displayLabel?(args: TArgs): string;
  /** A one-line detail for this call in a UI. Default: the policy's `display.detail`, else a summary of the arguments. */
  displayDetail?(args: TArgs): string | undefined;
  /**
   * Runs the call with validated arguments (injected host values included). Return the result;
   * throw to say the call could not run (a {@link ModelRetry} asks the model to try again).
   */
  execute(args: TArgs, context: ToolExecutionContext): ToolOutput | Promise<ToolOutput>;
}

/**
 * Any tool, whatever its argument type: what registries and runners accept. (Tool methods are
 * declared as methods, so a `Tool<{ city: string }>` is assignable to it.)
 */
export type AnyTool = Tool<never>;

/**
 * Turns what `execute` returned into a {@link ToolResult}: results pass through, strings become
 * text results, `undefined` an empty text result, and any other JSON value a JSON result.
 */
export function toToolResult(output: ToolOutput): ToolResult {
  if (typeof output === 'string') return ToolResult.success(output);
  if (ToolResult.isInstance(output)) return output;
  if (output === undefined) return ToolResult.success('');
  return ToolResult.json(output);
}
