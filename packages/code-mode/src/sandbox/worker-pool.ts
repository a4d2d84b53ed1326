import { EventEmitter } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { PRELUDE } from './prelude.js';
import { type SandboxWorkerData, sandboxWorkerMain } from './sandbox-worker.js';
import { type SupervisorData, type SupervisorReport, type SupervisorRequest, supervisorMain } from './supervisor.js';
import { ownThreadId, readThreadCpuMs } from './thread-cpu-clock.js';

const require = createRequire(import.meta.url);

/** Idle workers kept for the next run (each has run only clean programs). */
const MAX_IDLE = 2;
/** A worker whose QuickJS memory grew past this is not kept: its memory goes back with it. */
export const KEEP_BELOW_BYTES = 48 * 1024 * 1024;
/** A worker whose V8 heap holds more than this after a run is not kept either. */
export const KEEP_HEAP_BELOW_BYTES = 32 * 1024 * 1024;
/** V8 heap limits of a sandbox thread (its QuickJS memory is a WebAssembly buffer outside them). */
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 192, maxYoungGenerationSizeMb: 16 };

const idle: SandboxThread[] = [];
let compiled: Promise<object> | undefined;
const { WebAssembly: wasm } = globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<object> } };

function resolveUrl(specifier: string): string {
  return pathToFileURL(require.resolve(specifier)).href;
}

/** A sandbox thread's source: the self-contained `sandboxWorkerMain`, called with its port and data. */
// Each thread reads its own CPU time (Linux) with the same self-contained helpers the supervisor uses.
const clockSource = () =>
  `const fs = require('node:fs');\nconst clock = { ownThreadId: () => (${ownThreadId.toString()})(fs), read: (tid) => (${readThreadCpuMs.toString()})(fs, tid) };`;

const sandboxSource = () =>
  `const threads = require('node:worker_threads');\n${clockSource()}\n(${sandboxWorkerMain.toString()})(threads.workerData.port, threads.workerData, (url) => import(url), clock);`;

/** The QuickJS wasm, compiled once per process and shared by every worker. */
function wasmModule(): Promise<object> {
  compiled ??= readFile(require.resolve('@jitl/quickjs-wasmfile-release-sync/wasm')).then((bytes) =>
    wasm.compile(bytes),
  );
  return compiled;
}

/**
 * One sandbox thread, seen from the host: its messages come over its own port; it is started,
 * watched and ended by the supervisor thread, whose event loop the host cannot block. Emits
 * `message`, `error` and `exit` like a `Worker`.
 * @internal
 */
export class SandboxThread extends EventEmitter {
  exited = false;

  constructor(
    readonly id: number,
    private readonly port: MessagePort,
  ) {
    super();
    port.on('message', (message: unknown) => this.emit('message', message));
  }

  postMessage(message: unknown): void {
    if (!this.exited) this.port.postMessage(message);
  }

  /** Has the supervisor end this thread once the program's CPU time (shared cells) passes `hardStopMs`. */
  watch(shared: SharedArrayBuffer, cpuTimeMs: number, hardStopMs: number): void {
    send({ type: 'watch', id: this.id, shared, cpuTimeMs, hardStopMs });
  }

  unwatch(): void {
    if (!this.exited) send({ type: 'unwatch', id: this.id });
  }

  terminate(): void {
    if (!this.exited) send({ type: 'terminate', id: this.id });
  }

  ref(): void {
    this.port.ref();
  }

  unref(): void {
    this.port.unref();
  }

  /** @internal */
  ended(code: number): void {
    if (this.exited) return;
    this.exited = true;
    this.port.close();
    const index = idle.indexOf(this);
    if (index >= 0) idle.splice(index, 1);
    this.emit('exit', code);
  }
}

let supervisor: Worker | undefined;
const threads = new Map<number, SandboxThread>();
let nextId = 1;

function send(request: SupervisorRequest): void {
  supervisorThread().postMessage(request, request.type === 'spawn' ? [request.port] : []);
}

/** The one supervisor thread of this process (started on first use, never holding the process open). */
function supervisorThread(): Worker {
  if (supervisor !== undefined) return supervisor;
  const data: SupervisorData = { sandboxSource: sandboxSource(), resourceLimits: RESOURCE_LIMITS };
  const thread = new Worker(
    `const threads = require('node:worker_threads');\n${clockSource()}\n(${supervisorMain.toString()})(threads.parentPort, threads.workerData, threads.Worker, clock.read);`,
    { eval: true, workerData: data },
  );
  thread.on('message', (report: SupervisorReport) => {
    const sandbox = threads.get(report.id);
    if (sandbox === undefined) return;
    if (report.type === 'error') {
      sandbox.emit(
        'error',
        Object.assign(new Error(report.message), report.code === undefined ? {} : { code: report.code }),
      );
    } else {
      threads.delete(report.id);
      sandbox.ended(report.code);
    }
  });
  thread.on('error', () => undefined);
  thread.once('exit', () => {
    if (supervisor === thread) supervisor = undefined;
    const orphans = [...threads.values()];
    threads.clear();
    for (const sandbox of orphans) sandbox.ended(1);
  });
  // Last: adding a `message` listener refs a worker again.
  thread.unref();
  supervisor = thread;
  return thread;
}

/**
 * A sandbox thread ready to run one program: an idle one, or a new one. Programs run off the host's
 * event loop, and the supervisor can always stop them, even inside a C builtin or sucrase.
 * @internal
 */
export async function acquireWorker(): Promise<SandboxThread> {
  const reused = idle.pop();
  if (reused !== undefined) {
    reused.ref();
    return reused;
  }
  return spawn();
}

async function spawn(): Promise<SandboxThread> {
  const module = await wasmModule();
  const channel = new MessageChannel();
  const id = nextId++;
  const data: Omit<SandboxWorkerData, 'port'> = {
    coreUrl: resolveUrl('quickjs-emscripten-core'),
    variantUrl: resolveUrl('@jitl/quickjs-wasmfile-release-sync'),
    sucraseUrl: resolveUrl('sucrase'),
    wasmModule: module,
    prelude: PRELUDE,
  };
  const sandbox = new SandboxThread(id, channel.port1);
  // An idle thread that fails is dropped; the run that owns a thread listens for itself.
  sandbox.on('error', () => undefined);
  threads.set(id, sandbox);
  send({ type: 'spawn', id, data, port: channel.port2 });
  return sandbox;
}

/** Hands a thread back after a clean run (kept idle, unref'd), or ends it. @internal */
export function releaseWorker(worker: SandboxThread, reusable: boolean): void {
  if (reusable && !worker.exited && idle.length < MAX_IDLE) {
    worker.unref();
    idle.push(worker);
    return;
  }
  worker.terminate();
  // A stopped program's thread is gone: start its successor now, off the next run's path.
  topUp();
}

let starting = 0;

/** Starts threads in the background until `MAX_IDLE` are idle or starting. */
function topUp(): void {
  while (idle.length + starting < MAX_IDLE) {
    starting += 1;
    spawn().then(
      (fresh) => {
        starting -= 1;
        if (idle.length < MAX_IDLE && !fresh.exited) {
          fresh.unref();
          idle.push(fresh);
        } else fresh.terminate();
      },
      () => {
        starting -= 1;
      },
    );
  }
}
