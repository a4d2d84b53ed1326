/** The part of `node:fs` the clock reads with. @internal */
export interface ClockFs {
  readFileSync(path: string, encoding: 'latin1'): string;
  readlinkSync(path: string): string;
}

/**
 * CPU time of one OS thread of this process in milliseconds, from Linux's
 * `/proc/self/task/<tid>/schedstat` (nanoseconds on the CPU), or `undefined` when there is no such
 * file (another OS, a thread that has ended). Self-contained: sent to threads as source text.
 * @internal
 */
export function readThreadCpuMs(fs: ClockFs, tid: number): number | undefined {
  try {
    const ns = Number(fs.readFileSync(`/proc/self/task/${tid}/schedstat`, 'latin1').split(' ', 1)[0]);
    return Number.isFinite(ns) && ns >= 0 ? ns / 1e6 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The OS thread id of the calling thread (from `/proc/thread-self`), or `undefined` off Linux.
 * Self-contained: sent to threads as source text.
 * @internal
 */
export function ownThreadId(fs: ClockFs): number | undefined {
  try {
    const tid = Number(/\/task\/(\d+)$/.exec(fs.readlinkSync('/proc/thread-self'))?.[1]);
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}
