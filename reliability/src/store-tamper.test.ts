import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import type * as fsPromises from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AgentHarness,
  InMemoryCheckpointStore,
  InMemoryToolEffectLedger,
  type RunState,
  type ToolEffectLedger,
} from '@tiny/harness';
import { createFileArtifactStore, createFileCheckpointStore } from '@tiny/harness/node';
import { ScriptedModel } from '@tiny/harness/testkit';
import { SqliteToolEffectLedger } from '@tiny/ledger-sqlite';
import { defineTool, TinyError, ToolPolicy, type ToolResult } from '@tiny/tools';
import fc from 'fast-check';
import { Type } from 'typebox';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { propertyRuns } from './property-runs.js';

/**
 * Breaker classes against the stores, generated: planted symbolic links, FIFOs, corrupt records and
 * directories in a file store's folder; a file-system failure injected at every step of saves,
 * deletes and resume claims (at the stores' `node:fs/promises` boundary: a full or read-only disk
 * needs a mount an unprivileged test cannot make); non-JSON, deep and cyclic tool arguments through
 * model calls and nested `ctx.callTool` with a ledger. Sized by run counts.
 */
const RUNS = Number(process.env.STORE_TAMPER_RUNS ?? propertyRuns(60));

const inject = vi.hoisted(() => ({ countdown: 0, code: 'ENOSPC', hits: 0, calls: 0, last: '' }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof fsPromises>();
  const step = (syscall: string) => {
    if (inject.countdown <= 0) return;
    inject.calls += 1;
    inject.countdown -= 1;
    if (inject.countdown === 0) {
      inject.hits += 1;
      inject.last = syscall;
      throw Object.assign(new Error(`${inject.code}: injected, ${syscall}`), { code: inject.code, syscall });
    }
  };
  const wrap =
    <K extends 'mkdir' | 'link' | 'rename' | 'unlink' | 'readdir' | 'lstat'>(name: K) =>
    async (...args: unknown[]) => {
      step(name);
      return (real[name] as (...rest: unknown[]) => unknown)(...args);
    };
  const open = async (...args: Parameters<typeof real.open>) => {
    step('open');
    const handle = await real.open(...args);
    const through =
      (name: 'writeFile' | 'sync' | 'readFile' | 'stat') =>
      async (...rest: unknown[]) => {
        step(name);
        return (handle[name] as (...more: unknown[]) => unknown).apply(handle, rest);
      };
    return Object.assign(Object.create(handle), {
      writeFile: through('writeFile'),
      sync: through('sync'),
      readFile: through('readFile'),
      stat: through('stat'),
      close: () => handle.close(),
    });
  };
  return {
    ...real,
    open,
    mkdir: wrap('mkdir'),
    link: wrap('link'),
    rename: wrap('rename'),
    unlink: wrap('unlink'),
    readdir: wrap('readdir'),
    lstat: wrap('lstat'),
  };
});

