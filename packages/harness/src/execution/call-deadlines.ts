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
  /** What to do when it expires; `undefined` once it left the list (expired or cancelled). */
  onExpire: (() => void) | undefined;
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

/** Node's own rule: a delay below 1 ms or above 2^31 - 1 ms (or not a number) becomes 1 ms. */
function normalizeDelay(delayMs: number): number {
  return delayMs >= 1 && delayMs <= 2_147_483_647 ? delayMs : 1;
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
    const onExpire = deadline.onExpire;
    remove(deadline);
    try {
      onExpire?.();
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
  if (deadline.previous === undefined) lane.first = deadline.next;
  else deadline.previous.next = deadline.next;
  if (deadline.next === undefined) lane.last = deadline.previous;
  else deadline.next.previous = deadline.previous;
  deadline.previous = undefined;
  deadline.next = undefined;
}

/**
 * Calls `onExpire` after `delayMs` (normalised as `setTimeout` does), unless {@link cancelDeadline}
 * removed it first. @internal
 */
export function scheduleDeadline(delayMs: number, onExpire: () => void): CallDeadline {
  const delay = normalizeDelay(delayMs);
  let lane = lanes.get(delay);
  if (lane === undefined) {
    lane = { delayMs: delay, first: undefined, last: undefined, timer: undefined, armedFor: undefined };
    lanes.set(delay, lane);
  }
  const deadline: CallDeadline = {
    at: performance.now() + delay,
    onExpire,
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
