import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { arch, platform, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AdminApiError } from '../errors/admin-api-error.js';
import { LocalRestateServerError } from '../errors/local-restate-server-error.js';

/** Options for {@link startLocalRestateServer}. */
export interface LocalRestateServerOptions {
  /**
   * The `restate-server` executable. Default: `RESTATE_SERVER_BIN`, else the platform binary of
   * `@restatedev/restate-server` resolved from this package (an optional peer), else from the
   * current directory's project. Independent of the directory the process runs in.
   */
  readonly binaryPath?: string | undefined;
  /** Interface to bind every listener to. Default `127.0.0.1`. */
  readonly host?: string | undefined;
  /** Data directory. Default: a fresh temporary directory, removed by `stop()`. */
  readonly baseDir?: string | undefined;
  /**
   * Extra `RESTATE_*` environment for the server (configuration overrides). Telemetry is off by
   * default (`RESTATE_DISABLE_TELEMETRY=true`, `DO_NOT_TRACK=1`). restate-server 1.7 also asks
   * GitHub for its latest release at every start and has no switch for that: run it where it
   * cannot reach the internet (the repo's tests run in a loopback-only network namespace).
   */
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

/** The `restate-server` binary: `RESTATE_SERVER_BIN`, else from this package, else from the cwd's project. @internal */
export function resolveRestateServerBinary(): string {
  const fromEnv = process.env.RESTATE_SERVER_BIN;
  if (fromEnv) return fromEnv;
  const binary = `@restatedev/restate-server-${platform()}-${arch()}/bin/restate-server`;
  const tried: string[] = [];
  for (const base of [import.meta.url, pathToFileURL(join(process.cwd(), 'package.json')).href]) {
    try {
      const wrapper = createRequire(createRequire(base).resolve('@restatedev/restate-server/package.json'));
      return wrapper.resolve(binary);
    } catch (error) {
      tried.push(`from ${base}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    }
  }
  throw new LocalRestateServerError({
    problem: 'binary_not_found',
    detail: `install @restatedev/restate-server (it ships ${binary}) or set RESTATE_SERVER_BIN; tried ${tried.join('; ')}`,
  });
}

async function waitFor(
  url: string,
  deadline: number,
  child: ChildProcess,
  binaryPath: string,
  spawnError: () => Error | undefined,
): Promise<void> {
  for (;;) {
    const failed = spawnError();
    if (failed !== undefined)
      throw new LocalRestateServerError({ problem: 'spawn_failed', detail: failed.message, binaryPath, cause: failed });
    if (child.exitCode !== null || child.signalCode !== null)
      throw new LocalRestateServerError({
        problem: 'exited',
        detail: `exited with ${child.exitCode ?? child.signalCode} before ${url} answered`,
        binaryPath,
      });
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {}
    if (Date.now() > deadline)
      throw new LocalRestateServerError({
        problem: 'start_timeout',
        detail: `${url} did not answer in time`,
        binaryPath,
      });
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
  // Resolve the binary before anything is created, so a missing binary leaves nothing behind.
  const binaryPath = options.binaryPath ?? resolveRestateServerBinary();
  const ownsDir = options.baseDir === undefined;
  const baseDir = options.baseDir ?? mkdtempSync(join(tmpdir(), 'tiny-restate-'));
  let child: ChildProcess | undefined;
  let spawnError: Error | undefined;
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      if (child !== undefined && child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
        const running = child;
        const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
        running.kill('SIGTERM');
        const timer = setTimeout(() => running.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      if (ownsDir) rmSync(baseDir, { recursive: true, force: true });
    })();
    return stopped;
  };
  try {
    const [ingress, admin, fabric] = [await freePort(host), await freePort(host), await freePort(host)];
    const spawned = spawn(binaryPath, ['--base-dir', baseDir, '--no-logo', '--node-name', 'local'], {
      env: {
        ...process.env,
        RESTATE_DISABLE_TELEMETRY: 'true',
        DO_NOT_TRACK: '1',
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
    });
    child = spawned;
    spawned.once('error', (error) => {
      spawnError = error;
    });
    const log = options.log ?? (() => {});
    spawned.stdout?.on('data', (chunk: Buffer) => log(chunk.toString()));
    spawned.stderr?.on('data', (chunk: Buffer) => log(chunk.toString()));
    const server: LocalRestateServer = {
      ingressUrl: `http://${host}:${ingress}`,
      adminUrl: `http://${host}:${admin}`,
      baseDir,
      process: spawned,
      stop,
    };
    const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
    await waitFor(`${server.adminUrl}/health`, deadline, spawned, binaryPath, () => spawnError);
    await waitFor(`${server.ingressUrl}/restate/health`, deadline, spawned, binaryPath, () => spawnError);
    return server;
  } catch (error) {
    await stop();
    throw error;
  }
}

/** What the admin API answers for a registered deployment (the fields tiny reads). */
export interface DeploymentInfo {
  readonly id: string;
  readonly uri?: string | undefined;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

async function admin(adminUrl: string, operation: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${trimSlash(adminUrl)}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new AdminApiError({ operation, status: response.status, detail: text });
  return text === '' ? undefined : JSON.parse(text);
}

/**
 * Registers (or re-registers, `force`) the service endpoint at `uri` with the admin API, so Restate
 * discovers its services and routes invocations to it. Returns the deployment (its `id`).
 * @throws {AdminApiError} when the admin API refuses (e.g. the endpoint cannot be reached).
 */
export async function registerDeployment(
  adminUrl: string,
  uri: string,
  options: { force?: boolean } = {},
): Promise<DeploymentInfo> {
  return (await admin(adminUrl, `register ${uri}`, 'POST', '/deployments', {
    uri,
    force: options.force ?? true,
  })) as DeploymentInfo;
}

/**
 * Moves the deployment registered at `fromUri` to `toUri` (`PATCH /deployments/<id>`): for a
 * replacement worker that comes up at a new address. Invocations in flight are pinned to their
 * deployment, not to an address, so they retry at the new URI and finish there; registering the
 * new URI as a *new* deployment instead would leave them retrying the dead one. The new endpoint
 * must serve the same services and handlers. Returns the ids of the deployments moved.
 * @throws {AdminApiError} when no deployment is registered at `fromUri` (status 0) or the update is refused.
 */
export async function repointDeployment(adminUrl: string, fromUri: string, toUri: string): Promise<string[]> {
  const operation = `repoint ${fromUri} -> ${toUri}`;
  const listed = (await admin(adminUrl, operation, 'GET', '/deployments')) as { deployments?: DeploymentInfo[] };
  const matching = (listed?.deployments ?? []).filter(
    (deployment) => deployment.uri !== undefined && trimSlash(deployment.uri) === trimSlash(fromUri),
  );
  if (matching.length === 0)
    throw new AdminApiError({ operation, status: 0, detail: `no deployment is registered at ${fromUri}` });
  for (const deployment of matching)
    await admin(adminUrl, operation, 'PATCH', `/deployments/${encodeURIComponent(deployment.id)}`, { uri: toUri });
  return matching.map((deployment) => deployment.id);
}
