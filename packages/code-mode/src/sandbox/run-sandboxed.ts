import { InvalidInputError, type JsonValue } from '@tiny/tools';
import { CodeModeLimitError } from '../errors/code-mode-limit-error.js';
import { CodeProgramError } from '../errors/code-program-error.js';
import { CodeSandboxError } from '../errors/code-sandbox-error.js';
import { type CodeModeLimits, MAX_STACK_BYTES } from '../limits.js';
import type { SandboxDoneMessage, SandboxRunMessage, SandboxSettleMessage } from './sandbox-worker.js';
import { acquireWorker, KEEP_BELOW_BYTES, KEEP_HEAP_BELOW_BYTES, releaseWorker } from './worker-pool.js';

/** What the sandbox asks of its host: the callable names and how to run one call. */
export interface SandboxHost {
  /** The functions the program may call (globals, and members of `tools`). */
  readonly names: readonly string[];
  /** Runs one call; a throw (its message) becomes the program's rejected promise. */
  call(name: string, args: JsonValue): Promise<JsonValue>;
  /** Whether an error from `call` ends the whole program (it is then what this run throws). */
  stops?(error: unknown): boolean;
  /**
   * Why `name` cannot be called (a refusal message), checked before its arguments are parsed on
   * the host; undefined lets the call go on to {@link SandboxHost.call}.
   */
  refuses?(name: string): string | undefined;
  /** Called once the program has ended (for any reason): abort the calls still in flight. */
  ended?(): void;
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

/** How long a finished program waits for its aborted nested calls to settle, in ms. */
const NESTED_SETTLE_GRACE_MS = 2000;

/** Waits for `tasks` to settle, at most `ms`. */
async function settledWithin(tasks: readonly Promise<void>[], ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([Promise.allSettled(tasks), bound]);
  clearTimeout(timer);
}

/** How far past `cpuTimeMs` the supervisor's watchdog lets a program run before it ends its thread. */
const HARD_STOP_FACTOR = 1.5;

/** Options of {@link runSandboxed}. */
export interface SandboxOptions {
  /** Aborting it ends the program (and its thread); the run throws the signal's reason. */
  readonly signal?: AbortSignal | undefined;
  /** Whether `source` is TypeScript: its types are stripped in the sandbox, as program CPU time. */
  readonly typescript?: boolean | undefined;
}

/**
 * Runs `source` (JavaScript, or TypeScript with `options.typescript`; the body of an async
 * function) in a fresh QuickJS runtime, in its own WebAssembly module instance on a worker thread,
 * under `limits`: the module's memory cannot grow past `memoryBytes` (plus the module's own 16
 * MiB), a stack limit, a CPU-time budget (time spent awaiting host calls does not count; type
 * stripping counts) enforced twice: by QuickJS's interrupt handler, and by a watchdog on a
 * supervisor thread that ends the worker thread once the program has run 1.5 × `cpuTimeMs` (a C
 * builtin never polls the interrupt handler), however busy the host's event loop is; a cap on
 * nested calls, `console` captured. Values cross the boundary only as strings, each bounded
 * relative to `memoryBytes` (nested-call arguments `memoryBytes / 32` characters, the result
 * `memoryBytes / 4`; past them the run stops at its memory limit; arguments are also capped at
 * `memoryBytes / 512` JSON values, tool names at 256 characters, and at most 4 calls are with the
 * host at once). When the program ends, `host.ended` is called (abort the calls in flight) and the
 * calls still in flight get at most 2 s to settle before this settles.
 * @throws {CodeModeLimitError} when a limit stops the program.
 * @throws {CodeProgramError} when it does not parse, throws, or never finishes.
 * @throws {CodeSandboxError} when the sandbox itself fails (not the program).
 * @throws {InvalidInputError} when `limits.stackBytes` is over 1 MiB.
 * @throws the signal's reason when `signal` aborts first, or the error of a host call that `stops`.
 */
export async function runSandboxed(
  source: string,
  host: SandboxHost,
  limits: Limits,
  options?: AbortSignal | SandboxOptions,
): Promise<SandboxOutcome> {
  const { signal, typescript = false }: SandboxOptions =
    options === undefined ? {} : isAbortSignal(options) ? { signal: options } : options;
  if (signal?.aborted) throw reasonOf(signal);
  if (!(limits.stackBytes <= MAX_STACK_BYTES)) {
    // Past the sandbox thread's own stack, QuickJS's stack check cannot work at all.
    throw new InvalidInputError({
      entryPoint: 'runSandboxed',
      reason: `limit \`stackBytes\` must be at most ${MAX_STACK_BYTES}, got ${limits.stackBytes}`,
    });
  }
  const worker = await acquireWorker();
  const shared = new SharedArrayBuffer(8 * Float64Array.BYTES_PER_ELEMENT);
  const cells = new Float64Array(shared);
  const logs: string[] = [];
  const inflight = new Set<Promise<void>>();
  let ended = false;
  let reusable = false;
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
    worker.terminate();
    rejectRun(error);
  };
  const memoryError = () => new CodeModeLimitError({ limitKind: 'memory', limit: limits.memoryBytes, logs });
  const cpuError = () => new CodeModeLimitError({ limitKind: 'cpu_time', limit: limits.cpuTimeMs, logs });
  const onAbort = () => kill(reasonOf(signal));
  const answer = (message: SandboxSettleMessage) => {
    if (!ended) worker.postMessage(message);
  };
  const nestedCall = (id: number, name: string, argsText: string) => {
    const task = (async () => {
      let value: JsonValue;
      try {
        // The name is resolved before the arguments are parsed: an unknown tool costs no parse.
        const refusal = host.refuses?.(name);
        if (refusal !== undefined) throw new Error(refusal);
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
    else if (message.type === 'call') {
      // Each call's host work (parse, admission, validation) starts in its own macrotask: the
      // worker's messages are drained in one go, and the host's event loop turns between calls.
      setImmediate(() => {
        if (!ended) nestedCall(message.id, message.name, message.args);
      });
    } else {
      ended = true;
      reusable =
        message.peakMemoryBytes <= KEEP_BELOW_BYTES &&
        message.heapBytes <= KEEP_HEAP_BELOW_BYTES &&
        (message.ok || (message.limitKind !== 'memory' && message.fault !== true));
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
      } else if (message.fault === true) {
        rejectRun(new CodeSandboxError({ detail: message.detail, logs }));
      } else {
        rejectRun(new CodeProgramError({ failure: message.failure ?? 'threw', detail: message.detail, logs }));
      }
    }
  };
  const onError = (error: Error) => {
    const stopped = firstStop();
    if (stopped !== undefined) kill(stopped);
    else if ((error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY') kill(memoryError());
    else kill(new CodeSandboxError({ detail: error.message, logs }));
  };
  // The limit the program reached first, as the sandbox recorded it before its thread ended.
  const firstStop = (): CodeModeLimitError | undefined => {
    if (cells[4] === 2)
      return new CodeModeLimitError({ limitKind: 'nested_calls', limit: limits.maxNestedCalls, logs });
    if (cells[4] === 3 || cells[2] === 1) return memoryError();
    if (cells[4] === 1 || cells[3] === 1) return cpuError();
    return undefined;
  };
  const onExit = (code: number) => {
    const stopped = firstStop();
    if (stopped !== undefined) kill(stopped);
    else kill(new CodeSandboxError({ detail: `the sandbox ended (exit code ${code})`, logs }));
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
      typescript,
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
      worker.watch(shared, limits.cpuTimeMs, limits.cpuTimeMs * HARD_STOP_FACTOR);
    }
    return await result;
  } finally {
    worker.unwatch();
    signal?.removeEventListener('abort', onAbort);
    worker.off('message', onMessage);
    worker.off('error', onError);
    worker.off('exit', onExit);
    releaseWorker(worker, reusable);
    // Nested calls never outlive the program: the host aborts the ones in flight, and they get a
    // bounded time to settle (a tool that ignores its signal cannot hold the run).
    host.ended?.();
    if (inflight.size > 0) await settledWithin([...inflight], NESTED_SETTLE_GRACE_MS);
  }
}

function isAbortSignal(value: unknown): value is AbortSignal {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AbortSignal).addEventListener === 'function' &&
    'aborted' in value
  );
}

function reasonOf(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new Error(String(reason));
}