const root = mkdtempSync(join(tmpdir(), 'tiny-store-tamper-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let cases = 0;
const tally = { planted: 0, injected: 0, failedClaimsRetried: 0, argumentCases: 0, refusedArguments: 0 };
afterAll(() => {
  console.log(
    `store-tamper: ${tally.planted} planted entries, ${tally.injected} injected fs failures, ${tally.failedClaimsRetried} failed claims granted on retry, ${tally.refusedArguments} of ${tally.argumentCases} argument cases refused typed`,
  );
});
const fresh = () => join(root, `c${cases++}`);
const canFifo = process.platform !== 'win32';

const stateOf = (runId: string, text: string): RunState => ({
  version: 1,
  runId,
  messages: [{ role: 'user', content: text }],
  budgets: { modelCalls: 0, toolCalls: 0 },
  usage: {},
});
const textOf = (state: RunState | undefined) => state?.messages[0]?.content as string | undefined;
/** Every rejection a store gives must be typed. */
const typed = async <T>(promise: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> => {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    expect(TinyError.isInstance(error), `raw ${String(error)}`).toBe(true);
    return { ok: false, error };
  }
};
const snapshotDir = (dir: string): string =>
  JSON.stringify(
    readdirSync(dir, { recursive: true, withFileTypes: true }).map((entry) => [
      entry.name,
      entry.isFile() ? readFileSync(join(entry.parentPath, entry.name), 'utf8') : '',
    ]),
  );

const ids = fc.constantFrom('a', 'b', 'run-1', 'A', 'x/y', '..', 'L'.repeat(200), 'é', 'con');
const tamper = fc.constantFrom(
  'link-outside-file',
  'link-dangling',
  'fifo',
  'corrupt',
  'directory',
  'remove-store',
  'claims-link',
);

describe('file checkpoint store with planted entries', () => {
  it('never reads or writes outside, never hangs, loads untouched ids exactly, types every failure', async () => {
    let planted = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(ids, { minLength: 1, maxLength: 5 }),
        fc.array(fc.tuple(fc.nat(), tamper), { minLength: 1, maxLength: 3 }),
        async (saved, tampers) => {
          const dir = fresh();
          const outside = fresh();
          mkdirSync(outside, { recursive: true });
          writeFileSync(join(outside, 'secret.json'), JSON.stringify(stateOf('a', 'SECRET')));
          const before = snapshotDir(outside);
          const store = createFileCheckpointStore(dir, { fsync: false });
          for (const id of saved) await store.save(stateOf(id, `text of ${id}`));
          const names = readdirSync(dir).filter((name) => name.endsWith('.json'));
          const owner = new Map(names.map((name) => [name, ownerOf(dir, name)]));
          const touched = new Set<string>();
          let removed = false;
          for (const [pick, how] of tampers) {
            if (removed) break;
            const name = names[pick % names.length] as string;
            const path = join(dir, name);
            if (how === 'remove-store') {
              rmSync(dir, { recursive: true, force: true });
              removed = true;
              continue;
            }
            if (how === 'claims-link') {
              rmSync(join(dir, '.claims'), { recursive: true, force: true });
              symlinkSync(outside, join(dir, '.claims'));
              continue;
            }
            if (how === 'fifo' && !canFifo) continue;
            rmSync(path, { recursive: true, force: true });
            if (how === 'link-outside-file') symlinkSync(join(outside, 'secret.json'), path);
            else if (how === 'link-dangling') symlinkSync(join(outside, 'missing.json'), path);
            else if (how === 'fifo') execFileSync('mkfifo', [path]);
            else if (how === 'corrupt') writeFileSync(path, '{"version":1,');
            else mkdirSync(path);
            planted += 1;
            touched.add(owner.get(name) ?? '');
          }
          const untouched = removed ? [] : saved.filter((id) => !touched.has(id));
          const listed = await typed(store.list());
          if (listed.ok) {
            expect(new Set(listed.value).size).toBe(listed.value.length);
            for (const id of untouched) expect(listed.value).toContain(id);
          }
          for (const id of saved) {
            const loaded = await typed(store.load(id));
            if (untouched.includes(id)) expect(loaded.ok && textOf(loaded.value)).toBe(`text of ${id}`);
            if (loaded.ok && loaded.value !== undefined) expect(textOf(loaded.value)).toBe(`text of ${id}`);
          }
          await typed(store.claimResume(saved[0] as string, 'k'));
          await typed(store.save(stateOf(saved[0] as string, 'again')));
          await typed(store.delete(saved[saved.length - 1] as string));
          expect(snapshotDir(outside)).toBe(before);
        },
      ),
      { numRuns: RUNS },
    );
    tally.planted += planted;
    expect(planted).toBeGreaterThan(0);
  });
});

/** The run id a saved checkpoint file holds. */
function ownerOf(dir: string, name: string): string | undefined {
  return (JSON.parse(readFileSync(join(dir, name), 'utf8')) as RunState).runId;
}

