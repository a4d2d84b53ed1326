import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Message, messageText } from '@tiny/llm';
import { defineTool, ToolPolicy, ToolResult } from '@tiny/tools';
import { Type } from 'typebox';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { DeferredToolResults } from '../deferral/deferred-tool-results.js';
import type { RunState } from '../deferral/run-state.js';
import { ArtifactUnreadableError } from '../errors/artifact-unreadable-error.js';
import { createFileArtifactStore } from '../node/file-artifact-store.js';
import { eventsOfType, ScriptedModel, scriptedToolCall, toolEventViolations } from '../testkit/index.js';
import type { ArtifactStore } from './artifact-store.js';
import { formatByteSize, parseArtifactUri } from './artifact-uri.js';
import { InMemoryArtifactStore } from './in-memory-artifact-store.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'tiny-artifacts-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const LIMIT = 64 * 1024;
/** About 5 MB of text with multi-byte characters, so a cut must respect UTF-8. */
const BIG = Array.from({ length: 200_000 }, (_, n) => `row ${n}: héllo wörld ✓\n`).join('');
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const user = (text: string): Message[] => [{ role: 'user', content: text }];
const refUris = (text: string) => [...text.matchAll(/tiny-artifact:\/\/[^\s\]]+/g)].map((match) => match[0]);

const dump = defineTool({
  name: 'dump',
  description: 'Dump the whole table.',
  parameters: Type.Object({}),
  policy: ToolPolicy.readOnly().withRuntime({ maxResultBytes: LIMIT }),
  execute: () => BIG,
});
const snap = defineTool({
  name: 'snap',
  description: 'Take a screenshot.',
  parameters: Type.Object({}),
  policy: ToolPolicy.readOnly(),
  execute: () =>
    ToolResult.success('screenshot taken')
      .withImage('image/png', { kind: 'base64', value: PNG.toString('base64') })
      .withMetadata({ shot: 1 }),
});
const pay = defineTool({
  name: 'pay',
  description: 'Pay.',
  parameters: Type.Object({ cents: Type.Integer() }),
  policy: ToolPolicy.classified().withSideEffects({ payment: true }).requiringApproval(),
  execute: () =>
    ToolResult.fromContent([
      { type: 'text', text: 'receipt attached' },
      {
        type: 'file',
        name: 'receipt.pdf',
        mediaType: 'application/pdf',
        data: { kind: 'base64', value: 'JVBERi0xLjQK' },
      },
    ]),
});

const reopened = new WeakMap<ArtifactStore, string>();
const stores: [string, () => ArtifactStore][] = [
  ['in memory', () => new InMemoryArtifactStore()],
  [
    'file system',
    () => {
      const dir = tempDir();
      const store = createFileArtifactStore(dir);
      reopened.set(store, dir);
      return store;
    },
  ],
];

