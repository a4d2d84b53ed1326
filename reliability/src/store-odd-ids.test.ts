import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import {
  type ArtifactRef,
  type ArtifactStore,
  type CheckpointStore,
  InMemoryArtifactStore,
  InMemoryCheckpointStore,
  type RunState,
} from '@tiny/harness';
import { createFileArtifactStore, createFileCheckpointStore } from '@tiny/harness/node';
import { SqliteArtifactStore, SqliteCheckpointStore, SqliteToolEffectLedger } from '@tiny/ledger-sqlite';
import { InvalidInputError, TinyError } from '@tiny/tools';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { propertyRuns } from './property-runs.js';

/** Property runs per store and property: each saves, lists, loads and deletes up to 6 ids. */
const RUNS = Number(process.env.STORE_FUZZ_RUNS ?? propertyRuns(200));

const root = mkdtempSync(join(tmpdir(), 'tiny-store-odd-ids-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let cases = 0;

/** Any code point (mostly), or any UTF-16 code unit: lone surrogates and NUL included. */
const unit = fc.oneof(
  { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), weight: 60 },
  { arbitrary: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), weight: 1 },
);
const piece = fc.constantFrom(
  '.',
  '..',
  '/',
  '\\',
  '\0',
  'a',
  'A',
  'CON',
  'nul',
  ' ',
  '.json',
  '.tmp',
  '%2F',
  '@',
  '=',
  'é',
  '😀',
);
/** Run ids and names as a hostile host could pass them: unicode, path pieces, case variants, very long. */
const oddId = fc.oneof(
  fc.string({ unit, minLength: 1, maxLength: 12 }),
  fc.string({ unit: piece, minLength: 1, maxLength: 8 }),
  fc.string({ unit: fc.constantFrom('a', 'A', 'x', '.'), minLength: 1, maxLength: 6 }),
  fc.string({ unit: fc.oneof(unit, piece), minLength: 140, maxLength: 400 }),
);
const oddIds = fc.uniqueArray(oddId, { minLength: 1, maxLength: 6 });
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_ALL = new RegExp(LONE.source, 'g');

const tally = { runs: 0, ids: 0, escapes: 0, lost: 0, untyped: 0, refused: 0 };
afterAll(() => {
  console.log(
    `store-odd-ids: ${tally.runs} cases, ${tally.ids} ids stored and read back; escapes ${tally.escapes}, lost ids ${tally.lost}, untyped errors ${tally.untyped}, typed refusals (lone surrogates) ${tally.refused}`,
  );
});

/** Every path under `dir`, relative to it. */
function walk(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? [relative(base, path), ...walk(path, base)] : [relative(base, path)];
  });
}

/** A fresh parent with the store's directory inside it; `outside()` lists what is outside the store. */
function sandbox() {
  const parent = join(root, `c${cases++}`);
  mkdirSync(parent);
  const store = join(parent, 'store');
  return { store, outside: () => walk(parent).filter((path) => path !== 'store' && !path.startsWith(`store/`)) };
}

/** Runs `operation`; a rejection must be typed, and an `InvalidInputError` only where `mayRefuse`. */
async function attempt<T>(operation: () => Promise<T>, mayRefuse: boolean, count = true): Promise<T | 'refused'> {
  try {
    return await operation();
  } catch (error) {
    if (!TinyError.isInstance(error)) {
      tally.untyped += 1;
      throw new Error(`untyped error: ${String(error)}`, { cause: error });
    }
    if (mayRefuse && InvalidInputError.isInstance(error)) {
      if (count) tally.refused += 1;
      return 'refused';
    }
    throw error;
  }
}

const stateOf = (runId: string): RunState => ({
  version: 1,
  runId,
  messages: [{ role: 'user', content: `state of ${runId}` }],
  budgets: { modelCalls: 0, toolCalls: 0 },
  usage: {},
});

const checkpointStores: [string, (dir: string) => CheckpointStore & { close?: () => Promise<void> }, boolean][] = [
  ['file', (dir) => createFileCheckpointStore(dir, { fsync: false }), false],
  ['in-memory', () => new InMemoryCheckpointStore(), false],
  ['SQLite', () => new SqliteCheckpointStore({ path: ':memory:' }), true],
];

