// The CPU time of this process's main thread, in microseconds, from Linux's
// /proc/<pid>/task/<pid>/schedstat (nanoseconds on a CPU). Time spent waiting for a CPU (other
// processes, or V8's own helper threads, on a busy machine) is not in it, so it tells the work a
// request does on the JavaScript thread from the wait around it. `undefined` where there is no
// such file (other systems).
import { readFileSync } from 'node:fs';

const path = `/proc/${process.pid}/task/${process.pid}/schedstat`;

function read() {
  try {
    return Number(readFileSync(path, 'utf8').split(' ')[0]) / 1000;
  } catch {
    return undefined;
  }
}

const available = read() !== undefined;

/** Microseconds the main thread has been on a CPU, or `undefined` off Linux. */
export const mainThreadCpuUs = available ? read : () => undefined;
