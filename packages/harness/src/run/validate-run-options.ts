import type { ToolChoice } from '@tiny/llm';
import { checkOptionKeys, InvalidInputError } from '@tiny/tools';
import { MODEL_SETTING_KEYS, RUN_CONTEXT_KEYS, RUN_LIMIT_KEYS, RUN_POLICY_KEYS } from './option-keys.js';
import { MAX_TOOL_DEPTH } from './run-limits.js';

/** How a numeric option is checked. */
interface NumberRule {
  /** Whole numbers only. */
  readonly integer: boolean;
  /** Smallest allowed value. */
  readonly min: number;
  /** `min` itself is excluded (for durations that must be positive). */
  readonly exclusive?: boolean;
  /** `Infinity` is accepted and means "no limit". */
  readonly infinity: boolean;
  /** Largest allowed value, when there is one. */
  readonly max?: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function describe(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : typeof value;
}

function expectation(rule: NumberRule): string {
  const kind = rule.integer ? 'an integer' : 'a number';
  const bound =
    rule.max !== undefined
      ? `from ${rule.min} to ${rule.max}`
      : rule.exclusive
        ? `greater than ${rule.min}`
        : `at least ${rule.min}`;
  return `${kind} ${bound}${rule.infinity ? ' (or Infinity for no limit)' : ''}`;
}

/**
 * Checks one numeric option: a number, not NaN, finite unless `Infinity` is documented as "no
 * limit", a whole number where counts are meant, and within bounds.
 * @throws {InvalidInputError} naming the option, the rule and the value.
 * @internal
 */
export function checkNumberOption(entryPoint: string, name: string, value: unknown, rule: NumberRule): void {
  const ok =
    typeof value === 'number' &&
    !Number.isNaN(value) &&
    (value === Number.POSITIVE_INFINITY ? rule.infinity : Number.isFinite(value)) &&
    (!rule.integer || !Number.isFinite(value) || Number.isInteger(value)) &&
    (rule.exclusive ? value > rule.min : value >= rule.min) &&
    (rule.max === undefined || value <= rule.max);
  if (!ok) {
    throw new InvalidInputError({
      entryPoint,
      reason: `\`${name}\` must be ${expectation(rule)}, got ${describe(value)}`,
    });
  }
}

function checkChoice(entryPoint: string, name: string, value: unknown, choices: readonly string[]): void {
  if (typeof value === 'string' && choices.includes(value)) return;
  throw new InvalidInputError({
    entryPoint,
    reason: `\`${name}\` must be one of ${choices.map((choice) => `'${choice}'`).join(', ')}, got ${describe(value)}`,
  });
}

function checkObject(entryPoint: string, name: string, value: unknown): asserts value is Record<string, unknown> {
  if (!isRecord(value)) {
    throw new InvalidInputError({ entryPoint, reason: `\`${name}\` must be an object, got ${describe(value)}` });
  }
}

const count = { integer: true, min: 0, infinity: false } as const;
const budget = { integer: true, min: 0, infinity: true } as const;

/**
 * Checks (partial) run limits: every key a member of `RunLimits` (an unknown one is named, with
 * the key it probably meant: `maxSteps` → `maxModelCalls`); `maxModelCalls`/`maxToolCalls` are integers ≥ 0 or `Infinity`;
 * `maxToolDepth` an integer from 0 to `MAX_TOOL_DEPTH`;
 * `maxRetriesPerCall` an integer ≥ 0; `wallClockMs` a number > 0 or `Infinity` (both `Infinity`
 * and `undefined` mean no deadline); `retryDelayMs` a finite number ≥ 0; `toolTimeouts` whole
 * milliseconds with `minMs` ≥ 1 and `maxMs` ≥ `minMs`.
 * @throws {InvalidInputError} naming the first bad option.
 * @internal
 */
export function validateRunLimits(entryPoint: string, limits: unknown, prefix = 'limits'): void {
  if (limits === undefined) return;
  checkObject(entryPoint, prefix, limits);
  checkOptionKeys(entryPoint, limits, RUN_LIMIT_KEYS, { prefix: `${prefix}.` });
  const at = (key: string) => `${prefix}.${key}`;
  if (limits.maxModelCalls !== undefined)
    checkNumberOption(entryPoint, at('maxModelCalls'), limits.maxModelCalls, budget);
  if (limits.maxToolCalls !== undefined) checkNumberOption(entryPoint, at('maxToolCalls'), limits.maxToolCalls, budget);
  if (limits.maxToolDepth !== undefined)
    checkNumberOption(entryPoint, at('maxToolDepth'), limits.maxToolDepth, { ...count, max: MAX_TOOL_DEPTH });
  if (limits.maxRetriesPerCall !== undefined)
    checkNumberOption(entryPoint, at('maxRetriesPerCall'), limits.maxRetriesPerCall, count);
  if (limits.wallClockMs !== undefined)
    checkNumberOption(entryPoint, at('wallClockMs'), limits.wallClockMs, {
      integer: false,
      min: 0,
      exclusive: true,
      infinity: true,
    });
  if (limits.retryDelayMs !== undefined)
    checkNumberOption(entryPoint, at('retryDelayMs'), limits.retryDelayMs, { integer: false, min: 0, infinity: false });
  const timeouts = limits.toolTimeouts;
  if (timeouts !== undefined) {
    checkObject(entryPoint, at('toolTimeouts'), timeouts);
    checkNumberOption(entryPoint, at('toolTimeouts.inheritedMs'), timeouts.inheritedMs, count);
    checkNumberOption(entryPoint, at('toolTimeouts.minMs'), timeouts.minMs, { ...count, min: 1 });
    checkNumberOption(entryPoint, at('toolTimeouts.maxMs'), timeouts.maxMs, {
      ...count,
      min: timeouts.minMs as number,
    });
    checkNumberOption(entryPoint, at('toolTimeouts.graceMs'), timeouts.graceMs, count);
  }
}

const DIALECTS = ['auto', 'native', 'tagged_json', 'xml', 'pformat', 'python', 'typescript'] as const;
const INVALID_ARGS = ['return_tool_error', 'normalize_then_return_tool_error', 'fail'] as const;

/**
 * Checks a (partial) run policy: every key a member of `RunPolicy` (an unknown one is named, with a
 * suggestion), every choice is one of its documented values, `maxConcurrency`
 * is an integer ≥ 1 or `Infinity` (no cap), `droppedToolCallNudges` an integer ≥ 0, flags are booleans.
 * @throws {InvalidInputError} naming the first bad option.
 * @internal
 */
export function validateRunPolicy(entryPoint: string, policy: unknown, prefix = 'policy'): void {
  if (policy === undefined) return;
  checkObject(entryPoint, prefix, policy);
  checkOptionKeys(entryPoint, policy, RUN_POLICY_KEYS, { prefix: `${prefix}.` });
  const at = (key: string) => `${prefix}.${key}`;
  if (policy.toolDialect !== undefined) checkChoice(entryPoint, at('toolDialect'), policy.toolDialect, DIALECTS);
  if (policy.invalidArgs !== undefined) checkChoice(entryPoint, at('invalidArgs'), policy.invalidArgs, INVALID_ARGS);
  if (policy.unknownTool !== undefined) {
    checkObject(entryPoint, at('unknownTool'), policy.unknownTool);
    const kind = policy.unknownTool.kind;
    checkChoice(entryPoint, at('unknownTool.kind'), kind, ['return_tool_error', 'rewrite', 'fail']);
    if (kind === 'rewrite' && (typeof policy.unknownTool.toolName !== 'string' || policy.unknownTool.toolName === ''))
      throw new InvalidInputError({ entryPoint, reason: `\`${at('unknownTool.toolName')}\` must be a tool name` });
  }
  if (policy.toolErrors !== undefined) {
    checkObject(entryPoint, at('toolErrors'), policy.toolErrors);
    const kind = policy.toolErrors.kind;
    checkChoice(entryPoint, at('toolErrors.kind'), kind, ['fail', 'return_error', 'message']);
    if (kind === 'message' && typeof policy.toolErrors.message !== 'string')
      throw new InvalidInputError({ entryPoint, reason: `\`${at('toolErrors.message')}\` must be a string` });
  }
  if (policy.brokenTurnCalls !== undefined)
    checkChoice(entryPoint, at('brokenTurnCalls'), policy.brokenTurnCalls, ['refuse', 'execute']);
  if (policy.toolChoiceIgnored !== undefined)
    checkChoice(entryPoint, at('toolChoiceIgnored'), policy.toolChoiceIgnored, ['retry_then_error', 'error', 'accept']);
  if (policy.maxConcurrency !== undefined)
    checkNumberOption(entryPoint, at('maxConcurrency'), policy.maxConcurrency, {
      integer: true,
      min: 1,
      infinity: true,
    });
  if (policy.droppedToolCallNudges !== undefined)
    checkNumberOption(entryPoint, at('droppedToolCallNudges'), policy.droppedToolCallNudges, count);
  for (const flag of ['preferMarkdown', 'captureToolIo'] as const) {
    const value = policy[flag];
    if (value !== undefined && typeof value !== 'boolean')
      throw new InvalidInputError({ entryPoint, reason: `\`${at(flag)}\` must be a boolean, got ${describe(value)}` });
  }
}

/**
 * Checks the discovery options' numbers: `defaultLimit`, `maxLimit` and the schema-compaction
 * byte ceilings integers ≥ 1, `manifestTokenBudget` an integer ≥ 0.
 * @throws {InvalidInputError} naming the first bad option.
 * @internal
 */
export function validateDiscoveryOptions(entryPoint: string, discovery: unknown): void {
  if (discovery === undefined) return;
  checkObject(entryPoint, 'discovery', discovery);
  for (const key of ['defaultLimit', 'maxLimit'] as const) {
    if (discovery[key] !== undefined)
      checkNumberOption(entryPoint, `discovery.${key}`, discovery[key], { ...count, min: 1 });
  }
  if (discovery.manifestTokenBudget !== undefined)
    checkNumberOption(entryPoint, 'discovery.manifestTokenBudget', discovery.manifestTokenBudget, count);
  const compaction = discovery.schemaCompaction;
  if (compaction === undefined) return;
  checkObject(entryPoint, 'discovery.schemaCompaction', compaction);
  for (const key of ['maxDescriptionBytes', 'maxSchemaBytes'] as const) {
    if (compaction[key] !== undefined)
      checkNumberOption(entryPoint, `discovery.schemaCompaction.${key}`, compaction[key], { ...count, min: 1 });
  }
}

/** The AI SDK's string forms of a tool choice, accepted as the object they stand for. */
export type ToolChoiceShorthand = 'auto' | 'none' | 'required';

const CHOICE_TYPES = ['auto', 'none', 'required', 'tool'] as const;

/**
 * Checks a tool choice and returns it as a {@link ToolChoice} object: `{ type: 'auto' | 'none' |
 * 'required' }`, `{ type: 'tool', toolName }` with a non-empty name, or the AI SDK's strings
 * `'auto'`, `'none'`, `'required'` (read as the object of that type). Anything else (another
 * string or type, a different case, a missing or empty `toolName`, a `toolName` beside another
 * type, any other key) is refused: no shape falls through as "no choice".
 * @throws {InvalidInputError} naming the option and the value.
 * @internal
 */
export function normalizeToolChoice(entryPoint: string, name: string, value: unknown): ToolChoice | undefined {
  if (value === undefined) return undefined;
  const refuse = (why: string): never => {
    throw new InvalidInputError({
      entryPoint,
      reason: `\`${name}\` must be { type: 'auto' | 'none' | 'required' }, { type: 'tool', toolName: '<name>' } or one of 'auto', 'none', 'required'; ${why}`,
    });
  };
  if (typeof value === 'string') {
    if (value === 'auto' || value === 'none' || value === 'required') return { type: value };
    return refuse(`got ${describe(value)}`);
  }
  if (!isRecord(value)) return refuse(`got ${describe(value)}`);
  const type = value.type;
  if (typeof type !== 'string' || !(CHOICE_TYPES as readonly string[]).includes(type))
    return refuse(`got type ${describe(type)}`);
  const allowed = type === 'tool' ? ['type', 'toolName'] : ['type'];
  const extra = Object.keys(value).find((key) => !allowed.includes(key));
  if (extra !== undefined) return refuse(`got the key \`${extra}\` with type '${type}'`);
  if (type !== 'tool') return { type: type as 'auto' | 'none' | 'required' };
  const toolName = value.toolName;
  if (typeof toolName !== 'string' || toolName === '')
    return refuse(`type 'tool' needs a non-empty \`toolName\`, got ${describe(toolName)}`);
  return { type: 'tool', toolName };
}

/**
 * Checks the arguments of `invoke`/`stream`/`resume`: `context` and `options` are objects (or
 * absent) whose keys are members of `RunContext` / `InvokeOptions` (`options` keys are checked by
 * the caller, against `INVOKE_OPTION_KEYS`; `modelSettings` keys here), `context.signal` an `AbortSignal`, `context.hostValues` an object, and the per-run
 * policy and limits as {@link validateRunPolicy} / {@link validateRunLimits}.
 * @throws {InvalidInputError} naming the first bad value.
 * @internal
 */
export function validateRunArguments(entryPoint: string, context: unknown, options: unknown): void {
  checkObject(entryPoint, 'context', context);
  checkOptionKeys(entryPoint, context, RUN_CONTEXT_KEYS, { prefix: 'context.' });
  const signal = context.signal as { aborted?: unknown; addEventListener?: unknown } | undefined;
  if (signal !== undefined && (typeof signal?.aborted !== 'boolean' || typeof signal.addEventListener !== 'function'))
    throw new InvalidInputError({ entryPoint, reason: '`context.signal` must be an AbortSignal' });
  if (context.hostValues !== undefined) checkObject(entryPoint, 'context.hostValues', context.hostValues);
  for (const key of ['runId', 'threadId'] as const) {
    const value = context[key];
    if (value !== undefined && (typeof value !== 'string' || value === ''))
      throw new InvalidInputError({ entryPoint, reason: `\`context.${key}\` must be a non-empty string` });
  }
  if (options === undefined) return;
  checkObject(entryPoint, 'options', options);
  validateRunPolicy(entryPoint, options.policy, 'options.policy');
  if (options.modelSettings !== undefined) {
    checkObject(entryPoint, 'options.modelSettings', options.modelSettings);
    checkOptionKeys(entryPoint, options.modelSettings, MODEL_SETTING_KEYS, { prefix: 'options.modelSettings.' });
  }
  validateRunLimits(entryPoint, options.limits, 'options.limits');
  normalizeToolChoice(entryPoint, 'options.toolChoice', options.toolChoice);
  for (const key of ['onEvent', 'onCheckpoint', 'deferredToolHandler'] as const) {
    const value = options[key];
    if (value !== undefined && typeof value !== 'function')
      throw new InvalidInputError({ entryPoint, reason: `\`options.${key}\` must be a function` });
  }
  if (options.resumeOnce !== undefined && typeof options.resumeOnce !== 'boolean')
    throw new InvalidInputError({ entryPoint, reason: `\`options.resumeOnce\` must be a boolean` });
}