describe.each(checkpointStores)('%s checkpoint store with odd run ids', (_name, open, sqlite) => {
  it(`round-trips save, list, load and delete exactly, never outside the store (${RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(oddIds, fc.nat(), async (ids, pick) => {
        tally.runs += 1;
        const box = sandbox();
        const store = open(box.store);
        const saved: string[] = [];
        for (const id of ids) {
          const result = await attempt(() => store.save(stateOf(id)), sqlite && LONE.test(id));
          if (result !== 'refused') saved.push(id);
          if (result !== 'refused') tally.ids += 1;
        }
        const listed = await attempt(() => store.list(), false);
        const lost = saved.filter((id) => !(listed as string[]).includes(id));
        tally.lost += lost.length;
        expect(lost).toEqual([]);
        expect(listed).toEqual([...saved].sort());
        for (const id of saved) expect((await attempt(() => store.load(id), false)) as RunState).toEqual(stateOf(id));
        if (box.outside().length > 0) tally.escapes += 1;
        expect(box.outside()).toEqual([]);
        if (saved.length > 0) {
          const gone = saved[pick % saved.length] as string;
          await attempt(() => store.delete(gone), false);
          const rest = saved.filter((id) => id !== gone);
          const after = (await attempt(() => store.list(), false)) as string[];
          tally.lost += rest.filter((id) => !after.includes(id)).length;
          expect(after).toEqual([...rest].sort());
          expect(await attempt(() => store.load(gone), false)).toBeUndefined();
          for (const id of rest) expect(((await store.load(id)) as RunState).runId).toBe(id);
        }
        const names = sqlite || !box.store ? [] : safeReaddir(box.store);
        // Names a case-insensitive file system keeps apart, each within 255 bytes with its temp suffix.
        expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(names.length);
        for (const name of names) expect(Buffer.byteLength(name) + 19).toBeLessThanOrEqual(255);
        await store.close?.();
      }),
      { numRuns: RUNS },
    );
  });
});

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

const artifactStores: [string, (dir: string) => ArtifactStore & { close?: () => Promise<void> }][] = [
  ['file', (dir) => createFileArtifactStore(dir, { fsync: false })],
  ['in-memory', () => new InMemoryArtifactStore()],
  ['SQLite', () => new SqliteArtifactStore({ path: ':memory:' })],
];

describe.each(artifactStores)('%s artifact store with odd run ids and names', (_name, open) => {
  it(`lists each run's artifacts exactly and reads them back, never outside the store (${RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(oddIds, oddId, async (runIds, name) => {
        tally.runs += 1;
        const box = sandbox();
        const store = open(box.store);
        const stored = new Map<string, ArtifactRef>();
        for (const runId of runIds) {
          const options = { mediaType: 'text/plain', name, runId, callId: name };
          const ref = await attempt(() => store.put(`bytes of ${runId}`, options), LONE.test(runId) || LONE.test(name));
          if (ref !== 'refused') stored.set(runId, ref);
          if (ref !== 'refused') tally.ids += 1;
        }
        for (const runId of runIds) {
          const listed = await attempt(() => store.list(runId), false);
          const ref = stored.get(runId);
          if (ref === undefined) {
            expect(listed).toEqual([]);
            continue;
          }
          tally.lost += (listed as ArtifactRef[]).some((entry) => entry.uri === ref.uri) ? 0 : 1;
          expect(listed).toEqual([ref]);
          const bytes = await attempt(() => store.get(ref), false);
          expect(new TextDecoder().decode(bytes as Uint8Array)).toBe(`bytes of ${runId}`);
          expect(await attempt(() => store.get(ref.uri), false)).toEqual(bytes);
        }
        if (box.outside().length > 0) tally.escapes += 1;
        expect(box.outside()).toEqual([]);
        await store.close?.();
      }),
      { numRuns: RUNS },
    );
  });

  it(`answers any artifact URI with bytes, undefined or a typed error, never outside the store (${RUNS} runs)`, async () => {
    const box = sandbox();
    const store = open(box.store);
    await store.put('inside', { mediaType: 'text/plain', name: 'n', runId: 'r', callId: 'c' });
    await fc.assert(
      fc.asyncProperty(oddId, oddId, async (run, id) => {
        tally.runs += 1;
        for (const uri of [
          `tiny-artifact://${run}/${id}`,
          `tiny-artifact://${encodeURI(run.replace(LONE_ALL, '?'))}/${id}`,
        ]) {
          await attempt(() => store.get(uri), true, false);
        }
        expect(box.outside()).toEqual([]);
      }),
      { numRuns: RUNS },
    );
    await store.close?.();
  });
});

describe('SQLite ledger with odd run and call ids', () => {
  it(`returns every started row under its exact ids (${RUNS} runs)`, async () => {
    const ledger = new SqliteToolEffectLedger({ path: ':memory:' });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(oddIds, async (ids) => {
        tally.runs += 1;
        const runId = `${run++}:${ids[0]}`;
        const started: string[] = [];
        for (const callId of ids) {
          const row = { runId, callId, tool: 't', idempotencyKey: callId };
          const result = await attempt(() => ledger.started(row), LONE.test(runId) || LONE.test(callId));
          if (result !== 'refused') started.push(callId);
          if (result !== 'refused') tally.ids += 1;
        }
        const rows = (await attempt(() => ledger.rows(runId), false)) as { callId: string; runId: string }[];
        tally.lost += started.filter((callId) => !rows.some((row) => row.callId === callId)).length;
        expect(rows.map((row) => row.callId)).toEqual(started);
        for (const row of rows) expect(row.runId).toBe(runId);
      }),
      { numRuns: RUNS },
    );
    await ledger.close();
  });
});
