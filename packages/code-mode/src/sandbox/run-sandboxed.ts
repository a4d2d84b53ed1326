import releaseSync from '@jitl/quickjs-wasmfile-release-sync';
import type { JsonValue } from '@tiny/tools';
import {
  newQuickJSWASMModuleFromVariant,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import { CodeModeLimitError } from '../errors/code-mode-limit-error.js';
import { CodeProgramError } from '../errors/code-program-error.js';
import type { CodeModeLimits } from '../limits.js';
import { PRELUDE } from './prelude.js';

let quickjs: Promise<QuickJSWASMModule> | undefined;

/** The QuickJS WebAssembly module (release build, no asyncify), loaded once per process from the npm package. */
function loadQuickJS(): Promise<QuickJSWASMModule> {
  quickjs ??= newQuickJSWASMModuleFromVariant(releaseSync as unknown as QuickJSSyncVariant);
  return quickjs;
}

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

/**
 * Runs `source` (JavaScript, the body of an async function) in a fresh QuickJS runtime and context
 * under `limits`: a heap and a stack limit, a CPU-time budget enforced by the interrupt handler
 * (time spent awaiting host calls does not count), a cap on nested calls, `console` captured.
 * Values cross the boundary only as JSON strings. Every host call still in flight is awaited before
 * this settles, so none outlives the program. The runtime is disposed in every case.
 * @throws {CodeModeLimitError} when a limit stops the program.
 * @throws {CodeProgramError} when it does not parse, throws, or never finishes.
 * @throws the signal's reason when `signal` aborts first.
 */
export async function runSandboxed(
  source: string,
  host: SandboxHost,
  limits: Limits,
  signal?: AbortSignal,
): Promise<SandboxOutcome> {
  const module = await loadQuickJS();
  const runtime = module.newRuntime();
  const logs: string[] = [];
  let logChars = 0;
  let droppedLogChars = 0;
  let cpuMs = 0;
  let sliceStart = 0;
  let inside = false;
  let stop: Error | undefined;
  let nestedCalls = 0;
  const inflight = new Set<Promise<void>>();
  let wake: (() => void) | undefined;
  let vm: QuickJSContext | undefined;
  const cpuUsed = () => cpuMs + (inside ? performance.now() - sliceStart : 0);
  const halt = (error: Error) => {
    stop ??= error;
  };
  try {
    runtime.setMemoryLimit(limits.memoryBytes);
    runtime.setMaxStackSize(limits.stackBytes);
    runtime.setInterruptHandler(() => {
      if (stop !== undefined) return true;
      if (signal?.aborted) {
        halt(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
        return true;
      }
      if (cpuUsed() > limits.cpuTimeMs) {
        halt(new CodeModeLimitError({ limitKind: 'cpu_time', limit: limits.cpuTimeMs, logs }));
        return true;
      }
      return false;
    });
    const context = runtime.newContext();
    vm = context;
    const enter = <T>(work: () => T): T => {
      inside = true;
      sliceStart = performance.now();
      try {
        return work();
      } finally {
        cpuMs += performance.now() - sliceStart;
        inside = false;
      }
    };
    const logFn = context.newFunction('log', (line) => {
      const text = context.typeof(line) === 'string' ? context.getString(line) : '';
      const room = limits.maxLogChars - logChars;
      if (room <= 0) droppedLogChars += text.length;
      else {
        const kept = text.length <= room ? text : text.slice(0, room);
        droppedLogChars += text.length - kept.length;
        logChars += kept.length;
        logs.push(kept);
      }
    });
    const callFn = context.newFunction('call', (nameHandle, argsHandle) => {
      const deferred = context.newPromise();
      const reject = (message: string) => {
        context.newError({ name: 'ToolError', message }).consume((error) => deferred.reject(error));
      };
      nestedCalls += 1;
      if (nestedCalls > limits.maxNestedCalls) {
        const error = new CodeModeLimitError({ limitKind: 'nested_calls', limit: limits.maxNestedCalls, logs });
        halt(error);
        reject(error.message);
        return deferred.handle;
      }
      const name = context.typeof(nameHandle) === 'string' ? context.getString(nameHandle) : '';
      const argsText = context.typeof(argsHandle) === 'string' ? context.getString(argsHandle) : 'null';
      const task = (async () => {
        let value: JsonValue;
        try {
          value = await host.call(name, JSON.parse(argsText) as JsonValue);
        } catch (error) {
          if (host.stops?.(error)) halt(error instanceof Error ? error : new Error(String(error)));
          if (context.alive) reject(error instanceof Error ? error.message : String(error));
          return;
        }
        if (!context.alive) return;
        const text = JSON.stringify(value ?? null);
        if (text.length > limits.maxNestedResultChars) {
          reject(
            `result of \`${name}\` is ${text.length} characters, over the limit of ${limits.maxNestedResultChars}`,
          );
          return;
        }
        context.newString(text).consume((handle) => deferred.resolve(handle));
      })().finally(() => {
        inflight.delete(task);
        wake?.();
      });
      inflight.add(task);
      return deferred.handle;
    });
    const settle = enter(() => {
      const prelude = context.unwrapResult(context.evalCode(PRELUDE, 'prelude.js'));
      const names = context.newString(JSON.stringify(host.names));
      const result = context.unwrapResult(context.callFunction(prelude, context.undefined, callFn, logFn, names));
      prelude.dispose();
      names.dispose();
      return result;
    });
    logFn.dispose();
    callFn.dispose();
    const compiled = enter(() => context.evalCode(`(async function () {\n${source}\n})`, 'program.js'));
    if (compiled.error) {
      const detail = readError(context, compiled.error);
      throw classify(detail, stop, limits, logs, 'syntax');
    }
    const promise = enter(() => {
      const called = context.callFunction(settle, context.undefined, compiled.value);
      compiled.value.dispose();
      settle.dispose();
      return called;
    });
    if (promise.error) throw classify(readError(context, promise.error), stop, limits, logs, 'threw');
    const finished = promise.value;
    try {
      for (;;) {
        const jobs = enter(() => runtime.executePendingJobs());
        if (jobs.error) jobs.error.dispose();
        if (stop !== undefined) throw stop;
        const state = context.getPromiseState(finished);
        if (state.type === 'fulfilled') {
          const json = readString(context, state.value);
          if (state.value !== finished) state.value.dispose();
          if (json === undefined) throw new CodeProgramError({ failure: 'not_json', detail: 'no JSON text', logs });
          return { json, logs, droppedLogChars, nestedCalls, cpuTimeMs: Math.round(cpuMs) };
        }
        if (state.type === 'rejected') {
          const detail = readString(context, state.error) ?? 'the program rejected with a non-string reason';
          state.error.dispose();
          throw classify(detail, stop, limits, logs, 'threw');
        }
        if (inflight.size === 0) {
          throw new CodeProgramError({
            failure: 'never_settled',
            detail: 'it awaits a promise that nothing can settle (no tool call is in flight)',
            logs,
          });
        }
        await new Promise<void>((resolve) => {
          const onAbort = () => resolve();
          wake = () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          };
          signal?.addEventListener('abort', onAbort, { once: true });
        });
        wake = undefined;
        if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason));
      }
    } finally {
      finished.dispose();
    }
  } catch (error) {
    // Once a limit or the signal stopped the program, whatever the sandbox raised is that stop.
    if (stop !== undefined) throw stop;
    if (CodeModeLimitError.isInstance(error) || CodeProgramError.isInstance(error)) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw classify(detail, undefined, limits, logs, 'threw');
  } finally {
    // Nested calls never outlive the program: wait for the ones in flight, then free the runtime.
    if (inflight.size > 0) await Promise.allSettled([...inflight]);
    try {
      vm?.dispose();
      runtime.dispose();
    } catch {
      // A runtime stopped mid-allocation may keep objects alive; the wasm memory goes with the module instance's GC.
    }
  }
}

