import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type ClockFs, ownThreadId, readThreadCpuMs } from './thread-cpu-clock.js';

const linux = process.platform === 'linux';

describe('thread CPU clock', () => {
  it.runIf(linux)('counts CPU the thread used, not wall time it slept', () => {
    const tid = ownThreadId(fs);
    expect(tid).toBeGreaterThan(0);
    const before = readThreadCpuMs(fs, tid as number) as number;
    // A blocked thread gets no CPU: 200 ms asleep add (almost) nothing.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    const asleep = (readThreadCpuMs(fs, tid as number) as number) - before;
    expect(asleep).toBeLessThan(100);
    let spin = 0;
    const stopAt = (readThreadCpuMs(fs, tid as number) as number) + 30;
    while ((readThreadCpuMs(fs, tid as number) as number) < stopAt) spin += 1;
    expect(spin).toBeGreaterThan(0);
  });

  it('is absent where /proc cannot be read, so limits fall back to wall time', () => {
    const none: ClockFs = {
      readFileSync: () => {
        throw new Error('ENOENT');
      },
      readlinkSync: () => {
        throw new Error('ENOENT');
      },
    };
    expect(ownThreadId(none)).toBeUndefined();
    expect(readThreadCpuMs(none, 1)).toBeUndefined();
    const garbage: ClockFs = { readFileSync: () => 'x y z', readlinkSync: () => 'not/a/task' };
    expect(ownThreadId(garbage)).toBeUndefined();
    expect(readThreadCpuMs(garbage, 1)).toBeUndefined();
  });
});
