import type { PrefixFingerprint, PrefixPart } from './prefix-fingerprint.js';

/** One way a request's prefix differs from the previous request's. */
export type PrefixChange =
  | {
      readonly part: 'tool';
      /**
       * `added`: a tool the previous request did not have (appended or not: tools precede the
       * system text and messages on the wire, so any new tool invalidates what follows them);
       * `removed`; `changed`: what is sent of its declaration differs; `reordered`: it moved among
       * the tools both requests have.
       */
      readonly change: 'added' | 'removed' | 'changed' | 'reordered';
      readonly toolName: string;
      /** On `added`: true when the tool follows every tool the previous request had (the tools' own cache holds). */
      readonly appended?: boolean | undefined;
    }
  /** A system message changed, was removed or moved, or one was added before the previous request's end. */
  | { readonly part: 'system'; readonly change: 'changed' }
  | {
      /** The tool choice, response format, system placement or provider options changed (Anthropic drops its message cache when `tool_choice` does). */
      readonly part: 'settings';
      readonly change: 'changed';
    }
  | {
      readonly part: 'history';
      readonly change: 'rewritten';
      /** The first message (0-based, among the messages that are not system-role) that differs or is gone. */
      readonly index: number;
    };

/** How a request's prefix broke from the previous one: what changed and the cached tokens it costs. */
export interface PrefixBreak {
  readonly changes: readonly PrefixChange[];
  /**
   * Estimated tokens of the previous prefix a provider cache can no longer reuse: everything from
   * the first changed part on, in wire order (tools, system, history), at four characters a token.
   */
  readonly lostPrefixTokens: number;
}

const sumChars = (parts: readonly PrefixPart[], from = 0) => {
  let total = 0;
  for (let index = from; index < parts.length; index += 1) total += (parts[index] as PrefixPart).chars;
  return total;
};

/**
 * What a comparison needs of the previous request's history: its length, its characters, and where
 * the next request's history first differs from it (`rewrittenAt`, with the characters from there
 * on), if it does before its end. @internal
 */
export interface HistoryChange {
  readonly length: number;
  readonly chars: number;
  readonly rewrittenAt?: number | undefined;
  readonly lostChars?: number | undefined;
}

/** The parts of a fingerprint before the history. */
type PrefixHead = Omit<PrefixFingerprint, 'digest' | 'history'>;

/**
 * Whether `next` keeps every system message of `previous` at its place and only adds system
 * messages past the previous request's last message (sent in place there, an append).
 */
function systemAppended(previous: PrefixHead, next: PrefixHead, historyLength: number): boolean {
  const before = previous.systems;
  const after = next.systems;
  if (before === undefined || after === undefined || after.length <= before.length) return false;
  for (const [at, part] of before.entries())
    if (after[at]?.index !== part.index || after[at]?.hash !== part.hash) return false;
  const end = before.length + historyLength;
  for (let at = before.length; at < after.length; at += 1) if ((after[at]?.index ?? -1) < end) return false;
  return true;
}

/**
 * Compares two requests' prefixes in wire order (tools, system, settings, history). Undefined when
 * `next` keeps all of `previous` and only appends messages (system messages too, past its end): a
 * prefix cache still holds all of it.
 * A new tool is always a change, appended or not (what follows the tools is no longer cached).
 */
export function diffPrefix(previous: PrefixFingerprint, next: PrefixFingerprint): PrefixBreak | undefined {
  const oldHistory = previous.history;
  const newHistory = next.history;
  let firstMessage = 0;
  while (
    firstMessage < oldHistory.length &&
    firstMessage < newHistory.length &&
    oldHistory[firstMessage]?.hash === newHistory[firstMessage]?.hash
  )
    firstMessage += 1;
  const rewritten = firstMessage < oldHistory.length;
  return diffHeads(previous, next, {
    length: oldHistory.length,
    chars: sumChars(oldHistory),
    ...(rewritten ? { rewrittenAt: firstMessage, lostChars: sumChars(oldHistory, firstMessage) } : {}),
  });
}

/**
 * {@link diffPrefix} with the history already compared (a tracker compares messages itself):
 * `history` tells the previous history's size and where the next one first differs. @internal
 */
export function diffHeads(previous: PrefixHead, next: PrefixHead, history: HistoryChange): PrefixBreak | undefined {
  const changes: PrefixChange[] = [];
  // Where the previous prefix stops being reusable: an index into tools, then system, then history.
  let lostChars: number | undefined;
  const before = previous.tools;
  const after = next.tools;
  let firstTool = 0;
  while (
    firstTool < before.length &&
    firstTool < after.length &&
    before[firstTool]?.name === after[firstTool]?.name &&
    before[firstTool]?.hash === after[firstTool]?.hash
  )
    firstTool += 1;
  if (firstTool < before.length || firstTool < after.length) {
    lostChars = (firstTool < before.length ? sumChars(before, firstTool) : 0) + previous.system.chars + history.chars;
    const oldByName = new Map(before.map((tool, index) => [tool.name, { tool, index }]));
    const newNames = new Set(after.map((tool) => tool.name));
    const lastOld = after.reduce((last, tool, index) => (oldByName.has(tool.name) ? index : last), -1);
    for (const [index, tool] of after.entries()) {
      const old = oldByName.get(tool.name);
      if (old === undefined)
        changes.push({
          part: 'tool',
          change: 'added',
          toolName: tool.name,
          ...(index > lastOld ? { appended: true } : {}),
        });
      else if (old.tool.hash !== tool.hash) changes.push({ part: 'tool', change: 'changed', toolName: tool.name });
    }
    for (const tool of before)
      if (!newNames.has(tool.name)) changes.push({ part: 'tool', change: 'removed', toolName: tool.name });
    const keptOld = before.filter((tool) => newNames.has(tool.name)).map((tool) => tool.name);
    const keptNew = after.filter((tool) => oldByName.has(tool.name)).map((tool) => tool.name);
    for (const [index, name] of keptNew.entries())
      if (keptOld[index] !== name) changes.push({ part: 'tool', change: 'reordered', toolName: name });
  }
  if (previous.system.hash !== next.system.hash && !systemAppended(previous, next, history.length)) {
    changes.push({ part: 'system', change: 'changed' });
    lostChars ??= previous.system.chars + history.chars;
  }
  if (previous.settings !== undefined && next.settings !== undefined && previous.settings.hash !== next.settings.hash) {
    changes.push({ part: 'settings', change: 'changed' });
    lostChars ??= history.chars;
  }
  if (history.rewrittenAt !== undefined) {
    changes.push({ part: 'history', change: 'rewritten', index: history.rewrittenAt });
    lostChars ??= history.lostChars ?? 0;
  }
  if (changes.length === 0) return undefined;
  return { changes, lostPrefixTokens: Math.ceil((lostChars ?? 0) / 4) };
}
