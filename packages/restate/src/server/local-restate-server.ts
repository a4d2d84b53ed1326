import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { arch, platform, tmpdir } from 'node:os';
import { join } from 'node:path';

/** Options for {@link startLocalRestateServer}. */
export interface LocalRestateServerOptions {
  /** The `restate-server` executable. Default: `RESTATE_SERVER_BIN`, else the platform binary of `@restatedev/restate-server` installed where the process runs. */
  readonly binaryPath?: string | undefined;
  /** Interface to bind every listener to. Default `127.0.0.1`. */
  readonly host?: string | undefined;
  /** Data directory. Default: a fresh temporary directory, removed by `stop()`. */
  readonly baseDir?: string | undefined;
  /** Extra `RESTATE_*` environment for the server (configuration overrides). */
  readonly env?: Readonly<Record<string, string>> | undefined;
  /** Where server output goes. Default: discarded. */
  readonly log?: ((chunk: string) => void) | undefined;
  /** How long to wait for the admin API to answer. Default 30 s. */
  readonly startTimeoutMs?: number | undefined;
}

/** A running local `restate-server`. */
export interface LocalRestateServer {
  readonly ingressUrl: string;
  readonly adminUrl: string;
  readonly baseDir: string;
  readonly process: ChildProcess;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s) and removes a temporary data dir. Safe to call twice. */
  stop(): Promise<void>;
}

/** A port free on `host` right now. @internal */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function resolveBinary(): string {
  const fromEnv = process.env.RESTATE_SERVER_BIN;
  if (fromEnv) return fromEnv;
  const here = createRequire(join(process.cwd(), 'package.json'));
  const wrapper = createRequire(here.resolve('@restatedev/restate-server/package.json'));
  return wrapper.resolve(`@restatedev/restate-server-${platform()}-${arch()}/bin/restate-server`);
}

async function waitFor(url: string, deadline: number, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`restate-server exited with code ${child.exitCode} before ${url} answered`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {}
    if (Date.now() > deadline) throw new Error(`restate-server did not answer ${url} in time`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Starts a single-node `restate-server` for tests and local development: every listener (ingress,
 * admin, node-to-node) on `host` at free ports, TCP only, data in a temporary directory, and short
 * retry/inactivity intervals so a restarted worker picks a run up within a second. Not a
 * production configuration.
 */
export async function startLocalRestateServer(options: LocalRestateServerOptions = {}): Promise<LocalRestateServer> {
  const host = options.host ?? '127.0.0.1';
  const ownsDir = options.baseDir === undefined;
  const baseDir = options.baseDir ?? mkdtempSync(join(tmpdir(), 'tiny-restate-'));
  const [ingress, admin, fabric] = [await freePort(host), await freePort(host), await freePort(host)];
  const child = spawn(
    options.binaryPath ?? resolveBinary(),
    ['--base-dir', baseDir, '--no-logo', '--node-name', 'local'],
    {
      env: {
        ...process.env,
        RESTATE_LISTEN_MODE: 'tcp',
        RESTATE_INGRESS__BIND_ADDRESS: `${host}:${ingress}`,
        RESTATE_ADMIN__BIND_ADDRESS: `${host}:${admin}`,
        RESTATE_BIND_ADDRESS: `${host}:${fabric}`,
        RESTATE_ADVERTISED_ADDRESS: `http://${host}:${fabric}`,
        RESTATE_INGRESS__ADVERTISED_INGRESS_ENDPOINT: `http://${host}:${ingress}`,
        RESTATE_DEFAULT_RETRY_POLICY__INITIAL_INTERVAL: '100ms',
        RESTATE_DEFAULT_RETRY_POLICY__MAX_INTERVAL: '500ms',
        RESTATE_DEFAULT_RETRY_POLICY__MAX_ATTEMPTS: '1000',
        RESTATE_WORKER__INVOKER__INACTIVITY_TIMEOUT: '2s',
        RESTATE_WORKER__STORAGE__ROCKSDB_MEMORY_BUDGET: '128MiB',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const log = options.log ?? (() => {});
  child.stdout?.on('data', (chunk: Buffer) => log(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => log(chunk.toString()));
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      if (ownsDir) rmSync(baseDir, { recursive: true, force: true });
    })();
    return stopped;
  };
  const server: LocalRestateServer = {
    ingressUrl: `http://${host}:${ingress}`,
    adminUrl: `http://${host}:${admin}`,
    baseDir,
    process: child,
    stop,
  };
  try {
    const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
    await waitFor(`${server.adminUrl}/health`, deadline, child);
    await waitFor(`${server.ingressUrl}/restate/health`, deadline, child);
  } catch (error) {
    await stop();
    throw error;
  }
  return server;
}

/**
 * Registers (or re-registers, `force`) the service endpoint at `uri` with the admin API, so Restate
 * discovers its services and routes invocations to it.
 */
export async function registerDeployment(
  adminUrl: string,
  uri: string,
  options: { force?: boolean } = {},
): Promise<unknown> {
  const response = await fetch(`${adminUrl.replace(/\/+$/, '')}/deployments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ uri, force: options.force ?? true }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`registering ${uri} failed (${response.status}): ${text}`);
  return JSON.parse(text);
}
