import type { Message, ToolSchema } from '@tiny/llm';
import { canonicalTool } from './canonical-tool.js';
import { diffHeads, type HistoryChange, type PrefixBreak } from './diff-prefix.js';
import { HistoryFold } from './history-fold.js';
import {
  baseDigest,
  freshMessagePart,
  type PrefixFingerprint,
  type PrefixPart,
  type PrefixSettings,
  positionlessSystemHash,
  type SystemPrefixPart,
  settingsPartOf,
  systemPartOf,
  systemPartsOf,
  type ToolPrefixPart,
  toolPart,
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
  /** Written by earlier versions; no longer read (the digest chains the history's content). */
  readonly epoch?: string | undefined;
  readonly fingerprint?: PrefixFingerprint | undefined;
}

/**
 * The prefix bookkeeping of one run: keeps tool order append-only and compares each request's
 * fingerprint with the previous one. Tool declarations and messages are treated as immutable (a
 * changed one is a new object); arrays holding them may be reused and changed between requests.
 * @internal
 */
export interface PrefixTracker {
  /**
   * `schemas` canonically serialised (see `canonicalSchema`) and in the run's stable order: tools
   * offered before keep their places (relative), new ones follow in the order given. With
   * `forget` (the default), a tool not in `schemas` loses its place (offered again, it is
   * appended); pass `false` for a provisional ordering (before middleware adds its own tools).
   */
  order(schemas: readonly ToolSchema[], forget?: boolean): readonly ToolSchema[];
  /**
   * Takes the next request and compares it with the previous one: its prefix digest, and the
   * break when it is one. Each new message's JSON content is folded into a running hash of the
   * history, so equal digests mean equal prefixes; a turn that only appends reads only what it
   * appends. A message that is another object than the previous request's at its place is compared
   * by content (a copy is no change). With `growing`, `messages` is an array that only ever grows
   * (the run's own history): given again, the messages it held at the previous request are taken
   * as they were, unread, so a long history costs nothing per request for what it already held.
   */
  observe(
    tools: readonly ToolSchema[],
    messages: readonly Message[],
    settings?: PrefixSettings,
    growing?: boolean,
  ): { readonly digest: string; readonly broke?: PrefixBreak | undefined };
  /** Promotions restored from a run state, handed over once (to the discovery session). */
  takePromoted(): readonly string[];
  /** What a run state keeps (see {@link PrefixState}); `promoted` from the run's discovery. */
  state(promoted: readonly string[]): PrefixState;
}

/** The previous request as the tracker keeps it. */
interface Previous {
  readonly digest: string;
  readonly tools: readonly ToolPrefixPart[];
  readonly toolsDigest: string;
  readonly system: PrefixPart;
  readonly systems: readonly SystemPrefixPart[] | undefined;
  readonly settings: PrefixPart | undefined;
}

/** Whether `array` begins with every element of `prefix`, compared by identity. */
const startsWith = <T>(array: readonly T[], prefix: readonly T[]): boolean => {
  if (array.length < prefix.length) return false;
  for (let index = 0; index < prefix.length; index += 1) if (array[index] !== prefix[index]) return false;
  return true;
};

const sameElements = <T>(a: readonly T[], b: readonly T[]): boolean => {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
};

/** A frozen array of frozen copies of `parts` (each part is flat: a copy of its fields is a full copy). */
function frozenParts<T extends PrefixPart>(parts: readonly T[]): readonly T[] {
  return Object.freeze(parts.map((part) => Object.freeze({ ...part })));
}

