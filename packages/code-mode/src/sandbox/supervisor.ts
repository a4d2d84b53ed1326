import type { MessagePort } from 'node:worker_threads';

/** What the host asks of the supervisor thread. @internal */
export type SupervisorRequest =
  | { readonly type: 'spawn'; readonly id: number; readonly data: object; readonly port: MessagePort }
  | {
      readonly type: 'watch';
      readonly id: number;
      readonly shared: SharedArrayBuffer;
      readonly cpuTimeMs: number;
      readonly hardStopMs: number;
    }
  | { readonly type: 'unwatch'; readonly id: number }
  | { readonly type: 'terminate'; readonly id: number };

/** What the supervisor tells the host about one sandbox thread. @internal */
export type SupervisorReport =
  | { readonly type: 'error'; readonly id: number; readonly message: string; readonly code?: string }
  | { readonly type: 'exit'; readonly id: number; readonly code: number };

/** What the supervisor is started with. @internal */
export interface SupervisorData {
  /** Source text of a sandbox thread (eval'd). */
  readonly sandboxSource: string;
  /** V8 heap limits of every sandbox thread. */
  readonly resourceLimits: { readonly maxOldGenerationSizeMb: number; readonly maxYoungGenerationSizeMb: number };
}

interface ParentPort {
  on(event: 'message', listener: (message: SupervisorRequest) => void): void;
  postMessage(message: SupervisorReport): void;
}

interface ChildWorker {
  on(event: 'error', listener: (error: Error & { code?: string }) => void): void;
  on(event: 'exit', listener: (code: number) => void): void;
  terminate(): Promise<number>;
}

type WorkerConstructor = new (
  source: string,
  options: { eval: true; workerData: object; transferList: readonly MessagePort[]; resourceLimits: object },
) => ChildWorker;

/**
 * The body of the supervisor thread. Self-contained (sent as source text). It owns every sandbox
 * thread (only a thread's owner can end it) and runs their CPU watchdogs on its own event loop,
 * which does nothing else: however long the host's event loop is blocked, a program past its hard
 * stop is ended here (its shared cell 3 set to 1 first, so the host reports a CPU-time limit). Host
 * and sandbox talk over their own `MessagePort`, not through this thread.
 * @internal
 */
export function supervisorMain(
  port: ParentPort,
  data: SupervisorData,
  WorkerOf: WorkerConstructor,
  readThreadCpuMs: (tid: number) => number | undefined,
): void {
  // A program whose thread gets no CPU (a starved or broken clock) is still ended after this many
  // hard stops of wall time spent in its own slices.
  const WALL_BACKSTOP_FACTOR = 20;
  const threads = new Map<number, { worker: ChildWorker; timer?: ReturnType<typeof setTimeout> }>();
  const now = () => performance.timeOrigin + performance.now();
  port.on('message', (request) => {
    if (request.type === 'spawn') {
      const { id } = request;
      const worker = new WorkerOf(data.sandboxSource, {
        eval: true,
        workerData: { ...request.data, port: request.port },
        transferList: [request.port],
        resourceLimits: data.resourceLimits,
      });
      const entry: { worker: ChildWorker; timer?: ReturnType<typeof setTimeout> } = { worker };
      threads.set(id, entry);
      worker.on('error', (error) =>
        port.postMessage({
          type: 'error',
          id,
          message: String(error?.message ?? error),
          ...(typeof error?.code === 'string' ? { code: error.code } : {}),
        }),
      );
      worker.on('exit', (code) => {
        clearTimeout(entry.timer);
        threads.delete(id);
        port.postMessage({ type: 'exit', id, code });
      });
      return;
    }
    const entry = threads.get(request.id);
    if (entry === undefined) return;
    clearTimeout(entry.timer);
    entry.timer = undefined;
    if (request.type === 'terminate') void entry.worker.terminate();
    else if (request.type === 'watch') {
      const cells = new Float64Array(request.shared);
      const { hardStopMs, cpuTimeMs } = request;
      const check = () => {
        const start = cells[1] ?? 0;
        const slice = start > 0 ? now() - start : 0;
        // With the thread's CPU clock (Linux), the CPU the thread got since the program started
        // decides, whatever the thread was doing (a slice, a C builtin, reading the program's
        // values between slices); otherwise the sandbox's estimate (wall time of its slices).
        let used = (cells[0] ?? 0) + slice;
        const tid = cells[6] ?? 0;
        if (tid > 0) {
          const cpu = readThreadCpuMs(tid);
          if (cpu !== undefined) used = cpu - (cells[7] ?? 0);
        }
        const wall = (cells[5] ?? 0) + slice;
        if (used >= hardStopMs || wall >= hardStopMs * WALL_BACKSTOP_FACTOR) {
          cells[3] = 1;
          void entry.worker.terminate();
          return;
        }
        entry.timer = setTimeout(check, Math.max(2, Math.min(hardStopMs - used, cpuTimeMs / 4)));
      };
      check();
    }
  });
}