describe('file artifact store with planted entries', () => {
  it('lists every readable artifact, reports the others, never reads or writes outside', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom('fifo', 'corrupt', 'link', 'data-link', 'run-link')), {
          minLength: 1,
          maxLength: 3,
        }),
        async (count, tampers) => {
          const dir = fresh();
          const outside = fresh();
          mkdirSync(outside, { recursive: true });
          writeFileSync(join(outside, 'x.json'), 'outside');
          const before = snapshotDir(outside);
          const unreadable: string[] = [];
          const store = createFileArtifactStore(dir, {
            fsync: false,
            onUnreadable: (error) => unreadable.push(error.uri),
          });
          const refs = [];
          for (let n = 0; n < count; n += 1)
            refs.push(await store.put(`data ${n}`, { runId: 'r', callId: 'c', name: 'n', mediaType: 'text/plain' }));
          const broken = new Set<string>();
          let runLinked = false;
          for (const [pick, how] of tampers) {
            const ref = refs[pick % refs.length] as (typeof refs)[number];
            const base = join(dir, 'r', ref.uri.split('/').pop() as string);
            if (how === 'run-link') {
              rmSync(join(dir, 'v'), { recursive: true, force: true });
              symlinkSync(outside, join(dir, 'v'));
              runLinked = true;
              continue;
            }
            if (how === 'fifo' && !canFifo) continue;
            const path = how === 'data-link' ? `${base}.bin` : `${base}.json`;
            rmSync(path, { force: true });
            if (how === 'fifo') execFileSync('mkfifo', [path]);
            else if (how === 'corrupt') writeFileSync(path, 'not json');
            else symlinkSync(join(outside, 'x.json'), path);
            broken.add(ref.uri);
          }
          const listed = await store.list('r');
          const scan = await store.scan('r');
          for (const ref of refs) {
            const got = await typed(store.get(ref));
            if (!broken.has(ref.uri)) {
              expect(listed).toContainEqual(ref);
              expect(got.ok && new TextDecoder().decode(got.value)).toMatch(/^data \d$/);
            } else expect(got.ok).toBe(false);
          }
          expect(listed.length + scan.unreadable.length).toBeLessThanOrEqual(refs.length);
          expect(unreadable.sort()).toEqual(scan.unreadable.map((error) => error.uri).sort());
          if (runLinked) {
            await typed(store.put('x', { runId: 'v', callId: 'c', name: 'n', mediaType: 'text/plain' }));
            await typed(store.list('v'));
          }
          expect(snapshotDir(outside)).toBe(before);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('file checkpoint store with a failure injected at every step', () => {
  it('types every failure, keeps durable states, and never uses up a claim that failed', async () => {
    let injected = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({ op: fc.constant('save' as const), id: ids, text: fc.string({ maxLength: 8 }) }),
            fc.record({ op: fc.constant('claim' as const), id: ids, claim: fc.constantFrom('k1', 'k2') }),
            fc.record({ op: fc.constant('delete' as const), id: ids }),
          ),
          { minLength: 1, maxLength: 6 },
        ),
        fc.integer({ min: 1, max: 40 }),
        fc.constantFrom('ENOSPC', 'EIO', 'EROFS'),
        async (ops, failAt, code) => {
          const dir = fresh();
          const store = createFileCheckpointStore(dir, { fsync: true });
          /** Per id: the texts a load may return (a failed save may or may not have replaced it). */
          const model = new Map<string, Set<string | undefined>>();
          const claimed = new Set<string>();
          const failedClaims = new Set<string>();
          inject.code = code;
          inject.countdown = failAt;
          const hitsBefore = inject.hits;
          try {
            for (const op of ops) {
              const possible = model.get(op.id) ?? new Set([undefined]);
              if (op.op === 'save') {
                const result = await typed(store.save(stateOf(op.id, op.text)));
                model.set(op.id, result.ok ? new Set([op.text]) : new Set([...possible, op.text]));
              } else if (op.op === 'delete') {
                const result = await typed(store.delete(op.id));
                model.set(op.id, result.ok ? new Set([undefined]) : new Set([...possible, undefined]));
              } else {
                const key = `${op.id}\0${op.claim}`;
                const result = await typed(store.claimResume(op.id, op.claim));
                if (result.ok) {
                  expect(result.value).toBe(!claimed.has(key));
                  claimed.add(key);
                  failedClaims.delete(key);
                } else if (!claimed.has(key)) failedClaims.add(key);
              }
            }
          } finally {
            inject.countdown = 0;
          }
          injected += inject.hits - hitsBefore;
          for (const [id, possible] of model) expect(possible.has(textOf(await store.load(id)))).toBe(true);
          const listed = await store.list();
          for (const [id, possible] of model) if (!possible.has(undefined)) expect(listed).toContain(id);
          // A claim that failed was not used up: the first retry gets it, exactly once.
          for (const key of failedClaims) {
            const [id, claim] = key.split('\0') as [string, string];
            expect(await store.claimResume(id, claim), `claim failed at ${inject.last}`).toBe(true);
            tally.failedClaimsRetried += 1;
            expect(await store.claimResume(id, claim)).toBe(false);
          }
          if (existsSync(dir)) expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
        },
      ),
      { numRuns: RUNS * 2 },
    );
    tally.injected += injected;
    expect(injected).toBeGreaterThan(0);
  });
});

