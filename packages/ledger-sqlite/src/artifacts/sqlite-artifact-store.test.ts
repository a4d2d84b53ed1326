import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AgentHarness,
  type ArtifactRef,
  ArtifactUnreadableError,
  DeferredToolResults,
  type RunState,
} from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { type Message, messageText } from '@tiny/llm';
import { defineTool, ToolPolicy, ToolResult } from '@tiny/tools';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LedgerClosedError } from '../errors/ledger-closed-error.js';
import { SqliteToolEffectLedger } from '../ledger/sqlite-tool-effect-ledger.js';
import { ARTIFACT_TABLE } from '../schema/migrate-schema.js';
import { SqliteArtifactStore } from './sqlite-artifact-store.js';

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tiny-artifacts-sqlite-'));
  path = join(dir, 'agent.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const LIMIT = 64 * 1024;
const BIG = Array.from({ length: 200_000 }, (_, n) => `row ${n}: héllo wörld ✓\n`).join('');
const user = (text: string): Message[] => [{ role: 'user', content: text }];
const dump = defineTool({
  name: 'dump',
  description: 'Dump the whole table.',
  parameters: { type: 'object', properties: {} },
  policy: ToolPolicy.readOnly().withRuntime({ maxResultBytes: LIMIT }),
  execute: () => BIG,
});
const approve = defineTool({
  name: 'publish',
  description: 'Publish a chart.',
  parameters: { type: 'object', properties: {} },
  policy: ToolPolicy.classified().requiringApproval(),
  execute: () => ToolResult.success('published').withImage('image/png', { kind: 'base64', value: 'iVBORw0KGgo=' }),
});

describe('SqliteArtifactStore', () => {
  it('keeps a 5 MB result out of the request and round-trips it byte-exact from another connection', async () => {
    const ledger = new SqliteToolEffectLedger({ path });
    const store = new SqliteArtifactStore({ ledger });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('dump', {}, 'd1')] }, { content: 'ok' }],
    });
    const run = await new AgentHarness({ model, tools: [dump], ledger, artifacts: store }).invoke(
      { runId: 'big' },
      user('dump'),
    );
    expect(Buffer.byteLength(JSON.stringify(model.requests[1]))).toBeLessThan(LIMIT + 4096);
    const [ref] = run.artifacts;
    const row = run.messages.find((message) => message.role === 'tool') as Message;
    expect(messageText(row).endsWith(`, ${ref?.uri}]`)).toBe(true);
    await ledger.close();
    await expect(store.get(ref as ArtifactRef)).rejects.toSatisfy(LedgerClosedError.isInstance);

    const other = new SqliteArtifactStore({ path, mode: 'open' });
    const bytes = await other.get(ref?.uri as string);
    expect(Buffer.from(bytes as Uint8Array).equals(Buffer.from(BIG, 'utf8'))).toBe(true);
    expect(await other.list('big')).toEqual(run.artifacts);
    expect(await other.get(`${ref?.uri}x`)).toBeUndefined();
    await other.close();
  });

  it('keeps references valid across a deferral resumed on a fresh connection', async () => {
    const steps = [
      { toolCalls: [scriptedToolCall('dump', {}, 'd1'), scriptedToolCall('publish', {}, 'p1')] },
      { content: 'done' },
    ];
    const first = new SqliteArtifactStore({ path });
    const paused = await new AgentHarness({
      model: new ScriptedModel({ steps }),
      tools: [dump, approve],
      artifacts: first,
    }).invoke({ runId: 'paused' }, user('go'));
    const saved = JSON.stringify(paused.state);
    await first.close();

    const second = new SqliteArtifactStore({ path });
    const model = new ScriptedModel({ steps: [steps[1] as never] });
    const run = await new AgentHarness({ model, tools: [dump, approve], artifacts: second }).resumeDeferred(
      {},
      JSON.parse(saved) as RunState,
      new DeferredToolResults().approve('p1'),
    );
    expect(run.text).toBe('done');
    const uris = [...JSON.stringify(model.requests[0]?.messages).matchAll(/tiny-artifact:\/\/[^\s\]"\\]+/g)].map(
      (match) => match[0],
    );
    expect(uris).toEqual([paused.artifacts[0]?.uri, run.artifacts[0]?.uri]);
    expect(Buffer.from((await second.get(uris[0] as string)) as Uint8Array).toString('utf8')).toBe(BIG);
    expect(Buffer.from((await second.get(uris[1] as string)) as Uint8Array).toString('base64')).toBe('iVBORw0KGgo=');
    expect((await second.list('paused')).map((ref) => ref.name)).toEqual(['dump-result.txt', 'publish-image-1.png']);
    await second.close();
  });

  it('refuses bytes that no longer match their size and digest', async () => {
    const store = new SqliteArtifactStore({ path });
    const ref = await store.put('hello', { mediaType: 'text/plain', name: 'a.txt', runId: 'r', callId: 'c' });
    const db = new Database(path);
    db.prepare(`UPDATE ${ARTIFACT_TABLE} SET data = ? WHERE uri = ?`).run(Buffer.from('hellO'), ref.uri);
    db.close();
    await expect(store.get(ref)).rejects.toSatisfy(ArtifactUnreadableError.isInstance);
    await store.close();
  });
});

const child = fileURLToPath(new URL('../__fixtures__/artifact-put-child.mjs', import.meta.url));
const SIZE = 8 * 1024 * 1024;

async function killDuringPut(dbPath: string, runId: string, delayMs: number): Promise<ArtifactRef[]> {
  const proc = spawn(process.execPath, [child, dbPath, runId, String(SIZE), '50'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  proc.stderr.on('data', (chunk) => {
    errors += String(chunk);
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => proc.on('exit', (_code, signal) => resolve(signal)));
  await new Promise<void>((resolve, reject) => {
    proc.stdout.on('data', (chunk) => {
      output += String(chunk);
      if (output.startsWith('ready\n')) resolve();
    });
    proc.on('exit', () => reject(new Error(`child exited before it was killed: ${errors}`)));
  });
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  proc.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  return output
    .split('\n')
    .slice(1)
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as ArtifactRef);
}

describe('a process killed with SIGKILL during put (SQLite store)', () => {
  it('leaves no half artifact listed or readable, and every returned reference intact', async () => {
    for (let trial = 0; trial < 6; trial++) {
      const runId = `run-${trial}`;
      const reported = await killDuringPut(path, runId, 40 + trial * 45);
      const store = new SqliteArtifactStore({ path });
      const listed = await store.list(runId);
      expect(listed.slice(0, reported.length)).toEqual(reported);
      expect(listed.length - reported.length).toBeLessThanOrEqual(1);
      for (const ref of listed) {
        const bytes = (await store.get(ref)) as Uint8Array;
        expect(bytes.byteLength).toBe(SIZE);
        expect(createHash('sha256').update(bytes).digest('hex')).toBe(ref.sha256);
      }
      await store.close();
    }
  });
});
