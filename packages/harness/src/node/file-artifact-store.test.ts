import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineTool, InvalidInputError, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { sha256Hex } from '../artifacts/artifact-uri.js';
import { ArtifactUnreadableError } from '../errors/artifact-unreadable-error.js';
import { StorageError } from '../errors/storage-error.js';
import { InMemoryToolEffectLedger } from '../ledger/in-memory-tool-effect-ledger.js';
import { ScriptedModel, scriptedToolCall } from '../testkit/index.js';
import { createFileArtifactStore } from './file-artifact-store.js';

const root = mkdtempSync(join(tmpdir(), 'tiny-file-artifacts-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const freshParent = () => {
  const dir = join(root, `p${dirs++}`);
  mkdirSync(dir);
  return dir;
};
const put = (runId: string, text = 'hello') => ({
  text,
  options: { mediaType: 'text/plain', name: 'a.txt', runId, callId: 'c' },
});

describe('createFileArtifactStore with odd run ids', () => {
  it('keeps every run id in its own directory inside the store, listed by its own id only', async () => {
    const parent = freshParent();
    const store = createFileArtifactStore(join(parent, 'store'), { fsync: false });
    writeFileSync(join(parent, 'secret.json'), '{"ref":{"uri":"x"}}');
    const ids = ['..', '.', 'a', 'A', 'CON', '/', '\\', '\0', 'x.', 'é', 'x'.repeat(300), `${'x'.repeat(300)}y`];
    const refs = [];
    for (const id of ids) {
      const { text, options } = put(id, `data of ${id}`);
      refs.push(await store.put(text, options));
    }
    expect(readdirSync(parent).sort()).toEqual(['secret.json', 'store']);
    expect(readdirSync(join(parent, 'store'))).toHaveLength(ids.length);
    for (const [index, id] of ids.entries()) {
      expect(await store.list(id)).toEqual([refs[index]]);
      expect(new TextDecoder().decode(await store.get(refs[index] as never))).toBe(`data of ${id}`);
    }
  });

  it('answers URIs of odd ids with undefined and refuses lone surrogates with InvalidInputError', async () => {
    const store = createFileArtifactStore(join(freshParent(), 'store'), { fsync: false });
    expect(await store.get('tiny-artifact://run/%00')).toBeUndefined();
    expect(await store.get('tiny-artifact://%2E%2E/%2E%2E')).toBeUndefined();
    const { text, options } = put('\uD800');
    await expect(store.put(text, options)).rejects.toBeInstanceOf(InvalidInputError);
    await expect(store.put(text, { ...options, runId: 'r', name: 'a\uDC00.txt' })).rejects.toBeInstanceOf(
      InvalidInputError,
    );
    expect(await store.list('\uD800')).toEqual([]);
  });
});

describe('createFileArtifactStore reads', () => {
  it('checks the bytes against the reference, so a consistent rewrite of bytes and record is refused', async () => {
    const dir = join(freshParent(), 'store');
    const store = createFileArtifactStore(dir, { fsync: false });
    const { text, options } = put('r', 'original');
    const ref = await store.put(text, options);
    const folder = join(dir, 'r');
    const name = (readdirSync(folder).find((entry) => entry.endsWith('.bin')) as string).slice(0, -4);
    const forged = Buffer.from('forged!!');
    writeFileSync(join(folder, `${name}.bin`), forged);
    const record = JSON.parse(readFileSync(join(folder, `${name}.json`), 'utf8'));
    record.ref = { ...record.ref, bytes: forged.byteLength, sha256: sha256Hex(forged) };
    writeFileSync(join(folder, `${name}.json`), JSON.stringify(record));
    const error = await store.get(ref).catch((caught: unknown) => caught);
    expect(ArtifactUnreadableError.isInstance(error)).toBe(true);
    expect((error as ArtifactUnreadableError).reason).toMatch(/reference/);
    await expect(store.get({ ...ref, sha256: undefined } as never)).rejects.toBeInstanceOf(InvalidInputError);
  });
});

describe('createFileArtifactStore write failures', () => {
  it('rejects with StorageError, storing nothing, when the directory cannot be written', async () => {
    const parent = freshParent();
    writeFileSync(join(parent, 'file'), 'not a directory');
    const store = createFileArtifactStore(join(parent, 'file'), { fsync: false });
    const { text, options } = put('r');
    const error = await store.put(text, options).catch((caught: unknown) => caught);
    expect(StorageError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ operation: 'FileArtifactStore.put', code: 'ENOTDIR' });
    await expect(store.list('r')).rejects.toSatisfy(StorageError.isInstance);
  });

  it('ends a run whose artifact write fails with StorageError, the tool effect settled in the ledger', async () => {
    const parent = freshParent();
    writeFileSync(join(parent, 'file'), 'not a directory');
    const ledger = new InMemoryToolEffectLedger();
    const big = defineTool({
      name: 'big',
      description: '',
      parameters: Type.Object({}),
      policy: ToolPolicy.classified().withSideEffects({ externalService: true }).withRuntime({ maxResultBytes: 10 }),
      execute: () => 'x'.repeat(100),
    });
    const model = new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall('big', {}, 'c1')] }, { content: 'ok' }] });
    const harness = new AgentHarness({
      model,
      tools: [big],
      ledger,
      artifacts: createFileArtifactStore(join(parent, 'file'), { fsync: false }),
    });
    const error = await harness.invoke({ runId: 'r1' }, [{ role: 'user', content: 'go' }]).catch((caught) => caught);
    expect(StorageError.isInstance(error)).toBe(true);
    expect(ledger.rows('r1').map((row) => [row.callId, row.status])).toEqual([['c1', 'completed']]);
  });
});