/** `{ a: { a: ... } }`, `depth` levels, built without recursion. */
const deep = (depth: number) => {
  const value: Record<string, unknown> = {};
  let at = value;
  for (let level = 1; level < depth; level += 1) {
    at.a = {};
    at = at.a as Record<string, unknown>;
  }
  return value;
};
const hostile = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((value) => ({ a: value })),
  fc
    .constantFrom<() => unknown>(
      () => ({ a: 10n }),
      () => ({
        get a() {
          throw new RangeError('getter');
        },
      }),
      () =>
        new Proxy(
          {},
          {
            ownKeys: () => {
              throw new TypeError('trap');
            },
          },
        ),
      () => ({ a: { toJSON: () => deep(50_000) } }),
      () => ({ a: deep(5_000) }),
      () => ({ a: deep(100_000) }),
      () => {
        const value: Record<string, unknown> = {};
        value.self = { back: value };
        return value;
      },
      () => ({ a: [1, undefined, () => 1] }),
      () => ({ a: Number.NaN }),
    )
    .map((make) => make()),
);

describe('non-JSON, deep and cyclic arguments with a ledger', () => {
  it('direct and nested calls end typed: the run finishes, its checkpoints save and load', async () => {
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(hostile, fc.boolean(), fc.boolean(), async (args, nested, sqlite) => {
        const ran: unknown[] = [];
        const inner = defineTool({
          name: 'inner',
          description: '',
          parameters: Type.Object({ a: Type.Optional(Type.Any()) }),
          policy: ToolPolicy.classified().withSideEffects({ externalService: true }),
          execute: (input) => {
            ran.push(input);
            return 'inner ran';
          },
        });
        const runner = defineTool({
          name: 'runner',
          description: '',
          parameters: Type.Object({}),
          nestedTools: [inner],
          execute: async (_input, context) => {
            try {
              const result = (await context.callTool?.('inner', args as Record<string, unknown>)) as ToolResult;
              return result.output();
            } catch (error) {
              expect(TinyError.isInstance(error), `raw ${String(error)}`).toBe(true);
              return 'refused';
            }
          },
        });
        const ledger: ToolEffectLedger & { close?: () => Promise<void> } = sqlite
          ? new SqliteToolEffectLedger({ path: join(mkdirSync(fresh(), { recursive: true }) as string, 'agent.db') })
          : new InMemoryToolEffectLedger();
        const checkpoints = new InMemoryCheckpointStore();
        const call = nested
          ? { id: 'c1', name: 'runner', arguments: {}, rawArguments: '{}' }
          : { id: 'c1', name: 'inner', arguments: args as Record<string, unknown>, rawArguments: '{}' };
        const harness = new AgentHarness({
          model: new ScriptedModel({ steps: [{ toolCalls: [call] }, { content: 'done' }] }),
          tools: [inner, runner],
          ledger,
        });
        try {
          const run = await harness.invoke({ runId: 'r' }, [{ role: 'user', content: 'go' }], {
            onCheckpoint: (state) => checkpoints.save(state),
          });
          expect(run.outcome).toBe('final');
          tally.argumentCases += 1;
          if (ran.length === 0) refused += 1;
          for (const input of ran) expect(() => JSON.stringify(input)).not.toThrow();
          for (const id of await checkpoints.list()) expect((await checkpoints.load(id))?.runId).toBe('r');
        } finally {
          await ledger.close?.();
        }
      }),
      { numRuns: RUNS * 2 },
    );
    tally.refusedArguments += refused;
    expect(refused).toBeGreaterThan(0);
  });
});
