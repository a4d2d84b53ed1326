import { contextDetailFromArgs } from '../display/context-detail-from-args.js';
import { humanizeToolName } from '../display/humanize-tool-name.js';
import type { ToolExposure } from '../policy/tool-exposure.js';
import { ToolPolicy } from '../policy/tool-policy.js';
import type { ToolTimeout } from '../timeout/tool-timeout.js';
import type { InjectedArgument } from './injected-arguments.js';
import type { PermissionLevel, Tool, ToolCategory, ToolScope } from './tool.js';
import { recordToolOrigin } from './tool-origin.js';
import { checkingOutput } from './tool-output.js';

type OptionalMembers =
  | 'maxResultSizeChars'
  | 'hostExtension'
  | 'family'
  | 'outputSchema'
  | 'standardSchemas'
  | 'nestedTools';

/** A tool with every optional member filled in with its default. */
export type CompleteTool<TArgs = Record<string, unknown>> = Required<Omit<Tool<TArgs>, OptionalMembers>> &
  Pick<Tool<TArgs>, OptionalMembers> & {
    readonly injected: readonly InjectedArgument[];
    readonly policy: ToolPolicy;
    readonly exposure: ToolExposure;
    readonly tags: readonly string[];
    readonly category: ToolCategory;
    readonly scope: ToolScope;
  };

const completed = new WeakMap<object, CompleteTool<never>>();

/**
 * Fills in every optional member of `tool` with its documented default (see {@link Tool}).
 * Members the tool defines are kept and bound to it. The result is cached per tool object.
 * Wrappers should start from this so no default silently resets. A tool with an `outputSchema`
 * gets an `execute` that validates what it returns (see {@link Tool.outputSchema}).
 */
export function completeTool<TArgs>(tool: Tool<TArgs>): CompleteTool<TArgs> {
  const cached = completed.get(tool);
  if (cached) return cached as unknown as CompleteTool<TArgs>;
  const policy = tool.policy ?? ToolPolicy.unclassified();
  const bind = <K extends keyof Tool<TArgs>>(key: K) => {
    const member = tool[key];
    return typeof member === 'function' ? (member as (...args: unknown[]) => unknown).bind(tool) : undefined;
  };
  const complete: CompleteTool<TArgs> = {
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    injected: tool.injected ?? [],
    policy,
    exposure: tool.exposure ?? 'direct',
    family: tool.family,
    tags: tool.tags ?? [],
    category: tool.category ?? 'system',
    scope: tool.scope ?? 'all',
    supportsMarkdown: tool.supportsMarkdown ?? false,
    returnDirect: tool.returnDirect ?? false,
    maxResultSizeChars: tool.maxResultSizeChars,
    hostExtension: tool.hostExtension,
    outputSchema: tool.outputSchema,
    standardSchemas: tool.standardSchemas,
    nestedTools: tool.nestedTools,
    permissionLevel: (bind('permissionLevel') as (args: TArgs) => PermissionLevel) ?? (() => 'read_only'),
    isConcurrencySafe: (bind('isConcurrencySafe') as (args: TArgs) => boolean) ?? (() => false),
    externalEffect: (bind('externalEffect') as (args: TArgs) => boolean) ?? (() => false),
    indirectTarget: (bind('indirectTarget') as (args: TArgs) => string | undefined) ?? (() => undefined),
    timeoutPolicy: (bind('timeoutPolicy') as (args: TArgs) => ToolTimeout) ?? (() => policy.timeout()),
    hostCallExtension: (bind('hostCallExtension') as (args: TArgs) => unknown) ?? (() => undefined),
    idempotencyKey: (bind('idempotencyKey') as (args: TArgs) => string | undefined) ?? (() => undefined),
    displayLabel:
      (bind('displayLabel') as (args: TArgs) => string) ?? (() => policy.display.label ?? humanizeToolName(tool.name)),
    displayDetail:
      (bind('displayDetail') as (args: TArgs) => string | undefined) ??
      ((args: TArgs) => policy.display.detail ?? contextDetailFromArgs(args)),
    execute: checkingOutput(tool, tool.execute.bind(tool)),
  };
  completed.set(tool, complete as unknown as CompleteTool<never>);
  recordToolOrigin(complete, tool);
  return complete;
}