function readString(context: QuickJSContext, handle: QuickJSHandle): string | undefined {
  return context.typeof(handle) === 'string' ? context.getString(handle) : undefined;
}

/** The sandbox's own error as `Name: message` text (handles disposed). */
function readError(context: QuickJSContext, handle: QuickJSHandle): string {
  try {
    const dumped = context.dump(handle) as unknown;
    if (typeof dumped === 'object' && dumped !== null && 'message' in dumped) {
      const { name, message } = dumped as { name?: unknown; message?: unknown };
      return `${typeof name === 'string' ? name : 'Error'}: ${String(message)}`;
    }
    return String(dumped);
  } catch {
    return 'an error that cannot be read';
  } finally {
    handle.dispose();
  }
}

/** Maps the sandbox's fatal errors to limits: interrupts, out-of-memory and stack overflow. */
function classify(
  detail: string,
  stop: Error | undefined,
  limits: Limits,
  logs: readonly string[],
  failure: 'syntax' | 'threw',
): Error {
  if (stop !== undefined) return stop;
  if (/\bout of memory\b/i.test(detail))
    return new CodeModeLimitError({ limitKind: 'memory', limit: limits.memoryBytes, logs });
  if (/\bstack overflow\b/i.test(detail))
    return new CodeModeLimitError({ limitKind: 'stack', limit: limits.stackBytes, logs });
  return new CodeProgramError({ failure, detail, logs });
}
