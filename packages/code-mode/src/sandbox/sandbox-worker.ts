import type { QuickJSContext, QuickJSHandle, QuickJSSyncVariant } from 'quickjs-emscripten-core';

/** What the host hands a sandbox worker once, when it starts. @internal */
export interface SandboxWorkerData {
  /** URL of `quickjs-emscripten-core`. */
  readonly coreUrl: string;
  /** URL of `@jitl/quickjs-wasmfile-release-sync`. */
  readonly variantUrl: string;
  /** The QuickJS wasm, compiled once by the host. */
  readonly wasmModule: object;
  /** The prelude source (see `prelude.ts`). */
  readonly prelude: string;
}

/** One run, sent by the host. @internal */
export interface SandboxRunMessage {
  readonly type: 'run';
  readonly source: string;
  readonly names: readonly string[];
  readonly limits: {
    readonly memoryBytes: number;
    readonly stackBytes: number;
    readonly cpuTimeMs: number;
    readonly maxNestedCalls: number;
    readonly maxLogChars: number;
  };
  /** `[cpu ms spent, start of the current slice (epoch ms, 0 outside), wasm memory growth refused (1)]`. */
  readonly shared: SharedArrayBuffer;
}

/** The host's answer to one nested call. @internal */
export interface SandboxSettleMessage {
  readonly type: 'settle';
  readonly id: number;
  readonly ok: boolean;
  /** JSON text of the result, or the error message. */
  readonly text: string;
}

/** How a run ended, as the worker reports it. @internal */
export type SandboxDoneMessage =
  | {
      readonly type: 'done';
      readonly ok: true;
      readonly json: string;
      readonly droppedLogChars: number;
      readonly nestedCalls: number;
      readonly cpuTimeMs: number;
      readonly peakMemoryBytes: number;
    }
  | {
      readonly type: 'done';
      readonly ok: false;
      readonly limitKind?: 'cpu_time' | 'memory' | 'stack' | 'nested_calls';
      readonly failure?: 'syntax' | 'threw' | 'not_json' | 'never_settled';
      readonly detail: string;
      readonly peakMemoryBytes: number;
    };

interface Port {
  on(event: 'message', listener: (message: SandboxRunMessage | SandboxSettleMessage) => void): void;
  postMessage(message: unknown): void;
}

/**
 * The body of a sandbox worker thread. Self-contained (it is sent to the worker as its source text,
 * so it may use nothing from this module's scope): it loads QuickJS from the given URLs and runs one
 * program at a time, each in a fresh QuickJS module instance whose WebAssembly memory has a
 * maximum of `memoryBytes` plus the module's own 16 MiB, so an allocation past it fails inside
 * QuickJS (out of memory) instead of growing the process. CPU time is written to shared memory for
 * the host's watchdog; logs and nested calls go to the host as messages.
 * @internal
 */
