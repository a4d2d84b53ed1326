import { describe, expect, it } from 'vitest';
import { cancelDeadline, scheduleDeadline } from './call-deadlines.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('call deadlines (one timer per delay)', () => {
  it('expires the deadlines of one delay in the order they started, and never a cancelled one', async () => {
    const fired: string[] = [];
    const first = scheduleDeadline(5, () => fired.push('first'));
    const second = scheduleDeadline(5, () => fired.push('second'));
    scheduleDeadline(5, () => fired.push('third'));
    cancelDeadline(second);
    await sleep(40);
    expect(fired).toEqual(['first', 'third']);
    // Cancelling after expiry is a no-op.
    cancelDeadline(first);
    expect(fired).toEqual(['first', 'third']);
  });

  it('does not expire a later deadline at the time of an earlier, cancelled one', async () => {
    const early = scheduleDeadline(30, () => {
      throw new Error('a cancelled deadline expired');
    });
    await sleep(15);
    cancelDeadline(early);
    // The lane's timer is still armed for `early`; `late` joins the emptied lane and must wait its own 30 ms.
    const scheduledAt = performance.now();
    const firedAt = await new Promise<number>((resolve) => {
      scheduleDeadline(30, () => resolve(performance.now()));
    });
    // Timers may fire up to about a millisecond early on this clock, never most of a delay early
    // (a loaded machine only makes it later).
    expect(firedAt - scheduledAt).toBeGreaterThanOrEqual(28);
  });

  it('keeps separate delays apart: a short deadline fires before a long one scheduled first', async () => {
    const fired: string[] = [];
    const long = scheduleDeadline(60_000, () => fired.push('long'));
    scheduleDeadline(5, () => fired.push('short'));
    await sleep(40);
    expect(fired).toEqual(['short']);
    cancelDeadline(long);
  });

  it('treats delays as setTimeout does: below 1 ms or not a number means 1 ms', async () => {
    const fired: string[] = [];
    scheduleDeadline(0, () => fired.push('zero'));
    scheduleDeadline(Number.NaN, () => fired.push('nan'));
    await sleep(30);
    expect(fired).toEqual(['zero', 'nan']);
  });

  it('lets a callback schedule another deadline of the same delay', async () => {
    const fired: string[] = [];
    scheduleDeadline(5, () => {
      fired.push('outer');
      scheduleDeadline(5, () => fired.push('inner'));
    });
    await sleep(60);
    expect(fired).toEqual(['outer', 'inner']);
  });
});
