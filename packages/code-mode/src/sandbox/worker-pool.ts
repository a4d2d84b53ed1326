import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { PRELUDE } from './prelude.js';
import { type SandboxWorkerData, sandboxWorkerMain } from './sandbox-worker.js';

const require = createRequire(import.meta.url);

/** Idle workers kept for the next run (each has run only clean programs). */
const MAX_IDLE = 2;
/** A worker whose QuickJS memory grew past this is not kept: its memory goes back with it. */
export const KEEP_BELOW_BYTES = 48 * 1024 * 1024;

const idle: Worker[] = [];
let compiled: Promise<object> | undefined;
const { WebAssembly: wasm } = globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<object> } };

function resolveUrl(specifier: string): string {
  return pathToFileURL(require.resolve(specifier)).href;
}

/** The worker's source: the self-contained `sandboxWorkerMain`, called with its port and data. */
const bootstrap = () =>
  `const threads = require('node:worker_threads');\n(${sandboxWorkerMain.toString()})(threads.parentPort, threads.workerData, (url) => import(url));`;

/** The QuickJS wasm, compiled once per process and shared by every worker. */
function wasmModule(): Promise<object> {
  compiled ??= readFile(require.resolve('@jitl/quickjs-wasmfile-release-sync/wasm')).then((bytes) =>
    wasm.compile(bytes),
  );
  return compiled;
}

/**
 * A worker thread ready to run one program: an idle one, or a new one. Programs run off the host's
 * event loop, so the host can always stop them (`worker.terminate()`), even inside a C builtin.
 * @internal
 */
export async function acquireWorker(): Promise<Worker> {
  const reused = idle.pop();
  if (reused !== undefined) {
    reused.ref();
    return reused;
  }
  return spawn();
}

async function spawn(): Promise<Worker> {
  const data: SandboxWorkerData = {
    coreUrl: resolveUrl('quickjs-emscripten-core'),
    variantUrl: resolveUrl('@jitl/quickjs-wasmfile-release-sync'),
    wasmModule: await wasmModule(),
    prelude: PRELUDE,
  };
  const worker = new Worker(bootstrap(), { eval: true, workerData: data });
  // An idle worker that fails is dropped; the run that owns a worker listens for itself.
  worker.on('error', () => undefined);
  worker.once('exit', () => {
    const index = idle.indexOf(worker);
    if (index >= 0) idle.splice(index, 1);
  });
  return worker;
}

/** Hands a worker back after a clean run (kept idle, unref'd), or ends it. @internal */
export function releaseWorker(worker: Worker, reusable: boolean): void {
  if (reusable && idle.length < MAX_IDLE) {
    worker.unref();
    idle.push(worker);
    return;
  }
  void worker.terminate();
  // A stopped program's thread is gone: start its successor now, off the next run's path.
  topUp();
}

let starting = 0;

/** Starts workers in the background until `MAX_IDLE` are idle or starting. */
function topUp(): void {
  while (idle.length + starting < MAX_IDLE) {
    starting += 1;
    spawn().then(
      (fresh) => {
        starting -= 1;
        if (idle.length < MAX_IDLE) {
          fresh.unref();
          idle.push(fresh);
        } else void fresh.terminate();
      },
      () => {
        starting -= 1;
      },
    );
  }
}
