import type { WireBlock, WireMessage } from './to-wire-messages.js';

/** The API's limit on `cache_control` breakpoints per request. */
export const MAX_CACHE_BREAKPOINTS = 4;

/** Block types the API refuses `cache_control` on. */
const UNMARKABLE: ReadonlySet<unknown> = new Set(['thinking', 'redacted_thinking']);

/** The wire parts breakpoints can go on. @internal */
export interface CacheTargets {
  readonly tools: WireBlock[];
  readonly system: WireBlock[];
  readonly messages: WireMessage[];
  /** Where the previous request ended, on the wire (see `WirePrompt.previousEnd`). */
  readonly previousEnd?: number | undefined;
}

function countMarks(targets: CacheTargets): number {
  let count = 0;
  const visit = (block: WireBlock) => {
    if (block.cache_control !== undefined) count += 1;
  };
  targets.tools.forEach(visit);
  targets.system.forEach(visit);
  for (const message of targets.messages) message.content.forEach(visit);
  return count;
}

/** The last block of a message that may carry `cache_control`. */
function lastMarkable(message: WireMessage | undefined): WireBlock | undefined {
  if (message === undefined) return undefined;
  for (let index = message.content.length - 1; index >= 0; index -= 1) {
    const block = message.content[index] as WireBlock;
    if (!UNMARKABLE.has(block.type) && !(block.type === 'text' && block.text === '')) return block;
  }
  return undefined;
}

/**
 * Creates a marker that puts `mark` on blocks, never more than the API's four breakpoints in all:
 * breakpoints already in the request (set by the host, in server tools or replayed blocks) count
 * and stay; a block that already has one is left as it is. @internal
 */
export function createBreakpointMarker(
  targets: CacheTargets,
  mark: Readonly<Record<string, unknown>>,
): (block: WireBlock | undefined) => void {
  let left = MAX_CACHE_BREAKPOINTS - countMarks(targets);
  return (block) => {
    if (block === undefined || left <= 0 || block.cache_control !== undefined) return;
    block.cache_control = { ...mark };
    left -= 1;
  };
}

/**
 * `cacheControl: 'auto'`: breakpoints at the end of the stable prefix, most valuable first, within
 * the limit: the newest message (the whole request, which an agent's next request repeats), the
 * last tool declaration, the last system block, and the end of the previous request (the last wire
 * message before the latest assistant turn, by wire position: an assistant turn dropped from the
 * wire, being empty, still marks where the previous request ended), so a turn that added many blocks still finds the last write
 * within the API's lookback. @internal
 */
export function placeAutoBreakpoints(targets: CacheTargets, mark: (block: WireBlock | undefined) => void): void {
  const { messages } = targets;
  mark(lastMarkable(messages[messages.length - 1]));
  mark(targets.tools[targets.tools.length - 1]);
  mark(targets.system[targets.system.length - 1]);
  if (targets.previousEnd !== undefined) mark(lastMarkable(messages[targets.previousEnd]));
}
