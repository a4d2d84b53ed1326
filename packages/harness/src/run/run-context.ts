import type { WorkspaceDescriptor } from '@tiny/tools';

/** The host's tool allow-list for a hosted run (H13). */
export interface HostToolAccess {
  /** The tools this run may call. Empty or absent denies every tool (fail-closed) unless `legacyUnrestricted`. */
  readonly allowedTools?: readonly string[] | undefined;
  /** Opt back into the old "empty list means every tool" behaviour. Default false. */
  readonly legacyUnrestricted?: boolean | undefined;
}

/**
 * Per-run values from the host. None of it is shown to the model: `hostValues` fill injected tool
 * arguments, `state` and `store` reach tools through their context.
 */
export interface RunContext {
  /** Values for tools' `host` injected arguments. */
  readonly hostValues?: Readonly<Record<string, unknown>> | undefined;
  readonly state?: unknown;
  readonly store?: unknown;
  readonly workspace?: WorkspaceDescriptor | undefined;
  /** Cancels the run; tools see it through their context signal. */
  readonly signal?: AbortSignal | undefined;
  /** Defaults to a fresh random id. */
  readonly runId?: string | undefined;
  readonly threadId?: string | undefined;
  /** Present for hosted runs: the allow-list is enforced (fail-closed). Absent for explicit runs. */
  readonly host?: HostToolAccess | undefined;
}

/** Resolves the names a hosted run may call; `undefined` means "no restriction" (explicit runs). */
export function allowedToolNames(context: RunContext): ReadonlySet<string> | undefined {
  const host = context.host;
  if (host === undefined) return undefined;
  const declared = host.allowedTools ?? [];
  if (declared.length > 0) return new Set(declared);
  return host.legacyUnrestricted === true ? undefined : new Set();
}