export function sandboxWorkerMain(
  port: Port,
  data: SandboxWorkerData,
  importer: (url: string) => Promise<Record<string, unknown>>,
): void {
  const unwrap = (value: Record<string, unknown>): Record<string, unknown> => {
    let current = value;
    while (current && typeof current.default === 'object' && current.default !== null && !('newVariant' in current)) {
      if ('type' in current && 'importFFI' in current) break;
      current = current.default as Record<string, unknown>;
    }
    return current;
  };
  type Core = typeof import('quickjs-emscripten-core');
  const loaded = Promise.all([importer(data.coreUrl), importer(data.variantUrl)]).then(([core, variant]) => ({
    core: unwrap(core) as unknown as Core,
    variant: unwrap(variant) as unknown as QuickJSSyncVariant,
  }));
  let settleCall: ((message: SandboxSettleMessage) => void) | undefined;
  // One silent warm-up run first, so a fresh worker's first program does not pay for cold code.
  const warmUp: SandboxRunMessage = {
    type: 'run',
    source: "const a = [3, 1, 2].map((x) => x * 2).sort(); return JSON.stringify({ a, s: 'x'.repeat(3) });",
    names: [],
    limits: {
      memoryBytes: 8 * 1024 * 1024,
      stackBytes: 256 * 1024,
      cpuTimeMs: 10_000,
      maxNestedCalls: 1,
      maxLogChars: 1,
    },
    shared: new SharedArrayBuffer(3 * Float64Array.BYTES_PER_ELEMENT),
  };
  let queue = run(warmUp, true).catch(() => undefined);
  port.on('message', (message) => {
    if (message.type === 'settle') settleCall?.(message);
    else if (message.type === 'run') {
      queue = queue.then(() =>
        run(message).catch((error: unknown) => {
          port.postMessage({
            type: 'done',
            ok: false,
            failure: 'threw',
            detail: `the sandbox failed: ${error instanceof Error ? error.message : String(error)}`,
            peakMemoryBytes: 0,
          });
        }),
      );
    }
  });

  async function run(message: SandboxRunMessage, silent = false): Promise<void> {
    const post = (value: unknown) => {
      if (!silent) port.postMessage(value);
    };
    const { core, variant } = await loaded;
    const { limits } = message;
    const cells = new Float64Array(message.shared);
    const now = () => performance.timeOrigin + performance.now();
    const page = 65536;
    const initialPages = 256;
    const maximumPages = Math.min(32768, initialPages + Math.ceil(limits.memoryBytes / page));
    const { WebAssembly: wasm } = globalThis as unknown as {
      WebAssembly: {
        Memory: new (descriptor: {
          initial: number;
          maximum: number;
        }) => {
          grow(delta: number): number;
          readonly buffer: ArrayBuffer;
        };
      };
    };
    const memory = new wasm.Memory({ initial: initialPages, maximum: maximumPages });
    const grow = memory.grow.bind(memory);
    let refused = false;
    Object.defineProperty(memory, 'grow', {
      value: (delta: number) => {
        try {
          return grow(delta);
        } catch (error) {
          refused = true;
          cells[2] = 1;
          throw error;
        }
      },
    });
    const peak = () => memory.buffer.byteLength;
    const quiet = () => undefined;
    const module = await core.newQuickJSWASMModuleFromVariant(
      core.newVariant(variant, {
        wasmModule: data.wasmModule as never,
        wasmMemory: memory as never,
        emscriptenModule: { print: quiet, printErr: quiet } as never,
      }),
    );
    const runtime = module.newRuntime();
    let logChars = 0;
    let droppedLogChars = 0;
    let cpuMs = 0;
    let sliceStart = 0;
    let stop: { limitKind: 'cpu_time' | 'nested_calls' } | undefined;
    let nestedCalls = 0;
    let nextId = 0;
    let wake: (() => void) | undefined;
    const pending = new Map<number, { resolve(text: string): void; reject(text: string): void }>();
    const cpuUsed = () => cpuMs + (sliceStart > 0 ? now() - sliceStart : 0);
    let context: QuickJSContext | undefined;
    let encode: QuickJSHandle | undefined;
    let describe: QuickJSHandle | undefined;
    // Only the program's own slices count (and are watched): setting up the runtime and the prelude
    // is the host's work, whatever a cold WebAssembly tier costs.
    let counting = false;
    const enter = <T>(work: () => T): T => {
      if (!counting) return work();
      sliceStart = now();
      cells[1] = sliceStart;
      try {
        return work();
      } finally {
        cpuMs += now() - sliceStart;
        sliceStart = 0;
        cells[0] = cpuMs;
        cells[1] = 0;
      }
    };
    const finish = (done: SandboxDoneMessage) => post(done);
    const failed = (kind: 'syntax' | 'threw' | 'not_json' | 'never_settled', detail: string): SandboxDoneMessage => {
      if (stop !== undefined)
        return { type: 'done', ok: false, limitKind: stop.limitKind, detail, peakMemoryBytes: peak() };
      if (refused || /\bout of memory\b/i.test(detail))
        return { type: 'done', ok: false, limitKind: 'memory', detail, peakMemoryBytes: peak() };
      if (/\bstack overflow\b/i.test(detail))
        return { type: 'done', ok: false, limitKind: 'stack', detail, peakMemoryBytes: peak() };
      return { type: 'done', ok: false, failure: kind, detail, peakMemoryBytes: peak() };
    };
    try {
      runtime.setMemoryLimit(limits.memoryBytes);
      runtime.setMaxStackSize(limits.stackBytes);
      runtime.setInterruptHandler(() => {
        if (stop !== undefined) return true;
        if (cpuUsed() > limits.cpuTimeMs) {
          stop = { limitKind: 'cpu_time' };
          return true;
        }
        return false;
      });
      const vm = runtime.newContext();
      context = vm;
      const logFn = vm.newFunction('log', (line) => {
        const text = vm.typeof(line) === 'string' ? vm.getString(line) : '';
        const room = limits.maxLogChars - logChars;
        if (room <= 0) droppedLogChars += text.length;
        else {
          const kept = text.length <= room ? text : text.slice(0, room);
          droppedLogChars += text.length - kept.length;
          logChars += kept.length;
          post({ type: 'log', line: kept });
        }
      });
      // A rejection is a plain string: the prelude turns it into an Error inside the sandbox, where
      // any setter the program installed on Error.prototype runs under the interrupt handler.
      const callFn = vm.newFunction('call', (nameHandle, argsHandle) => {
        const deferred = vm.newPromise();
        const reject = (text: string) => vm.newString(text).consume((handle) => deferred.reject(handle));
        nestedCalls += 1;
        if (nestedCalls > limits.maxNestedCalls) {
          stop = { limitKind: 'nested_calls' };
          reject(`program stopped: limit of ${limits.maxNestedCalls} nested tool calls reached`);
          return deferred.handle;
        }
        const name = vm.typeof(nameHandle) === 'string' ? vm.getString(nameHandle) : '';
        const args = vm.typeof(argsHandle) === 'string' ? vm.getString(argsHandle) : 'null';
        const id = nextId++;
        pending.set(id, {
          resolve: (text) => vm.newString(text).consume((handle) => deferred.resolve(handle)),
          reject,
        });
        post({ type: 'call', id, name, args });
        return deferred.handle;
      });
      settleCall = (answer) => {
        const entry = pending.get(answer.id);
        if (entry === undefined) return;
        pending.delete(answer.id);
        try {
          if (vm.alive) enter(() => (answer.ok ? entry.resolve(answer.text) : entry.reject(answer.text)));
        } finally {
          wake?.();
        }
      };
      [encode, describe] = enter(() => {
        const prelude = vm.unwrapResult(vm.evalCode(data.prelude, 'prelude.js'));
        const names = vm.newString(JSON.stringify(message.names));
        const pair = vm.unwrapResult(vm.callFunction(prelude, vm.undefined, callFn, logFn, names));
        const first = vm.getProp(pair, 0);
        const second = vm.getProp(pair, 1);
        for (const handle of [prelude, names, pair]) handle.dispose();
        return [first, second];
      });
      logFn.dispose();
      callFn.dispose();
      // Reads a thrown value as text by calling the prelude's `describe` inside the sandbox, under the
      // interrupt handler: getters, `toJSON` or proxies the program planted run as its own CPU time.
      const readError = (handle: QuickJSHandle): string => {
        try {
          if (describe === undefined) return 'an error that cannot be read';
          const reader = describe;
          const described = enter(() => vm.callFunction(reader, vm.undefined, handle));
          if (described.error) {
            described.error.dispose();
            return 'an error that cannot be read';
          }
          const text = vm.typeof(described.value) === 'string' ? vm.getString(described.value) : undefined;
          described.value.dispose();
          return text ?? 'an error that cannot be read';
        } finally {
          handle.dispose();
        }
      };
      counting = true;
      const compiled = enter(() => vm.evalCode(`(async function () {\n${message.source}\n})`, 'program.js'));
      if (compiled.error) {
        finish(failed('syntax', readError(compiled.error)));
        return;
      }
      const program = compiled.value;
      const called = enter(() => vm.callFunction(program, vm.undefined));
      program.dispose();
      if (called.error) {
        finish(failed('threw', readError(called.error)));
        return;
      }
      const finished = called.value;
      try {
        for (;;) {
          const jobs = enter(() => runtime.executePendingJobs());
          if (jobs.error) jobs.error.dispose();
          if (stop !== undefined) {
            finish(failed('threw', 'stopped'));
            return;
          }
          // The state is read natively (JS_PromiseState): no \`then\`, species or getter of the program
          // runs on the way. A value that is not a promise counts as fulfilled with itself.
          const state = vm.getPromiseState(finished);
          if (state.type === 'fulfilled') {
            const writer = encode;
            if (writer === undefined) throw new Error('the prelude did not start');
            const encoded = enter(() => vm.callFunction(writer, vm.undefined, state.value));
            if (state.value !== finished) state.value.dispose();
            if (encoded.error) {
              const text = vm.typeof(encoded.error) === 'string' ? vm.getString(encoded.error) : undefined;
              encoded.error.dispose();
              finish(failed('threw', text ?? 'the result cannot be read'));
              return;
            }
            const json = vm.typeof(encoded.value) === 'string' ? vm.getString(encoded.value) : undefined;
            encoded.value.dispose();
            let valid = json !== undefined;
            try {
              if (json !== undefined) JSON.parse(json);
            } catch {
              valid = false;
            }
            if (!valid || json === undefined) {
              finish(failed('not_json', 'no JSON text'));
              return;
            }
            finish({
              type: 'done',
              ok: true,
              json,
              droppedLogChars,
              nestedCalls,
              cpuTimeMs: Math.round(cpuMs),
              peakMemoryBytes: peak(),
            });
            return;
          }
          if (state.type === 'rejected') {
            finish(failed('threw', readError(state.error)));
            return;
          }
          if (pending.size === 0) {
            finish(failed('never_settled', 'it awaits a promise that nothing can settle (no tool call is in flight)'));
            return;
          }
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          wake = undefined;
        }
      } finally {
        finished.dispose();
      }
    } catch (error) {
      finish(failed('threw', error instanceof Error ? error.message : String(error)));
    } finally {
      settleCall = undefined;
      try {
        for (const handle of [encode, describe]) if (handle?.alive) handle.dispose();
        context?.dispose();
        runtime.dispose();
      } catch {
        // A runtime stopped mid-allocation may keep objects alive; its module instance is dropped anyway.
      }
    }
  }
}