/** Creates a run's tracker, continuing from a resumed state's prefix when there is one. @internal */
export function createPrefixTracker(restored?: PrefixState): PrefixTracker {
  const rank = new Map<string, number>();
  let next = 0;
  for (const name of restored?.toolOrder ?? []) if (!rank.has(name)) rank.set(name, next++);
  let promoted: readonly string[] = restored?.promoted ?? [];
  // The history (non-system messages) of the previous request: the message objects (none for a
  // restored state, whose objects are gone) and a fold of their JSON content, message by message
  // (it covers the first `fold.length` of them: none for a restored state, whose first request is
  // read in full). Only element identity is compared, never an array's.
  const refs: (Message | undefined)[] = [];
  const fold = new HistoryFold();
  // The parts of the first `parts.length` messages: a restored state's, the others computed when a
  // break must be counted or a state is saved (the run's sealed history), or when observed (any other
  // array, whose messages may be edited later): once each at most.
  const parts: PrefixPart[] = [];
  const fingerprint = restored?.fingerprint;
  for (const part of fingerprint?.history ?? []) {
    refs.push(undefined);
    parts.push(part);
  }
  /** Computes the parts of the first `length` messages (past the known parts, `refs` holds every message). */
  const partsUpTo = (length: number) => {
    for (let index = parts.length; index < length; index += 1) parts.push(freshMessagePart(refs[index] as Message));
  };
  /** Whether `message` has the content (JSON) of the previous request's history message at `index`. */
  const sameContent = (index: number, message: Message): boolean => {
    if (refs[index] === message) return true;
    if (index < fold.length) return fold.matches(index, message);
    partsUpTo(index + 1);
    return freshMessagePart(message).hash === (parts[index] as PrefixPart).hash;
  };
  let base: { tools: string; system: string; settings: string; hash: string } | undefined;
  // A state saved before system positions were tracked: its system hash has no positions, read so once.
  let positionless =
    fingerprint !== undefined && fingerprint.systems === undefined && fingerprint.systemsHoisted !== true;
  let previous: Previous | undefined =
    fingerprint === undefined
      ? undefined
      : {
          digest: fingerprint.digest,
          tools: fingerprint.tools,
          toolsDigest: toolsDigest(fingerprint.tools),
          system: fingerprint.system,
          systems: fingerprint.systems,
          settings: fingerprint.settings,
        };
  // Caches keyed by elements, each with a copy of the elements it was computed from.
  let lastTools: readonly ToolSchema[] = [];
  /** The last schema transform's JSON (by content: a transform edited in place is a change). */
  let lastTransform: string | undefined;
  let toolInfo: { parts: readonly ToolPrefixPart[]; digest: string } | undefined;
  let lastSystems: readonly Message[] = [];
  let lastSystemIndexes: readonly number[] = [];
  let systemInfo: PrefixPart | undefined;
  /** Undefined for hoisted system messages (no position: an added one is never an append). */
  let systemParts: readonly SystemPrefixPart[] | undefined = [];
  let lastHoisted = false;
  let lastSettings: readonly unknown[] = [];
  let settingsInfo: PrefixPart | undefined;
  let orderIn: readonly ToolSchema[] = [];
  let orderOut: readonly ToolSchema[] = [];
  let orderRanks = -1;
  // Every message of the previous request, systems included (none before the first): a request that
  // only appends is recognised by element identity alone, and only what it appends is read.
  let seen: Message[] | undefined;
  // The previous request's array when it was given as `growing`: the same array again holds `seen`
  // as its first messages, with no need to compare them.
  let lastGrowing: readonly Message[] | undefined;

  return {
    order(schemas, forget = true) {
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
      if (forget && rank.size > schemas.length) {
        const offered = new Set(schemas.map((schema) => schema.name));
        for (const name of [...rank.keys()]) if (!offered.has(name)) rank.delete(name);
      }
      // Same declarations as last time under unchanged ranks: the same canonical list.
      if (orderRanks === next && sameElements(orderIn, schemas)) return orderOut;
      const ranked = sorted
        ? schemas
        : [...schemas].sort((a, b) => (rank.get(a.name) as number) - (rank.get(b.name) as number));
      orderIn = [...schemas];
      orderOut = ranked.map(canonicalTool);
      orderRanks = next;
      return orderOut;
    },
    observe(tools, messages, settings, growing = false) {
      const transform = settings?.schemaTransform;
      const transformJson = transform === undefined ? undefined : JSON.stringify(transform);
      if (toolInfo === undefined || lastTransform !== transformJson || !sameElements(lastTools, tools)) {
        const toolParts = tools.map((tool) => toolPart(tool, transform));
        toolInfo = { parts: toolParts, digest: toolsDigest(toolParts) };
        lastTools = [...tools];
        lastTransform = transformJson;
      }
      let systems: readonly Message[];
      let systemIndexes: readonly number[];
      const added: Message[] = [];
      let same: number;
      // Left as it is until this request is taken in full: a throw leaves the tracker as after the last good request.
      const known = seen;
      const appendsOnly =
        known !== undefined &&
        ((growing && messages === lastGrowing && messages.length >= known.length) || startsWith(messages, known));
      if (appendsOnly) {
        // Only appended: the history so far is unchanged (`refs` holds its non-system messages), and
        // reading each message's role, the costly part with messages of many shapes, is left to the new ones.
        same = refs.length;
        let grownSystems: Message[] | undefined;
        let grownIndexes: number[] | undefined;
        for (let index = known.length; index < messages.length; index += 1) {
          const message = messages[index] as Message;
          if (message.role !== 'system') {
            added.push(message);
            continue;
          }
          grownSystems ??= [...lastSystems];
          grownIndexes ??= [...lastSystemIndexes];
          grownSystems.push(message);
          grownIndexes.push(index);
        }
        systems = grownSystems ?? lastSystems;
        systemIndexes = grownIndexes ?? lastSystemIndexes;
      } else {
        const allSystems: Message[] = [];
        const allIndexes: number[] = [];
        let count = 0;
        same = -1;
        // An indexed loop: `entries()` allocates an `[index, message]` pair per message.
        for (let index = 0; index < messages.length; index += 1) {
          const message = messages[index] as Message;
          if (message.role === 'system') {
            allSystems.push(message);
            allIndexes.push(index);
            continue;
          }
          if (same < 0 && message !== refs[count]) same = count;
          if (same >= 0) added.push(message);
          count += 1;
        }
        if (same < 0) same = count;
        systems = allSystems;
        systemIndexes = allIndexes;
      }
      const hoisted = settings?.systemMessages === 'hoisted';
      // Kept in locals until the request is taken: the append-only reading above goes on from
      // `lastSystems`, so a request that throws must leave them as the last good request's.
      let nextSystem = systemInfo;
      let nextSystemParts = systemParts;
      const systemsChanged =
        nextSystem === undefined ||
        hoisted !== lastHoisted ||
        !sameElements(lastSystems, systems) ||
        !sameElements(lastSystemIndexes, systemIndexes);
      if (systemsChanged) {
        const placed = systemPartsOf(systems, systemIndexes);
        nextSystem = systemPartOf(placed, hoisted);
        nextSystemParts = hoisted ? undefined : placed;
      }
      const system = nextSystem as PrefixPart;
      // By content, each only when set: a settings object reused and edited in place between requests is a change.
      const settingValues = [
        settings?.toolChoice === undefined ? undefined : JSON.stringify(settings.toolChoice),
        settings?.responseFormat === undefined ? undefined : JSON.stringify(settings.responseFormat),
        settings?.systemPlacement,
        settings?.providerOptions === undefined ? undefined : JSON.stringify(settings.providerOptions),
        settings?.modelSettings === undefined ? undefined : JSON.stringify(settings.modelSettings),
        transformJson,
      ];
      if (settingsInfo === undefined || !sameElements(lastSettings, settingValues)) {
        settingsInfo = settingsPartOf(settings);
        lastSettings = settingValues;
      }
      // Where the history first differs by content from the previous one, looking from the first
      // message that is another object on (a copy is no change).
      const oldLength = refs.length;
      const newLength = same + added.length;
      let at = same;
      const end = Math.min(oldLength, newLength);
      while (at < end && sameContent(at, added[at - same] as Message)) at += 1;
      const rewrittenAt = at < oldLength ? at : undefined;
      let last = previous;
      if (positionless && last !== undefined) {
        // The same system messages as the saved state's, read as it wrote them: no change (positions aside).
        if (
          last.system.hash !== system.hash &&
          last.system.hash === positionlessSystemHash(systemPartsOf(systems, systemIndexes))
        )
          last = { ...last, system, systems: nextSystemParts };
      }
      let history: HistoryChange | undefined;
      if (
        last !== undefined &&
        (rewrittenAt !== undefined ||
          last.toolsDigest !== toolInfo.digest ||
          last.system.hash !== system.hash ||
          (last.settings !== undefined && last.settings.hash !== settingsInfo.hash))
      ) {
        // A break: what it costs is counted from the previous messages' parts.
        partsUpTo(oldLength);
        let chars = 0;
        let lostChars = 0;
        for (let index = 0; index < oldLength; index += 1) {
          const part = parts[index] as PrefixPart;
          chars += part.chars;
          if (index >= at) lostChars += part.chars;
        }
        history = { length: oldLength, chars, ...(rewrittenAt === undefined ? {} : { rewrittenAt, lostChars }) };
      }
      // The fold keeps its state over the messages whose content is unchanged and takes the rest. A
      // message JSON cannot write throws: the tails replaced are put back first, so the tracker is
      // exactly as after the last good request (an append replaces none: nothing is copied).
      const refsTail = refs.length > same ? refs.slice(same) : undefined;
      const partsTail = parts.length > at ? parts.slice(at) : undefined;
      const foldTail = fold.length > at ? fold.tail(at) : undefined;
      if (refs.length !== same) refs.length = same;
      for (const message of added) refs.push(message);
      if (parts.length > at) parts.length = at;
      if (fold.length > at) fold.truncate(at);
      const foldBefore = foldTail === undefined ? fold.length : at + foldTail.a.length;
      try {
        // The run's own history holds only sealed messages (frozen JSON copies).
        for (let index = fold.length; index < newLength; index += 1) fold.add(refs[index] as Message, growing);
      } catch (error) {
        refs.length = same;
        if (refsTail !== undefined) for (const message of refsTail) refs.push(message);
        parts.length = Math.min(parts.length, at);
        if (partsTail !== undefined) for (const part of partsTail) parts.push(part);
        // Back to the length it had: a resumed fold may have been shorter than `at` (never grown with holes).
        fold.truncate(Math.min(at, foldBefore));
        if (foldTail !== undefined) fold.restore(foldTail);
        throw error;
      }
      // The run's own history is sealed (frozen), so its parts can wait until a break or a save needs
      // them; any other array (a text dialect's rendering, a middleware's) holds objects its owner may
      // still edit after the request: their parts are taken now, from what this request sent.
      if (!growing) partsUpTo(newLength);
      if (appendsOnly) {
        for (let index = known.length; index < messages.length; index += 1) known.push(messages[index] as Message);
        seen = known;
      } else seen = messages.slice();
      lastGrowing = growing ? messages : undefined;
      const broke =
        last === undefined || history === undefined
          ? undefined
          : diffHeads(
              last,
              { tools: toolInfo.parts, system, systems: nextSystemParts, settings: settingsInfo },
              history,
            );
      // The hash of the parts before the history changes only at a break: computed then, not per request.
      if (
        base === undefined ||
        base.tools !== toolInfo.digest ||
        base.system !== system.hash ||
        base.settings !== settingsInfo.hash
      )
        base = {
          tools: toolInfo.digest,
          system: system.hash,
          settings: settingsInfo.hash,
          hash: baseDigest(toolInfo.digest, system, settingsInfo),
        };
      const digest = fold.digest(base.hash);
      positionless = false;
      if (systemsChanged) {
        systemInfo = system;
        systemParts = nextSystemParts;
        lastHoisted = hoisted;
        lastSystems = systems;
        lastSystemIndexes = systemIndexes;
      }
      previous = {
        digest,
        tools: toolInfo.parts,
        toolsDigest: toolInfo.digest,
        system,
        systems: nextSystemParts,
        settings: settingsInfo,
      };
      return broke === undefined ? { digest } : { digest, broke };
    },
    takePromoted() {
      const names = promoted;
      promoted = [];
      return names;
    },
    state(names) {
      partsUpTo(refs.length);
      return {
        toolOrder: [...rank.keys()],
        promoted: [...names],
        ...(previous === undefined
          ? {}
          : {
              // Frozen copies: a saved state (a checkpoint the host may edit) never aliases the tracker's parts.
              fingerprint: {
                digest: previous.digest,
                tools: frozenParts(previous.tools),
                system: Object.freeze({ ...previous.system }),
                ...(previous.systems !== undefined
                  ? { systems: frozenParts(previous.systems) }
                  : lastHoisted
                    ? { systemsHoisted: true as const }
                    : {}),
                ...(previous.settings === undefined ? {} : { settings: Object.freeze({ ...previous.settings }) }),
                history: frozenParts(parts),
              },
            }),
      };
    },
  };
}
