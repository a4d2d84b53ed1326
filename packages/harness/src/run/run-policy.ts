/** What to do when the model calls a tool that is not offered this turn. */
export type UnknownToolPolicy =
  /** Answer with a tool error naming the tool, echoing its arguments and listing callable tools (default). */
  | { readonly kind: 'return_tool_error' }
  /** Retarget the call to `toolName` once; if that is not offered either, answer with a tool error. */
  | { readonly kind: 'rewrite'; readonly toolName: string }
  /** Abort the run with `ToolNotFoundError`. */
  | { readonly kind: 'fail' };

/** What to do with well-formed arguments that fail the tool's declared schema. */
export type InvalidArgsPolicy =
  /** Answer with the validation detail and the expected schema (default). */
  | 'return_tool_error'
  /** First repair common transport shapes (JSON in a string, one envelope level, scalar types), then answer with any remaining error. */
  | 'normalize_then_return_tool_error'
  /** Abort the run with `ToolInputError`. */
  | 'fail';

/** What to do when a tool throws something other than `ModelRetry`, `ToolFailedError` or a deferral. */
export type ToolErrorPolicy =
  /** Abort the run (default): a throw means the tool could not run. */
  | { readonly kind: 'fail' }
  /** Answer the model with the error's message. */
  | { readonly kind: 'return_error' }
  /** Answer the model with a fixed text, hiding the error. */
  | { readonly kind: 'message'; readonly message: string };

/**
 * The run's dialect (how tools reach the model): `auto` picks `native` when the model profile has
 * tool calling, else `tagged_json`. `xml` is the deprecated name of `tagged_json`.
 */
export type ToolDialectChoice = 'auto' | 'native' | 'tagged_json' | 'xml' | 'pformat' | 'python' | 'typescript';

/**
 * How a run treats model mistakes and tool failures. Every field has a default; see
 * {@link resolveRunPolicy}. Values are checked when the harness is built and when a run starts: an
 * unknown choice (`toolDialect: 'klingon'`) or a bad number is an `InvalidInputError` naming it.
 */
export interface RunPolicy {
  readonly unknownTool: UnknownToolPolicy;
  readonly invalidArgs: InvalidArgsPolicy;
  readonly toolErrors: ToolErrorPolicy;
  readonly toolDialect: ToolDialectChoice;
  /**
   * Most calls of one batch that run at once. Calls run concurrently only when the batch has two or
   * more of them and every one reports `isConcurrencySafe(args)`; otherwise serially. Default 4.
   */
  readonly maxConcurrency: number;
  /** Replies to `finish_reason: tool_calls` with no recoverable call, in a row, before giving up. Integer ≥ 0. Default 3. */
  readonly droppedToolCallNudges: number;
  /** Prefer a tool's markdown rendering when it has one. Default true. */
  readonly preferMarkdown: boolean;
  /** Capture tool inputs/outputs in events. Default false (sizes and metadata are always there). */
  readonly captureToolIo: boolean;
  /**
   * Calls read from a broken model turn (finish reason `length` or `content_filter`, or an `error`
   * part): `refuse` (default) answers each with a tool error saying why, emits `tool_call_refused`
   * and spends its budget slot; `execute` admits them like any other call.
   */
  readonly brokenTurnCalls: BrokenTurnCallsPolicy;
  /**
   * A response that ignores the run's forced tool choice (`toolChoice: required` or a named tool
   * answered without that call, or with calls to other tools; `none` answered with calls):
   * `retry_then_error` (default) records the turn without its calls, asks once more with the choice
   * spelled out (a model call, counted in `limits.maxModelCalls`), and ends the run with
   * `ToolChoiceIgnoredError` when that reply ignores it too; `error` ends it at once; `accept` takes
   * the response as it is. Every case emits `tool_choice_ignored`. Calls made under `none` never
   * run, whatever the policy. The run's own `toolChoice` is checked, also when a `beforeModel`
   * middleware returns it unchanged (the same value, or no `toolChoice`); a patch that really
   * changes it hands the check to that middleware, except that `none` (the run's or a patch's)
   * always holds: no call of that turn runs.
   */
  readonly toolChoiceIgnored: ToolChoiceIgnoredPolicy;
}

/** What to do when a response ignores the run's forced tool choice (see `RunPolicy.toolChoiceIgnored`). */
export type ToolChoiceIgnoredPolicy = 'retry_then_error' | 'error' | 'accept';

/** What to do with tool calls from a truncated, filtered or errored model turn. */
export type BrokenTurnCallsPolicy = 'refuse' | 'execute';

/** The defaults: tool errors answered, tool throws fail the run, dialect `auto`, concurrency 4, 3 nudges, an ignored forced choice retried once then an error. */
export const DEFAULT_RUN_POLICY: RunPolicy = {
  unknownTool: { kind: 'return_tool_error' },
  invalidArgs: 'return_tool_error',
  toolErrors: { kind: 'fail' },
  toolDialect: 'auto',
  maxConcurrency: 4,
  droppedToolCallNudges: 3,
  preferMarkdown: true,
  captureToolIo: false,
  brokenTurnCalls: 'refuse',
  toolChoiceIgnored: 'retry_then_error',
};

/** Fills a partial policy with {@link DEFAULT_RUN_POLICY}; a key set to `undefined` keeps its default. */
export function resolveRunPolicy(policy: Partial<RunPolicy> = {}): RunPolicy {
  const set = Object.fromEntries(Object.entries(policy).filter(([, value]) => value !== undefined));
  return { ...DEFAULT_RUN_POLICY, ...set };
}
