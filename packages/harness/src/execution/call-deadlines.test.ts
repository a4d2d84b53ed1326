import { afterEach, describe, expect, it, vi } from 'vitest';
import { type CallDeadline, cancelDeadline, scheduleDeadline } from './call-deadlines.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A finite deadline calling `callback` (with no target). */
function schedule(delayMs: number, callback: () => void): CallDeadline {
  const deadline = scheduleDeadline(delayMs, callback, undefined);
  if (deadline === undefined) throw new Error('a finite delay was not scheduled');
  return deadline;
}

describe('call deadlines (one timer per delay)', () => {
  it('expires the deadlines of one delay in the order they started, and never a cancelled one', async () => {
    const fired: string[] = [];
    const first = schedule(5, () => fired.push('first'));
    const second = schedule(5, () => fired.push('second'));
    schedule(5, () => fired.push('third'));
    cancelDeadline(second);
    await sleep(40);
    expect(fired).toEqual(['first', 'third']);
    // Cancelling after expiry is a no-op.
    cancelDeadline(first);
    expect(fired).toEqual(['first', 'third']);
  });

  it('does not expire a later deadline at the time of an earlier, cancelled one', async () => {
    const early = schedule(30, () => {
      throw new Error('a cancelled deadline expired');
    });
    await sleep(15);
    cancelDeadline(early);
    // The lane's timer is still armed for `early`; `late` joins the emptied lane and must wait its own 30 ms.
    const scheduledAt = performance.now();
    const firedAt = await new Promise<number>((resolve) => {
      schedule(30, () => resolve(performance.now()));
    });
    // Timers may fire up to about a millisecond early on this clock, never most of a delay early
    // (a loaded machine only makes it later).
    expect(firedAt - scheduledAt).toBeGreaterThanOrEqual(28);
  });

  it('keeps separate delays apart: a short deadline fires before a long one scheduled first', async () => {
    const fired: string[] = [];
    const long = schedule(60_000, () => fired.push('long'));
    schedule(5, () => fired.push('short'));
    await sleep(40);
    expect(fired).toEqual(['short']);
    cancelDeadline(long);
  });

  it('treats delays as setTimeout does: below 1 ms or not a number means 1 ms', async () => {
    const fired: string[] = [];
    schedule(0, () => fired.push('zero'));
    schedule(Number.NaN, () => fired.push('nan'));
    await sleep(30);
    expect(fired).toEqual(['zero', 'nan']);
  });

  it('calls back with its target, and keeps none once it expired', async () => {
    const target = { fired: 0 };
    const deadline = scheduleDeadline(5, (reached: typeof target) => (reached.fired += 1), target);
    await sleep(40);
    expect(target.fired).toBe(1);
    expect(deadline?.target).toBeUndefined();
  });

  it('lets a callback schedule another deadline of the same delay', async () => {
    const fired: string[] = [];
    schedule(5, () => {
      fired.push('outer');
      schedule(5, () => fired.push('inner'));
    });
    await sleep(60);
    expect(fired).toEqual(['outer', 'inner']);
  });
});

describe('call deadlines above the longest timer delay', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('clamps a delay above 2^31 - 1 ms to 2^31 - 1 ms instead of expiring at once', () => {
    vi.useFakeTimers();
    const fired: string[] = [];
    schedule(2 ** 31 + 5_000, () => fired.push('long'));
    // setTimeout turns such a delay into 1 ms.
    vi.advanceTimersByTime(60_000);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(2 ** 31 - 1 - 60_000);
    expect(fired).toEqual(['long']);
  });

  it('never expires an infinite delay (nothing is scheduled)', () => {
    vi.useFakeTimers();
    const fired: string[] = [];
    expect(scheduleDeadline(Number.POSITIVE_INFINITY, () => fired.push('never'), undefined)).toBeUndefined();
    vi.advanceTimersByTime(2 ** 31);
    expect(fired).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
