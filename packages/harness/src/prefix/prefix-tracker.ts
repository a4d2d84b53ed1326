import type { Message, ToolSchema } from '@tiny/llm';
import { diffPrefix, type PrefixBreak } from './diff-prefix.js';
import { fingerprintPrefix, type PrefixFingerprint } from './prefix-fingerprint.js';

/**
 * What a run state keeps of the prompt prefix, so a resumed run sends the same prefix: the order
 * tools were first offered in, the discovery promotions, and the last request's fingerprint (so a
 * resume that changes the prefix is reported like any other change).
 */
export interface PrefixState {
  /** Every tool name offered so far, in the order requests list them. */
  readonly toolOrder: readonly string[];
  /** Deferred tools promoted by `tool_search`, in discovery order. */
  readonly promoted: readonly string[];
  readonly fingerprint?: PrefixFingerprint | undefined;
}

/**
 * The prefix bookkeeping of one run: keeps tool order append-only and compares each request's
 * fingerprint with the previous one. @internal
 */
export interface PrefixTracker {
  /**
   * `schemas` in the run's stable order: tools offered before keep their places (relative), new
   * ones follow in the order given. A tool no longer offered loses its place (offered again, it is
   * appended). Returns `schemas` itself when it is already in that order.
   */
  order(schemas: readonly ToolSchema[]): readonly ToolSchema[];
  /** Fingerprints a request and compares it with the previous one; the break, when it is one. */
  observe(
    tools: readonly ToolSchema[],
    messages: readonly Message[],
  ): { readonly fingerprint: PrefixFingerprint; readonly broke?: PrefixBreak | undefined };
  /** Promotions restored from a run state, handed over once (to the discovery session). */
  takePromoted(): readonly string[];
  /** What a run state keeps (see {@link PrefixState}); `promoted` from the run's discovery. */
  state(promoted: readonly string[]): PrefixState;
}

/** Creates a run's tracker, continuing from a resumed state's prefix when there is one. @internal */
export function createPrefixTracker(restored?: PrefixState): PrefixTracker {
  const rank = new Map<string, number>();
  let next = 0;
  for (const name of restored?.toolOrder ?? []) if (!rank.has(name)) rank.set(name, next++);
  let previous = restored?.fingerprint;
  let promoted: readonly string[] = restored?.promoted ?? [];
  return {
    order(schemas) {
      let sorted = true;
      let last = -1;
      for (const schema of schemas) {
        let at = rank.get(schema.name);
        if (at === undefined) {
          at = next++;
          rank.set(schema.name, at);
        }
        if (at < last) sorted = false;
        last = at;
      }
      if (rank.size > schemas.length) {
        const offered = new Set(schemas.map((schema) => schema.name));
        for (const name of [...rank.keys()]) if (!offered.has(name)) rank.delete(name);
      }
      if (sorted) return schemas;
      return [...schemas].sort((a, b) => (rank.get(a.name) as number) - (rank.get(b.name) as number));
    },
    observe(tools, messages) {
      const fingerprint = fingerprintPrefix(tools, messages);
      const broke = previous === undefined ? undefined : diffPrefix(previous, fingerprint);
      previous = fingerprint;
      return broke === undefined ? { fingerprint } : { fingerprint, broke };
    },
    takePromoted() {
      const names = promoted;
      promoted = [];
      return names;
    },
    state: (names) => ({
      toolOrder: [...rank.keys()],
      promoted: [...names],
      ...(previous === undefined ? {} : { fingerprint: previous }),
    }),
  };
}
