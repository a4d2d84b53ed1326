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
  /** URL of `sucrase` (type stripping runs here, under the program's limits, never on the host). */
  readonly sucraseUrl: string;
  /** The port to the host (the thread's parent is the supervisor, which only watches it). */
  readonly port: Port;
}

/** One run, sent by the host. @internal */
export interface SandboxRunMessage {
  readonly type: 'run';
  readonly source: string;
  /** Whether `source` is TypeScript whose types are stripped first (as program CPU time). */
  readonly typescript: boolean;
  readonly names: readonly string[];
  readonly limits: {
    readonly memoryBytes: number;
    readonly stackBytes: number;
    readonly cpuTimeMs: number;
    readonly maxNestedCalls: number;
    readonly maxLogChars: number;
  };
  /**
   * `[cpu ms spent (estimate: wall time of the slices, set back to the thread's CPU time when
   * calibrated), start of the current slice (epoch ms, 0 outside), wasm memory growth refused (1),
   * stopped by the supervisor's watchdog (1), first limit reached (1 cpu_time, 2 nested_calls,
   * 3 memory, 0 none), wall ms of the slices, OS thread id (0 when its CPU time cannot be read),
   * the thread's CPU ms when the program started]`.
   */
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
      readonly heapBytes: number;
    }
  | {
      readonly type: 'done';
      readonly ok: false;
      readonly limitKind?: 'cpu_time' | 'memory' | 'stack' | 'nested_calls';
      readonly failure?: 'syntax' | 'threw' | 'not_json' | 'never_settled';
      /** The sandbox itself failed (not the program): a fault the program could not catch. */
      readonly fault?: true;
      readonly detail: string;
      readonly peakMemoryBytes: number;
      readonly heapBytes: number;
    };

/** @internal */
export interface Port {
  on(event: 'message', listener: (message: SandboxRunMessage | SandboxSettleMessage) => void): void;
  postMessage(message: unknown): void;
}

/** A nested call waiting in the sandbox: its arguments stay a QuickJS string until it is sent. */
interface QueuedCall {
  readonly id: number;
  readonly name: string;
  readonly args: QuickJSHandle;
}

/**
 * The body of a sandbox worker thread. Self-contained (it is sent to the worker as its source text,
 * so it may use nothing from this module's scope): it loads QuickJS and sucrase from the given URLs
 * and runs one program at a time, each in a fresh QuickJS module instance whose WebAssembly memory
 * has a maximum of `memoryBytes` plus the module's own 16 MiB, so an allocation past it fails
 * inside QuickJS (out of memory) instead of growing the process. Type stripping runs here as
 * program CPU time. CPU time is written to shared memory for the supervisor's watchdog; logs and
 * nested calls go to the host as messages. Every limit is told from facts the program cannot
 * shape: the memory-refusal flag, the interrupt handler's own stop, V8's stack overflow, QuickJS's
 * engine-made stack error, never the words of a message. Every value leaving the sandbox is
 * bounded: nested-call arguments by `memoryBytes / 32` characters and `memoryBytes / 512` JSON
 * values, tool names by 256 characters, at most 4 calls with the host at once (later ones wait
 * here, so the host holds at most 4 arguments of a program), the result by
 * `memoryBytes / 4`, error text by 2,000, logs by `maxLogChars` (each line counts at least 1).
 * @internal
 */
