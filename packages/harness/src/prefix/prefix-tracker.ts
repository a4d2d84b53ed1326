import type { Message, ToolSchema } from '@tiny/llm';
import { diffPrefix, type PrefixBreak } from './diff-prefix.js';
import { hashText } from './hash-text.js';
import {
  combineDigest,
  leadingSystemCount,
  type PrefixFingerprint,
  type PrefixPart,
  partOf,
  partOfNew,
  systemPart,
  type ToolPrefixPart,
  toolsDigest,
} from './prefix-fingerprint.js';

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
  /** Changes at each history rewrite, so one digest never names two histories of one length. */
  readonly epoch?: string | undefined;
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
  /**
   * Takes the next request and compares it with the previous one: its prefix digest, and the
   * break when it is one. Parts are hashed only when a break is possible (other tools, other
   * system text, other message objects in the history), so an append-only turn hashes nothing new.
   */
  observe(
    tools: readonly ToolSchema[],
    messages: readonly Message[],
  ): { readonly digest: string; readonly broke?: PrefixBreak | undefined };
  /** Promotions restored from a run state, handed over once (to the discovery session). */
  takePromoted(): readonly string[];
  /** What a run state keeps (see {@link PrefixState}); `promoted` from the run's discovery. */
  state(promoted: readonly string[]): PrefixState;
}

/** The previous request as the tracker keeps it: its parts, and how many history parts it had. */
interface Previous {
  readonly digest: string;
  readonly tools: readonly ToolPrefixPart[];
  readonly toolsDigest: string;
  readonly system: PrefixPart;
  readonly historyLength: number;
}

/** Creates a run's tracker, continuing from a resumed state's prefix when there is one. @internal */
export function createPrefixTracker(restored?: PrefixState): PrefixTracker {
  const rank = new Map<string, number>();
  let next = 0;
  for (const name of restored?.toolOrder ?? []) if (!rank.has(name)) rank.set(name, next++);
  let promoted: readonly string[] = restored?.promoted ?? [];
  // The history as sent so far, append-only: the message objects, and their parts, hashed only
  // when needed (a suspected break, a saved state). Messages are immutable, so a request whose
  // history starts with the same objects has the same history prefix: no hashing per request.
  const refs: Message[] = [];
  const parts: (PrefixPart | undefined)[] = [];
  const partAt = (index: number): PrefixPart => {
    let part = parts[index];
    if (part === undefined) {
      part = partOfNew(refs[index] as Message);
      parts[index] = part;
    }
    return part;
  };
  const fingerprint = restored?.fingerprint;
  // Bumped at every history rewrite, so a digest names one history for each length.
  let epoch = restored?.epoch ?? '';
  // A resumed run has the parts of the request before the pause, but not its message objects.
  let restoredHistory: readonly PrefixPart[] | undefined = fingerprint?.history;
  let previous: Previous | undefined =
    fingerprint === undefined
      ? undefined
      : {
          digest: fingerprint.digest,
          tools: fingerprint.tools,
          toolsDigest: toolsDigest(fingerprint.tools),
          system: fingerprint.system,
          historyLength: fingerprint.history.length,
        };
  const toolCache = new WeakMap<readonly ToolSchema[], { parts: ToolPrefixPart[]; digest: string }>();
  let base: { tools: string; system: string; epoch: string; hash: string } | undefined;
  const previousHistory = (): readonly PrefixPart[] => {
    if (restoredHistory !== undefined) return restoredHistory;
    const length = previous?.historyLength ?? 0;
    const out: PrefixPart[] = [];
    for (let index = 0; index < length; index += 1) out.push(partAt(index));
    return out;
  };

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
      let toolInfo = toolCache.get(tools);
      if (toolInfo === undefined) {
        const toolParts = tools.map((tool) => ({ name: tool.name, ...partOf(tool) }));
        toolInfo = { parts: toolParts, digest: toolsDigest(toolParts) };
        toolCache.set(tools, toolInfo);
      }
      const systemEnd = leadingSystemCount(messages);
      const system = systemPart(messages, systemEnd);
      const count = messages.length - systemEnd;
      // The first history message that is not the object sent at its place last time.
      let same = 0;
      const known = Math.min(refs.length, count);
      while (same < known && messages[systemEnd + same] === refs[same]) same += 1;
      const last = previous;
      // Only other tools, other system text or other message objects can break the prefix.
      const suspect =
        last !== undefined &&
        (same < last.historyLength || last.toolsDigest !== toolInfo.digest || last.system.hash !== system.hash);
      const before = suspect ? previousHistory() : undefined;
      if (same < refs.length) {
        refs.length = same;
        parts.length = same;
      }
      for (let index = same; index < count; index += 1) {
        refs.push(messages[systemEnd + index] as Message);
        parts.push(undefined);
      }
      restoredHistory = undefined;
      let broke: PrefixBreak | undefined;
      if (last !== undefined && before !== undefined) {
        const history: PrefixPart[] = [];
        for (let index = 0; index < count; index += 1) history.push(partAt(index));
        broke = diffPrefix(
          { digest: last.digest, tools: last.tools, system: last.system, history: before },
          { digest: '', tools: toolInfo.parts, system, history },
        );
        const rewrite = broke?.changes.find((change) => change.part === 'history');
        if (rewrite?.part === 'history')
          epoch = hashText(`${epoch}|${rewrite.index}|${rewrite.index < count ? partAt(rewrite.index).hash : ''}`);
      }
      // The digest: a hash of what only changes at a break (tools, system, epoch), then the length.
      if (base === undefined || base.tools !== toolInfo.digest || base.system !== system.hash || base.epoch !== epoch)
        base = {
          tools: toolInfo.digest,
          system: system.hash,
          epoch,
          hash: combineDigest(toolInfo.digest, system, epoch),
        };
      const digest = `${base.hash}:${count}`;
      previous = { digest, tools: toolInfo.parts, toolsDigest: toolInfo.digest, system, historyLength: count };
      return broke === undefined ? { digest } : { digest, broke };
    },
    takePromoted() {
      const names = promoted;
      promoted = [];
      return names;
    },
    state: (names) => ({
      toolOrder: [...rank.keys()],
      promoted: [...names],
      ...(previous === undefined
        ? {}
        : {
            epoch,
            fingerprint: {
              digest: previous.digest,
              tools: previous.tools,
              system: previous.system,
              history: previousHistory(),
            },
          }),
    }),
  };
}
