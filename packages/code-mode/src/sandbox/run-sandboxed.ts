import type { JsonValue } from '@tiny/tools';
import { CodeModeLimitError } from '../errors/code-mode-limit-error.js';
import { CodeProgramError } from '../errors/code-program-error.js';
import type { CodeModeLimits } from '../limits.js';
import type { SandboxDoneMessage, SandboxRunMessage, SandboxSettleMessage } from './sandbox-worker.js';
import { acquireWorker, KEEP_BELOW_BYTES, releaseWorker } from './worker-pool.js';

/** What the sandbox asks of its host: the callable names and how to run one call. */
export interface SandboxHost {
  /** The functions the program may call (globals, and members of `tools`). */
  readonly names: readonly string[];
  /** Runs one call; a throw (its message) becomes the program's rejected promise. */
  call(name: string, args: JsonValue): Promise<JsonValue>;
  /** Whether an error from `call` ends the whole program (it is then what this run throws). */
  stops?(error: unknown): boolean;
}

/** A program's result: its return value (JSON text) and what it printed. */
export interface SandboxOutcome {
  /** The return value as JSON text (`null` for `undefined`). */
  readonly json: string;
  readonly logs: readonly string[];
  /** Console characters dropped past `maxLogChars`. */
  readonly droppedLogChars: number;
  readonly nestedCalls: number;
  /** CPU time spent inside the sandbox, in ms. */
  readonly cpuTimeMs: number;
}

type Limits = Pick<
  CodeModeLimits,
  'memoryBytes' | 'stackBytes' | 'cpuTimeMs' | 'maxNestedCalls' | 'maxNestedResultChars' | 'maxLogChars'
>;

type WorkerMessage =
  | SandboxDoneMessage
  | { readonly type: 'log'; readonly line: string }
  | { readonly type: 'call'; readonly id: number; readonly name: string; readonly args: string };

/** How far past `cpuTimeMs` the host's watchdog lets a program run before it ends its thread. */
const HARD_STOP_FACTOR = 1.5;

/**
 * Runs `source` (JavaScript, the body of an async function) in a fresh QuickJS runtime, in its own
 * WebAssembly module instance on a worker thread, under `limits`: the module's memory cannot grow
 * past `memoryBytes` (plus the module's own 16 MiB), a stack limit, a CPU-time budget (time spent
 * awaiting host calls does not count) enforced twice: by QuickJS's interrupt handler, and by a
 * watchdog on the host's event loop that ends the worker thread once the program has run
 * 1.5 × `cpuTimeMs` (a C builtin never polls the interrupt handler), a cap on nested calls,
 * `console` captured. Values cross the boundary only as JSON strings. Every host call still in
 * flight is awaited before this settles, so none outlives the program.
 * @throws {CodeModeLimitError} when a limit stops the program.
 * @throws {CodeProgramError} when it does not parse, throws, or never finishes.
 * @throws the signal's reason when `signal` aborts first, or the error of a host call that `stops`.
 */