export function sandboxWorkerMain(
  port: Port,
  data: SandboxWorkerData,
  importer: (url: string) => Promise<Record<string, unknown>>,
  clock?: { readonly ownThreadId: () => number | undefined; readonly read: (tid: number) => number | undefined },
): void {
  // This thread's OS id, when its CPU time can be read (Linux): CPU limits then count the CPU the
  // thread got, not the wall time a loaded machine stretches it to. Checked once that the clock moves.
  const tid = clock?.ownThreadId();
  const startCpu = tid === undefined ? undefined : clock?.read(tid);
  let threadClock: (() => number) | undefined;
  let clockChecked = false;
  // Loading QuickJS and sucrase costs CPU: a clock that did not move over it is not trusted. A read
  // that fails later counts as past every limit.
  const checkClock = () => {
    if (clockChecked) return;
    clockChecked = true;
    const loadedCpu = tid === undefined ? undefined : clock?.read(tid);
    if (tid !== undefined && startCpu !== undefined && loadedCpu !== undefined && loadedCpu > startCpu)
      threadClock = () => clock?.read(tid) ?? Number.POSITIVE_INFINITY;
  };
  // Longest error text a run reports (a thrown value's description, a parse error), in characters.
  const maxDetailChars = 2000;
  // Longest tool name a program may call (longer ones are refused in the sandbox, never sent).
  const MAX_TOOL_NAME_CHARS = 256;
  // Nested calls of one program with the host at once; later ones wait in the sandbox, in order.
  const MAX_CALLS_IN_FLIGHT = 4;
  // The values in JSON text (1 + each `{`, `[` and `,` outside strings), counted until past `max`.
  const jsonNodes = (text: string, max: number): number => {
    let nodes = 1;
    let inString = false;
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (inString) {
        if (code === 92) index += 1;
        else if (code === 34) inString = false;
      } else if (code === 34) inString = true;
      else if (code === 123 || code === 91 || code === 44) {
        nodes += 1;
        if (nodes > max) return nodes;
      }
    }
    return nodes;
  };
  const unwrap = (value: Record<string, unknown>): Record<string, unknown> => {
    let current = value;
    while (current && typeof current.default === 'object' && current.default !== null && !('newVariant' in current)) {
      if ('type' in current && 'importFFI' in current) break;
      current = current.default as Record<string, unknown>;
    }
    return current;
  };
  type Core = typeof import('quickjs-emscripten-core');
  type Transform = (code: string, options: object) => { code: string };
  const loaded = Promise.all([importer(data.coreUrl), importer(data.variantUrl), importer(data.sucraseUrl)]).then(
    ([core, variant, sucrase]) => ({
      core: unwrap(core) as unknown as Core,
      variant: unwrap(variant) as unknown as QuickJSSyncVariant,
      transform: ((sucrase as { transform?: Transform }).transform ??
        (sucrase.default as { transform: Transform }).transform) as Transform,
    }),
  );
  const cut = (text: string) =>
    text.length <= maxDetailChars
      ? text
      : `${text.slice(0, maxDetailChars)}… [${text.length - maxDetailChars} more characters]`;
  const heapBytes = () => {
    const usage = (globalThis as unknown as { process: { memoryUsage(): { heapUsed: number } } }).process.memoryUsage();
    return usage.heapUsed;
  };
  let settleCall: ((message: SandboxSettleMessage) => void) | undefined;
  // One silent warm-up run first, so a fresh worker's first program does not pay for cold code.
  const warmUp: SandboxRunMessage = {
    type: 'run',
    source: "const a: number[] = [3, 1, 2].map((x) => x * 2).sort(); return JSON.stringify({ a, s: 'x'.repeat(3) });",
    typescript: true,
    names: [],
    limits: {
      memoryBytes: 8 * 1024 * 1024,
      stackBytes: 256 * 1024,
      cpuTimeMs: 10_000,
      maxNestedCalls: 1,
      maxLogChars: 1,
    },
    shared: new SharedArrayBuffer(8 * Float64Array.BYTES_PER_ELEMENT),
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
            fault: true,
            detail: cut(error instanceof Error ? error.message : String(error)),
            peakMemoryBytes: 0,
            heapBytes: heapBytes(),
          });
        }),
      );
    }
  });

  async function run(message: SandboxRunMessage, silent = false): Promise<void> {
    const post = (value: unknown) => {
      if (!silent) port.postMessage(value);
    };
    const { core, variant, transform } = await loaded;
    checkClock();
    const { limits } = message;
    const cells = new Float64Array(message.shared);
    const now = () => performance.timeOrigin + performance.now();
    const page = 65536;
    const initialPages = 256;
    const maximumPages = Math.min(32768, initialPages + Math.ceil(limits.memoryBytes / page));
    const maxArgsChars = Math.max(1024, Math.floor(limits.memoryBytes / 32));
    const maxResultChars = Math.max(1024, Math.floor(limits.memoryBytes / 4));
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
    // The memory limit is the WebAssembly memory's maximum alone: a refused growth is a fact the
    // host sees here, which no text the program throws can imitate.
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
    let stop: { limitKind: 'cpu_time' | 'nested_calls' | 'memory' } | undefined;
    let stackOverflow = false;
    let nestedCalls = 0;
    let nextId = 0;
    let inflight = 0;
    /** Calls sent to the host and not yet settled (at most MAX_CALLS_IN_FLIGHT). */
    let sending = 0;
    /** Calls made while MAX_CALLS_IN_FLIGHT were with the host, in order. */
    const queued: QueuedCall[] = [];
    let pump: () => void = () => undefined;
    const maxArgNodes = Math.max(1024, Math.floor(limits.memoryBytes / 512));
    let wake: (() => void) | undefined;
    const cpuUsed = () => cpuMs + (sliceStart > 0 ? now() - sliceStart : 0);
    // Wall time of the program's slices, never set back: the supervisor's backstop reads it.
    let sliceWallMs = 0;
    let cpuAtStart = 0;
    let nextCalibration = 0;
    // With a thread clock, the CPU the thread got since the program started decides: QuickJS slices
    // and the work the program causes between them (reading its call arguments, results and errors).
    // CPU never grows faster than wall time, so after a read leaving R ms of budget the next read is
    // due R ms of wall time later: few reads, and time given to other work on a loaded machine is not
    // the program's. Without a clock, the wall time of the slices counts.
    const overCpu = (): boolean => {
      if (threadClock === undefined) return cpuUsed() > limits.cpuTimeMs;
      // Setting up the runtime and the prelude is the host's work, not the program's.
      if (!counting) return false;
      const at = now();
      if (at < nextCalibration) return false;
      const actual = threadClock() - cpuAtStart;
      if (actual > limits.cpuTimeMs) return true;
      nextCalibration = at + Math.max(1, limits.cpuTimeMs - actual);
      return false;
    };
    // The first limit reached is the one reported, also when the supervisor ends the thread later
    // (a program may keep a C builtin busy after its stop): cell 4 holds it for the host.
    const halt = (limitKind: 'cpu_time' | 'nested_calls' | 'memory') => {
      if (stop !== undefined) return;
      stop = { limitKind };
      cells[4] = { cpu_time: 1, nested_calls: 2, memory: 3 }[limitKind];
    };
    let context: QuickJSContext | undefined;
    let helpers: QuickJSHandle[] = [];
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
        const slice = now() - sliceStart;
        cpuMs += slice;
        sliceWallMs += slice;
        cells[5] = sliceWallMs;
        sliceStart = 0;
        cells[0] = cpuMs;
        cells[1] = 0;
      }
    };
    // A program that ended past its CPU time outside the interrupt handler's reach (between slices)
    // is refused as the CPU limit, unless another limit came first.
    const finish = (done: SandboxDoneMessage) => {
      const plain = done.ok || (done.limitKind === undefined && done.fault !== true);
      if (plain && counting && threadClock !== undefined && threadClock() - cpuAtStart > limits.cpuTimeMs) {
        halt('cpu_time');
        post({ ...failed('threw', 'stopped'), limitKind: 'cpu_time' });
        return;
      }
      post(done);
    };
    const failed = (kind: 'syntax' | 'threw' | 'not_json' | 'never_settled', detail: string): SandboxDoneMessage => {
      const base = {
        type: 'done',
        ok: false,
        detail: cut(detail),
        peakMemoryBytes: peak(),
        heapBytes: heapBytes(),
      } as const;
      if (stop !== undefined) return { ...base, limitKind: stop.limitKind };
      if (refused) return { ...base, limitKind: 'memory' };
      if (stackOverflow) return { ...base, limitKind: 'stack' };
      return { ...base, failure: kind };
    };
    // A host-realm error out of the WebAssembly glue: V8's own stack overflow (a RangeError the
    // program cannot make: its errors live in QuickJS) is the stack limit; anything else is a fault.
    const hostFault = (error: unknown): SandboxDoneMessage => {
      const text = error instanceof Error ? error.message || error.name : String(error);
      if (error instanceof RangeError && /call stack size/i.test(text)) stackOverflow = true;
      const done = failed('threw', text);
      if (done.ok || done.limitKind !== undefined) return done;
      return {
        type: 'done',
        ok: false,
        fault: true,
        detail: done.detail,
        peakMemoryBytes: done.peakMemoryBytes,
        heapBytes: done.heapBytes,
      };
    };
    try {
      runtime.setMaxStackSize(limits.stackBytes);
      runtime.setInterruptHandler(() => {
        if (stop !== undefined) return true;
        if (overCpu()) {
          halt('cpu_time');
          return true;
        }
        return false;
      });
      const vm = runtime.newContext();
      context = vm;
      const logFn = vm.newFunction('log', (line) => {
        const text = vm.typeof(line) === 'string' ? vm.getString(line) : '';
        // Every line costs at least one character, so empty lines cannot flood the host.
        const cost = Math.max(1, text.length);
        const room = limits.maxLogChars - logChars;
        if (room <= 0) droppedLogChars += cost;
        else {
          const kept = text.length <= room ? text : text.slice(0, room);
          droppedLogChars += text.length - kept.length;
          logChars += Math.max(1, kept.length);
          post({ type: 'log', line: kept });
        }
      });
      // Returns a call id, or a refusal message (a string) that the prelude turns into a rejection.
      // Arguments the host would parse, validate and copy into far more memory (and time) than
      // their text: past the character or node cap the program stops at its memory limit.
      const tooBig = (name: string, args: string): string | undefined => {
        if (args.length > maxArgsChars) {
          halt('memory');
          return `program stopped: arguments of \`${name}\` are ${args.length} characters`;
        }
        if (jsonNodes(args, maxArgNodes) > maxArgNodes) {
          halt('memory');
          return `program stopped: arguments of \`${name}\` have more than ${maxArgNodes} values`;
        }
        return undefined;
      };
      // Sends queued calls while fewer than MAX_CALLS_IN_FLIGHT are with the host.
      pump = () => {
        while (sending < MAX_CALLS_IN_FLIGHT && queued.length > 0) {
          const next = queued.shift() as QueuedCall;
          const args = vm.alive && stop === undefined ? vm.getString(next.args) : undefined;
          next.args.dispose();
          if (args === undefined || tooBig(next.name, args) !== undefined) {
            // Never answered: the program has stopped.
            inflight -= 1;
            continue;
          }
          sending += 1;
          post({ type: 'call', id: next.id, name: next.name, args });
        }
      };
      const callFn = vm.newFunction('call', (nameHandle, argsHandle) => {
        if (stop !== undefined) return vm.newString('program stopped');
        nestedCalls += 1;
        if (nestedCalls > limits.maxNestedCalls) {
          halt('nested_calls');
          return vm.newString(`program stopped: limit of ${limits.maxNestedCalls} nested tool calls reached`);
        }
        const name = vm.typeof(nameHandle) === 'string' ? vm.getString(nameHandle) : '';
        if (name.length > MAX_TOOL_NAME_CHARS) {
          // Refused here: no tool has such a name, and the host never copies it.
          const shown = name.length > 64 ? `${name.slice(0, 64)}… (${name.length} characters)` : name;
          return vm.newString(`unknown tool \`${shown}\`; callable: [${message.names.join(', ')}]`);
        }
        if (vm.typeof(argsHandle) !== 'string') return vm.newString(`arguments of \`${name}\` must be JSON text`);
        const id = nextId++;
        if (sending >= MAX_CALLS_IN_FLIGHT) {
          // Held in the sandbox's own memory (a handle, not a host copy) until a call settles.
          inflight += 1;
          queued.push({ id, name, args: argsHandle.dup() });
          return vm.newNumber(id);
        }
        const args = vm.getString(argsHandle);
        const refusal = tooBig(name, args);
        if (refusal !== undefined) return vm.newString(refusal);
        inflight += 1;
        sending += 1;
        post({ type: 'call', id, name, args });
        return vm.newNumber(id);
      });
      const [encode, describe, settle, isStackOverflow] = enter(() => {
        const prelude = vm.unwrapResult(vm.evalCode(data.prelude, 'prelude.js'));
        const names = vm.newString(JSON.stringify(message.names));
        const tuple = vm.unwrapResult(vm.callFunction(prelude, vm.undefined, callFn, logFn, names));
        const handles = [0, 1, 2, 3].map((index) => vm.getProp(tuple, index));
        for (const handle of [prelude, names, tuple]) handle.dispose();
        return handles as [QuickJSHandle, QuickJSHandle, QuickJSHandle, QuickJSHandle];
      });
      helpers = [encode, describe, settle, isStackOverflow];
      logFn.dispose();
      callFn.dispose();
      settleCall = (answer) => {
        inflight -= 1;
        sending -= 1;
        try {
          if (vm.alive && stop === undefined) {
            enter(() => {
              const id = vm.newNumber(answer.id);
              const text = vm.newString(answer.text);
              const settled = vm.callFunction(settle, vm.undefined, id, answer.ok ? vm.true : vm.false, text);
              id.dispose();
              text.dispose();
              if (settled.error) settled.error.dispose();
              else settled.value.dispose();
            });
          }
        } finally {
          pump();
          wake?.();
        }
      };
      // Reads a thrown value as text by calling the prelude's `describe` inside the sandbox, under the
      // interrupt handler: getters, `toJSON` or proxies the program planted run as its own CPU time.
      const readError = (handle: QuickJSHandle): string => {
        try {
          const checked = enter(() => vm.callFunction(isStackOverflow, vm.undefined, handle));
          if (checked.error) checked.error.dispose();
          else {
            if (vm.typeof(checked.value) === 'boolean' && vm.dump(checked.value) === true) stackOverflow = true;
            checked.value.dispose();
          }
          const described = enter(() => vm.callFunction(describe, vm.undefined, handle));
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
      if (threadClock !== undefined && tid !== undefined) {
        cpuAtStart = threadClock();
        cells[7] = cpuAtStart;
        cells[6] = tid;
      }
      counting = true;
      let source = message.source;
      if (message.typescript) {
        // Sucrase can backtrack for a long time on hostile text: it runs here, as the program's CPU
        // time, where the supervisor's watchdog ends the thread past the hard stop.
        const stripped = enter(() => {
          try {
            return {
              code: transform(`async function __program() {\n${source}\n}`, {
                transforms: ['typescript'],
                disableESTransforms: true,
              }).code,
            };
          } catch (error) {
            return { error: error instanceof Error ? error.message : String(error) };
          }
        });
        if (stripped.error !== undefined) {
          finish(failed('syntax', stripped.error));
          return;
        }
        const code = stripped.code;
        const open = code.indexOf('{');
        const close = code.lastIndexOf('}');
        if (!code.trimStart().startsWith('async function __program()') || open < 0 || close < open) {
          finish(failed('syntax', 'the program must be the body of one function'));
          return;
        }
        source = code.slice(open + 1, close);
      }
      const compiled = enter(() => vm.evalCode(`(async function () {\n${source}\n})`, 'program.js'));
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
            const encoded = enter(() => vm.callFunction(encode, vm.undefined, state.value));
            if (state.value !== finished) state.value.dispose();
            if (encoded.error) {
              finish(failed('threw', readError(encoded.error)));
              return;
            }
            // Text from the prelude's captured JSON.stringify: JSON by construction, never parsed here.
            const json = vm.typeof(encoded.value) === 'string' ? vm.getString(encoded.value) : undefined;
            encoded.value.dispose();
            if (json === undefined) {
              finish(failed('not_json', 'no JSON text'));
              return;
            }
            if (json.length > maxResultChars) {
              halt('memory');
              finish(failed('threw', `the result is ${json.length} characters`));
              return;
            }
            finish({
              type: 'done',
              ok: true,
              json,
              droppedLogChars,
              nestedCalls,
              cpuTimeMs: Math.round(threadClock === undefined ? cpuMs : threadClock() - cpuAtStart),
              peakMemoryBytes: peak(),
              heapBytes: heapBytes(),
            });
            return;
          }
          if (state.type === 'rejected') {
            finish(failed('threw', readError(state.error)));
            return;
          }
          if (inflight === 0) {
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
      finish(hostFault(error));
    } finally {
      settleCall = undefined;
      try {
        for (const call of queued.splice(0)) if (call.args.alive) call.args.dispose();
        for (const handle of helpers) if (handle.alive) handle.dispose();
        context?.dispose();
        runtime.dispose();
      } catch {
        // A runtime stopped mid-allocation may keep objects alive; its module instance is dropped anyway.
      }
    }
  }
}
