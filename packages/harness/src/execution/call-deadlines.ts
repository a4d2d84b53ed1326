/**
 * Deadlines of the asynchronous calls running, on one timer per delay instead of one per call.
 *
 * Calls under the same delay (most inherit the same budget) are due in the order they started, so
 * each delay keeps its calls in a linked list, first due first, and one Node timer armed for the
 * first. A call that settles leaves the list; the timer is not cleared then but unreferenced once its
 * list is empty (it no longer keeps the process alive), and referenced again when a call joins. When
 * it fires it expires the call it was armed for (and any others due by then) and re-arms for the next
 * one. A `setTimeout` per call cost a timer object, an async id and a timer-list insertion and removal
 * each: about a fifth of the loop's own time in a long run of one-call turns.
 */

/** A call's deadline in its delay's list. @internal */
export interface CallDeadline {
  /** When it is due, on `performance.now()`'s clock. */
  readonly at: number;
  /** What to do when it expires (called with {@link target}); `undefined` once it left the list (expired or cancelled). */
  onExpire: ((target: never) => void) | undefined;
  /**
   * What `onExpire` is called with (the callback can be a module-level function, not a closure per
   * call); cleared with it, so a deadline the lane's timer still points to holds no call's state.
   */
  target: unknown;
  previous: CallDeadline | undefined;
  next: CallDeadline | undefined;
  readonly lane: DeadlineLane;
}

interface DeadlineLane {
  readonly delayMs: number;
  first: CallDeadline | undefined;
  last: CallDeadline | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** The deadline the timer was armed for (it may have left the list since). */
  armedFor: CallDeadline | undefined;
}

const lanes = new Map<number, DeadlineLane>();

/** The longest delay a Node or browser timer takes (2^31 - 1 ms, about 24.8 days). */
const MAX_DELAY_MS = 2_147_483_647;

/**
 * A delay below 1 ms (or not a number) becomes 1 ms, as `setTimeout` has it; one above 2^31 - 1 ms
 * is clamped to that (`setTimeout` would make it 1 ms: a long deadline would expire at once).
 */
function normalizeDelay(delayMs: number): number {
  if (delayMs > MAX_DELAY_MS) return MAX_DELAY_MS;
  // Not `Math.max(delayMs, 1)`: NaN becomes 1 too.
  if (!(delayMs >= 1)) return 1;
  return delayMs;
}

type Unrefable = { ref(): unknown; unref(): unknown };
const canUnref = (timer: unknown): timer is Unrefable =>
  typeof timer === 'object' && timer !== null && typeof (timer as Partial<Unrefable>).unref === 'function';

function arm(lane: DeadlineLane, deadline: CallDeadline, delayMs: number): void {
  lane.armedFor = deadline;
  lane.timer = setTimeout(expireLane, delayMs, lane);
}

/** The lane's timer fired: expires what is due (at least the deadline it was armed for), re-arms for the rest. */
function expireLane(lane: DeadlineLane): void {
  const armedFor = lane.armedFor;
  lane.timer = undefined;
  lane.armedFor = undefined;
  const now = performance.now();
  // The timer was armed for `armedFor` with its remaining delay: it is due even if this clock
  // disagrees (a faked timer), and so is any deadline not later than it.
  const limit = armedFor?.onExpire !== undefined ? Math.max(now, armedFor.at) : now;
  while (lane.first !== undefined && lane.first.at <= limit) {
    const deadline = lane.first;
    const onExpire = deadline.onExpire as ((target: unknown) => void) | undefined;
    const target = deadline.target;
    remove(deadline);
    try {
      onExpire?.(target);
    } catch (error) {
      // Reported as a throwing timer callback would be, without leaving later deadlines unarmed.
      queueMicrotask(() => {
        throw error;
      });
    }
  }
  const first = lane.first;
  if (first === undefined) {
    if (lane.timer === undefined && lanes.get(lane.delayMs) === lane) lanes.delete(lane.delayMs);
    return;
  }
  if (lane.timer === undefined) arm(lane, first, Math.min(lane.delayMs, Math.max(1, Math.ceil(first.at - now))));
}

function remove(deadline: CallDeadline): void {
  const lane = deadline.lane;
  deadline.onExpire = undefined;
  deadline.target = undefined;
  if (deadline.previous === undefined) lane.first = deadline.next;
  else deadline.previous.next = deadline.next;
  if (deadline.next === undefined) lane.last = deadline.previous;
  else deadline.next.previous = deadline.previous;
  deadline.previous = undefined;
  deadline.next = undefined;
}

/**
 * Calls `onExpire(target)` after `delayMs` (below 1 ms: 1 ms; above 2^31 - 1 ms: 2^31 - 1 ms),
 * unless {@link cancelDeadline} removed it first. An infinite delay never expires: nothing is
 * scheduled and `undefined` comes back. @internal
 */
export function scheduleDeadline<T>(
  delayMs: number,
  onExpire: (target: T) => void,
  target: T,
): CallDeadline | undefined {
  if (delayMs === Number.POSITIVE_INFINITY) return undefined;
  const delay = normalizeDelay(delayMs);
  let lane = lanes.get(delay);
  if (lane === undefined) {
    lane = { delayMs: delay, first: undefined, last: undefined, timer: undefined, armedFor: undefined };
    lanes.set(delay, lane);
  }
  const deadline: CallDeadline = {
    at: performance.now() + delay,
    onExpire: onExpire as (target: never) => void,
    target,
    previous: lane.last,
    next: undefined,
    lane,
  };
  const wasEmpty = lane.first === undefined;
  if (lane.last === undefined) lane.first = deadline;
  else lane.last.next = deadline;
  lane.last = deadline;
  // An armed timer is due no later than this deadline (it was armed for one that started earlier).
  if (lane.timer === undefined) arm(lane, deadline, delay);
  else if (wasEmpty && canUnref(lane.timer)) lane.timer.ref();
  return deadline;
}

/** Removes a deadline that has not expired: its callback will not run. @internal */
export function cancelDeadline(deadline: CallDeadline): void {
  if (deadline.onExpire === undefined) return;
  const lane = deadline.lane;
  remove(deadline);
  if (lane.first !== undefined || lane.timer === undefined) return;
  // Nothing left to wait for: the armed timer no longer keeps the process alive (or, where timers
  // cannot be unreferenced, it is cleared).
  if (canUnref(lane.timer)) lane.timer.unref();
  else {
    clearTimeout(lane.timer);
    lane.timer = undefined;
    lane.armedFor = undefined;
    lanes.delete(lane.delayMs);
  }
}