export async function runSandboxed(
  source: string,
  host: SandboxHost,
  limits: Limits,
  signal?: AbortSignal,
): Promise<SandboxOutcome> {
  if (signal?.aborted) throw reasonOf(signal);
  const worker = await acquireWorker();
  const shared = new SharedArrayBuffer(3 * Float64Array.BYTES_PER_ELEMENT);
  const cells = new Float64Array(shared);
  const logs: string[] = [];
  const inflight = new Set<Promise<void>>();
  let ended = false;
  let reusable = false;
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  let resolveRun!: (outcome: SandboxOutcome) => void;
  let rejectRun!: (error: unknown) => void;
  const result = new Promise<SandboxOutcome>((resolve, reject) => {
    resolveRun = resolve;
    rejectRun = reject;
  });
  // Ends the run with `error` and the worker with it, wherever the program is.
  const kill = (error: unknown) => {
    if (ended) return;
    ended = true;
    void worker.terminate();
    rejectRun(error);
  };
  const memoryError = () => new CodeModeLimitError({ limitKind: 'memory', limit: limits.memoryBytes, logs });
  const cpuUsed = () => {
    const start = cells[1] ?? 0;
    return (cells[0] ?? 0) + (start > 0 ? performance.timeOrigin + performance.now() - start : 0);
  };
  const hardStop = limits.cpuTimeMs * HARD_STOP_FACTOR;
  const check = () => {
    if (ended) return;
    const used = cpuUsed();
    if (used >= hardStop) {
      kill(new CodeModeLimitError({ limitKind: 'cpu_time', limit: limits.cpuTimeMs, logs }));
      return;
    }
    watchdog = setTimeout(check, Math.max(2, Math.min(hardStop - used, limits.cpuTimeMs / 4)));
  };
  const onAbort = () => kill(reasonOf(signal));
  const answer = (message: SandboxSettleMessage) => {
    if (!ended) worker.postMessage(message);
  };
  const nestedCall = (id: number, name: string, argsText: string) => {
    const task = (async () => {
      let value: JsonValue;
      try {
        value = await host.call(name, JSON.parse(argsText) as JsonValue);
      } catch (error) {
        if (host.stops?.(error)) kill(error instanceof Error ? error : new Error(String(error)));
        else answer({ type: 'settle', id, ok: false, text: error instanceof Error ? error.message : String(error) });
        return;
      }
      const text = JSON.stringify(value ?? null);
      if (text.length > limits.maxNestedResultChars) {
        answer({
          type: 'settle',
          id,
          ok: false,
          text: `result of \`${name}\` is ${text.length} characters, over the limit of ${limits.maxNestedResultChars}`,
        });
        return;
      }
      answer({ type: 'settle', id, ok: true, text });
    })().finally(() => inflight.delete(task));
    inflight.add(task);
  };
  const onMessage = (message: WorkerMessage) => {
    if (ended) return;
    if (message.type === 'log') logs.push(message.line);
    else if (message.type === 'call') nestedCall(message.id, message.name, message.args);
    else {
      ended = true;
      reusable = message.peakMemoryBytes <= KEEP_BELOW_BYTES && (message.ok || message.limitKind !== 'memory');
      if (message.ok) {
        resolveRun({
          json: message.json,
          logs,
          droppedLogChars: message.droppedLogChars,
          nestedCalls: message.nestedCalls,
          cpuTimeMs: message.cpuTimeMs,
        });
      } else if (message.limitKind !== undefined) {
        const limit = {
          cpu_time: limits.cpuTimeMs,
          memory: limits.memoryBytes,
          stack: limits.stackBytes,
          nested_calls: limits.maxNestedCalls,
        }[message.limitKind];
        rejectRun(new CodeModeLimitError({ limitKind: message.limitKind, limit, logs }));
      } else {
        rejectRun(new CodeProgramError({ failure: message.failure ?? 'threw', detail: message.detail, logs }));
      }
    }
  };
  const onError = (error: Error) => {
    if (cells[2] === 1 || (error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY') kill(memoryError());
    else kill(new CodeProgramError({ failure: 'threw', detail: `the sandbox failed: ${error.message}`, logs }));
  };
  const onExit = (code: number) => {
    kill(new CodeProgramError({ failure: 'threw', detail: `the sandbox ended (exit code ${code})`, logs }));
  };
  worker.on('message', onMessage);
  worker.on('error', onError);
  worker.on('exit', onExit);
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) onAbort();
  try {
    const run: SandboxRunMessage = {
      type: 'run',
      source,
      names: host.names,
      limits: {
        memoryBytes: limits.memoryBytes,
        stackBytes: limits.stackBytes,
        cpuTimeMs: limits.cpuTimeMs,
        maxNestedCalls: limits.maxNestedCalls,
        maxLogChars: limits.maxLogChars,
      },
      shared,
    };
    if (!ended) {
      worker.postMessage(run);
      check();
    }
    return await result;
  } finally {
    clearTimeout(watchdog);
    signal?.removeEventListener('abort', onAbort);
    worker.off('message', onMessage);
    worker.off('error', onError);
    worker.off('exit', onExit);
    releaseWorker(worker, reusable);
    // Nested calls never outlive the program: wait for the ones in flight.
    if (inflight.size > 0) await Promise.allSettled([...inflight]);
  }
}

function reasonOf(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new Error(String(reason));
}