describe.each(stores)('artifacts with a %s store', (_name, makeStore) => {
  it('keeps a 5 MB result out of the request and round-trips it byte-exact', async () => {
    const store = makeStore();
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('dump', {}, 'd1')] }, { content: 'ok' }],
    });
    const harness = new AgentHarness({ model, tools: [dump], artifacts: store, policy: { captureToolIo: true } });
    const run = await harness.invoke({ runId: 'big-run' }, user('dump it'));
    expect(run.text).toBe('ok');
    const body = JSON.stringify(model.requests[1]);
    expect(Buffer.byteLength(BIG)).toBeGreaterThan(5_000_000);
    expect(Buffer.byteLength(body)).toBeLessThan(LIMIT + 4096);

    const row = run.messages.find((message) => message.role === 'tool');
    const text = messageText(row as Message);
    expect(BIG.startsWith(text.slice(0, text.lastIndexOf('\n')))).toBe(true);
    expect(run.artifacts).toHaveLength(1);
    const [ref] = run.artifacts;
    expect(ref).toMatchObject({ name: 'dump-result.txt', mediaType: 'text/plain', runId: 'big-run', callId: 'd1' });
    expect(ref?.bytes).toBe(Buffer.byteLength(BIG));
    expect(text.endsWith(`[artifact: dump-result.txt, ${formatByteSize(Buffer.byteLength(BIG))}, ${ref?.uri}]`)).toBe(
      true,
    );
    expect(parseArtifactUri(ref?.uri as string)).toMatchObject({ runId: 'big-run' });

    const bytes = await store.get(ref?.uri as string);
    expect(Buffer.from(bytes as Uint8Array).equals(Buffer.from(BIG, 'utf8'))).toBe(true);
    expect(await store.list('big-run')).toEqual(run.artifacts);

    // Events carry the reference, never the bytes (even with tool I/O captured).
    const [completed] = eventsOfType(run.events, 'tool_completed');
    expect(completed?.artifacts).toEqual(run.artifacts);
    expect(Buffer.byteLength(JSON.stringify(run.events))).toBeLessThan(LIMIT + 4096);
    expect(toolEventViolations(run.events)).toEqual([]);
  });

  it('stores inline images and files and shows the model their reference lines', async () => {
    const store = makeStore();
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('snap', {}, 's1')] }, { content: 'ok' }],
    });
    const run = await new AgentHarness({ model, tools: [snap], artifacts: store }).invoke(
      { runId: 'r-img' },
      user('x'),
    );
    const [ref] = run.artifacts;
    expect(ref).toMatchObject({ name: 'snap-image-1.png', mediaType: 'image/png', bytes: PNG.length });
    const row = run.messages.find((message) => message.role === 'tool') as Message;
    expect(messageText(row)).toBe(`screenshot taken\n[artifact: snap-image-1.png, ${PNG.length} B, ${ref?.uri}]`);
    expect(JSON.stringify(model.requests[1])).not.toContain(PNG.toString('base64'));
    expect(Buffer.from((await store.get(ref as never)) as Uint8Array).equals(PNG)).toBe(true);
    expect(run.toolMetadata).toEqual([{ callId: 's1', toolName: 'snap', metadata: { shot: 1 } }]);
  });

  it('keeps references valid across a deferral paused, serialised and resumed with a new store instance', async () => {
    const first = makeStore();
    const steps = [
      { toolCalls: [scriptedToolCall('dump', {}, 'd1'), scriptedToolCall('pay', { cents: 5 }, 'p1')] },
      { content: 'paid' },
    ];
    const paused = await new AgentHarness({
      model: new ScriptedModel({ steps }),
      tools: [dump, pay],
      artifacts: first,
    }).invoke({ runId: 'r-defer' }, user('pay'));
    expect(paused.outcome).toBe('deferred');
    expect(paused.artifacts.map((ref) => ref.callId)).toEqual(['d1']);
    const saved = JSON.parse(JSON.stringify(paused.state)) as RunState;

    // The same backing storage, reopened (a new in-memory store cannot see the old one's data).
    const second = _name === 'in memory' ? first : reopen(first);
    const model = new ScriptedModel({ steps: [steps[1] as never] });
    const run = await new AgentHarness({ model, tools: [dump, pay], artifacts: second }).resumeDeferred(
      {},
      saved,
      new DeferredToolResults().approve('p1'),
    );
    expect(run.text).toBe('paid');
    expect(run.artifacts.map((ref) => [ref.callId, ref.name])).toEqual([['p1', 'receipt.pdf']]);
    const transcript = JSON.stringify(model.requests[0]?.messages);
    const uris = refUris(transcript);
    expect(uris).toEqual([paused.artifacts[0]?.uri, run.artifacts[0]?.uri]);
    const big = await second.get(uris[0] as string);
    expect(Buffer.from(big as Uint8Array).toString('utf8')).toBe(BIG);
    expect(Buffer.from((await second.get(uris[1] as string)) as Uint8Array).toString()).toBe('%PDF-1.4\n');
    expect((await second.list('r-defer')).map((ref) => ref.callId)).toEqual(['d1', 'p1']);
  });

  it('keeps references valid across a checkpoint resume', async () => {
    const store = makeStore();
    const steps = [
      { toolCalls: [scriptedToolCall('dump', {}, 'd1')] },
      { toolCalls: [scriptedToolCall('snap', {}, 's1')] },
      { content: 'done' },
    ];
    let saved: RunState | undefined;
    const crashed = new AgentHarness({
      model: new ScriptedModel({ steps }),
      tools: [dump, snap],
      artifacts: store,
    }).invoke({ runId: 'r-ckpt' }, user('go'), {
      onCheckpoint: (state) => {
        saved = JSON.parse(JSON.stringify(state));
        if (state.messages.some((message) => message.role === 'tool')) throw new Error('crash before the second batch');
      },
    });
    await expect(crashed).rejects.toThrow();
    const model = new ScriptedModel({ steps: steps.slice(2) as never });
    const again = _name === 'in memory' ? store : reopen(store);
    const run = await new AgentHarness({ model, tools: [dump, snap], artifacts: again }).resume({}, saved as RunState);
    expect(run.text).toBe('done');
    const uris = refUris(JSON.stringify(model.requests[0]?.messages));
    expect(uris).toHaveLength(2);
    expect(Buffer.from((await again.get(uris[0] as string)) as Uint8Array).toString('utf8')).toBe(BIG);
    expect(Buffer.from((await again.get(uris[1] as string)) as Uint8Array).equals(PNG)).toBe(true);
  });
});

function reopen(store: ArtifactStore): ArtifactStore {
  const dir = reopened.get(store);
  if (dir === undefined) throw new Error('not a file store of this test');
  return createFileArtifactStore(dir);
}

describe('without an artifact store', () => {
  it('folds results exactly as before: full text, no references, no artifacts', async () => {
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('dump', {}, 'd1')] }, { content: 'ok' }],
    });
    const run = await new AgentHarness({ model, tools: [dump] }).invoke({}, user('x'));
    const row = run.messages.find((message) => message.role === 'tool') as Message;
    expect(messageText(row)).toBe(BIG);
    expect(run.artifacts).toEqual([]);
    expect(eventsOfType(run.events, 'tool_completed')[0]).not.toHaveProperty('artifacts');
  });
});

describe('createFileArtifactStore', () => {
  it('refuses bytes that no longer match their record', async () => {
    const dir = tempDir();
    const store = createFileArtifactStore(dir);
    const ref = await store.put('hello', { mediaType: 'text/plain', name: 'a.txt', runId: 'r', callId: 'c' });
    const { writeFileSync } = await import('node:fs');
    const data = readdirSync(join(dir, 'r')).find((entry) => entry.endsWith('.bin')) as string;
    writeFileSync(join(dir, 'r', data), 'hellO');
    await expect(store.get(ref)).rejects.toSatisfy(ArtifactUnreadableError.isInstance);
    expect(await store.get(ref.uri.replace(/\/[^/]+$/, '/missing'))).toBeUndefined();
    expect(await store.list('other')).toEqual([]);
  });
});
