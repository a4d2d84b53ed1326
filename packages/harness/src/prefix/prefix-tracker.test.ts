import type { Message, ToolSchema } from '@tiny/llm';
import { describe, expect, it } from 'vitest';
import { diffPrefix } from './diff-prefix.js';
import { fingerprintPrefix, type PrefixFingerprint, type PrefixSettings } from './prefix-fingerprint.js';
import { createPrefixTracker, type PrefixState } from './prefix-tracker.js';

const schema = (name: string): ToolSchema => ({ name, description: name, parameters: { type: 'object' } });
const user = (content: string): Message => ({ role: 'user', content });

describe('createPrefixTracker', () => {
  it('hashes nothing new on append-only turns, sees rewrites by new objects, and gives one digest per prefix', () => {
    const tracker = createPrefixTracker();
    const tools = [schema('a'), schema('b')];
    const history: Message[] = [{ role: 'system', content: 'S' }, user('1')];
    const seen: string[] = [];
    for (let turn = 2; turn < 6; turn += 1) {
      const { digest, broke } = tracker.observe(tools, history);
      expect(broke).toBeUndefined();
      seen.push(digest);
      history.push({ role: 'assistant', content: `a${turn}` }, user(String(turn)));
    }
    expect(new Set(seen).size).toBe(seen.length);
    // The same request again has the same digest.
    const again = tracker.observe(tools, history).digest;
    expect(tracker.observe(tools, history).digest).toBe(again);
    // Equal content in new objects (a copy) is no change; a replaced message is, with a new digest.
    const copy = history.map((message) => ({ ...message }));
    const copied = tracker.observe([...tools], copy);
    expect(copied.broke).toBeUndefined();
    expect(copied.digest).toBe(again);
    copy[3] = { role: 'assistant', content: 'rewritten' };
    const rewritten = tracker.observe(tools, copy);
    expect(rewritten.broke?.changes).toEqual([{ part: 'history', change: 'rewritten', index: 2 }]);
    expect(rewritten.digest).not.toBe(again);
    // The saved state holds every part's hash, as fingerprintPrefix computes them.
    expect(tracker.state([]).fingerprint?.history).toEqual(fingerprintPrefix(tools, copy).history);
  });

  it('saves the parts of what was observed, not of messages their owner edited afterwards', () => {
    const tracker = createPrefixTracker();
    const tools = [schema('a')];
    // A text dialect's rendering: plain objects a provider may edit after the request was sent.
    const sent: Message[] = [user('1'), { role: 'assistant', content: 'calling' }, user('result: 42')];
    const asSent = fingerprintPrefix(tools, structuredClone(sent)).history;
    tracker.observe(tools, sent);
    (sent[2] as { content: string }).content = 'result: forged';
    expect(tracker.state([]).fingerprint?.history).toEqual(asSent);
  });

  it('continues from a saved state: the same prefix after a resume is no change, a different one is', () => {
    const tracker = createPrefixTracker();
    const tools = [schema('a')];
    const history = [user('1'), { role: 'assistant', content: 'x' } as Message];
    const before = tracker.observe(tools, [...history, user('2')]).digest;
    const saved = JSON.parse(JSON.stringify(tracker.state([]))) as ReturnType<typeof tracker.state>;
    const same = createPrefixTracker(saved).observe(JSON.parse(JSON.stringify(tools)), [
      ...JSON.parse(JSON.stringify(history)),
      user('2'),
    ]);
    expect(same.broke).toBeUndefined();
    expect(same.digest).toBe(before);
    const other = createPrefixTracker(saved).observe([schema('b'), ...tools], [...history, user('2')]);
    expect(other.broke?.changes).toEqual([{ part: 'tool', change: 'added', toolName: 'b' }]);
  });

  it('gives two different resumes of one saved state different digests (the digest covers content)', () => {
    const tracker = createPrefixTracker();
    const tools = [schema('a')];
    const history = [user('1'), { role: 'assistant', content: 'x' } as Message];
    tracker.observe(tools, history);
    const saved = JSON.parse(JSON.stringify(tracker.state([]))) as ReturnType<typeof tracker.state>;
    const approved = createPrefixTracker(saved).observe(tools, [...history, user('approved')]);
    const denied = createPrefixTracker(saved).observe(tools, [...history, user('denied')]);
    expect(approved.broke).toBeUndefined();
    expect(denied.broke).toBeUndefined();
    expect(approved.digest).not.toBe(denied.digest);
    // And a fresh tracker given the same whole request agrees with the resumed one.
    expect(createPrefixTracker().observe(tools, [...history, user('approved')]).digest).toBe(approved.digest);
  });

  it('sees a tools array reused and changed in place, and a message array changed in place', () => {
    const tracker = createPrefixTracker();
    const list = [schema('b')];
    const history: Message[] = [user('1')];
    tracker.observe(list, history);
    list.unshift(schema('a'));
    history.push({ role: 'assistant', content: 'x' });
    expect(tracker.observe(list, history).broke?.changes).toEqual([{ part: 'tool', change: 'added', toolName: 'a' }]);
    history[1] = { role: 'assistant', content: 'y' };
    expect(tracker.observe(list, history).broke?.changes).toEqual([{ part: 'history', change: 'rewritten', index: 1 }]);
  });

  it('keeps tool order append-only: known tools keep their places, new ones go last, a dropped one re-enters last', () => {
    const tracker = createPrefixTracker();
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map(schema) as [ToolSchema, ToolSchema, ToolSchema, ToolSchema];
    const first = [b, c];
    // Already in order: the same declarations (canonical: equal content), the same list for the same elements.
    expect(tracker.order(first)).toEqual(first);
    expect(tracker.order([b, c])).toBe(tracker.order(first));
    expect(tracker.order([a, b, c]).map((tool) => tool.name)).toEqual(['b', 'c', 'a']);
    expect(tracker.order([a, c, d]).map((tool) => tool.name)).toEqual(['c', 'a', 'd']);
    expect(tracker.order([a, b, c, d]).map((tool) => tool.name)).toEqual(['c', 'a', 'd', 'b']);
    expect(tracker.state([]).toolOrder).toEqual(['c', 'a', 'd', 'b']);
    // A provisional order (forget: false) keeps the places of tools it is not given.
    expect(tracker.order([a, d], false).map((tool) => tool.name)).toEqual(['a', 'd']);
    expect(tracker.order([d, c, b, a]).map((tool) => tool.name)).toEqual(['c', 'a', 'd', 'b']);
  });

  it('hashes system messages with their positions: moved is a change, appended past the end is not', () => {
    const system: Message = { role: 'system', content: 'Be terse.' };
    const hi = user('hi');
    // [system, user] and [user, system] are different wires (OpenAI sends system messages in place).
    expect(fingerprintPrefix([], [system, hi]).digest).not.toBe(fingerprintPrefix([], [hi, system]).digest);
    const moved = createPrefixTracker();
    moved.observe([], [system, hi]);
    expect(moved.observe([], [hi, { role: 'assistant', content: 'draft' }, system]).broke?.changes).toEqual([
      { part: 'system', change: 'changed' },
    ]);
    const appended = createPrefixTracker();
    const history: Message[] = [system, hi];
    const first = appended.observe([], history).digest;
    history.push({ role: 'assistant', content: 'draft' }, { role: 'system', content: 'Reviewer: one sentence.' });
    const second = appended.observe([], history);
    expect(second.broke).toBeUndefined();
    expect(second.digest).not.toBe(first);
    // A system message inserted before the previous end is a change.
    const inserted = createPrefixTracker();
    inserted.observe([], [system, hi]);
    expect(inserted.observe([], [system, { role: 'system', content: 'More.' }, hi]).broke?.changes).toEqual([
      { part: 'system', change: 'changed' },
    ]);
    // A restored state keeps the positions: the same append after a resume is no change either.
    const restored = createPrefixTracker(appended.state([]));
    history.push(user('again'), { role: 'system', content: 'Last.' });
    expect(restored.observe([], history).broke).toBeUndefined();
  });

  it('reports the system placement and provider options as settings, provider options by content', () => {
    const history = [{ role: 'system', content: 'S' } as Message, user('go')];
    const tracker = createPrefixTracker();
    tracker.observe([], history, { providerOptions: { a: 1, b: { c: 2, d: 3 } } });
    expect(tracker.observe([], history, { providerOptions: { b: { d: 3, c: 2 }, a: 1 } }).broke).toBeUndefined();
    const serverTools = { a: 1, b: { c: 2, d: 3 }, serverTools: [{ type: 'web_search_20250305', name: 'web_search' }] };
    expect(tracker.observe([], history, { providerOptions: serverTools }).broke?.changes).toEqual([
      { part: 'settings', change: 'changed' },
    ]);
    const resumed = createPrefixTracker(tracker.state([]));
    expect(
      resumed.observe([], history, { providerOptions: serverTools, systemPlacement: 'first_user' }).broke?.changes,
    ).toEqual([{ part: 'settings', change: 'changed' }]);
    // Edited in place between requests: compared by content.
    const reused: Record<string, unknown> = { a: 1 };
    const again = createPrefixTracker();
    again.observe([], history, { providerOptions: reused });
    reused.serverTools = [{ type: 'web_search_20250305', name: 'web_search' }];
    expect(again.observe([], history, { providerOptions: reused }).broke?.changes).toEqual([
      { part: 'settings', change: 'changed' },
    ]);
    // Without either, the settings part is what it was before they were tracked.
    expect(fingerprintPrefix([], history, {}).settings).toEqual(
      fingerprintPrefix([], history, { providerOptions: {} }).settings,
    );
  });

  it('resumes a state saved by the version before the running fold (e60d05c): same parts, no break', () => {
    // Written by createPrefixTracker at commit e60d05c for the request below (digest by its SHA-1 fold).
    const saved = JSON.parse(
      '{"toolOrder":[],"promoted":["lookup"],"fingerprint":{"digest":"9bd907fe800d87e8","tools":[{"name":"lookup","hash":"4e1eba1e0a2c6330","chars":121}],"system":{"hash":"be704391eb40b286","chars":39},"systems":[{"hash":"be704391eb40b286","chars":39,"index":0}],"settings":{"hash":"7375b7fbe3abb6b7","chars":22},"history":[{"hash":"e7781ab1e54a0384","chars":47},{"hash":"bd55f070d4d24a09","chars":111},{"hash":"3cac5a55dd3ef55b","chars":78}]}}',
    ) as PrefixState;
    const tools: ToolSchema[] = [
      {
        name: 'lookup',
        description: 'Looks a word up.',
        parameters: { type: 'object', properties: { word: { type: 'string' } } },
      },
    ];
    const request = (): Message[] => [
      { role: 'system', content: 'Be terse.' },
      { role: 'user', content: 'What is "prefix"?' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'lookup', arguments: '{"word":"prefix"}' }] },
      { role: 'tool', toolCallId: 'c1', toolName: 'lookup', content: 'A beginning.' },
    ];
    const settings = { toolChoice: { type: 'auto' as const } };
    const resumed = createPrefixTracker(saved);
    const same = resumed.observe(tools, request(), settings);
    expect(same.broke).toBeUndefined();
    expect(same.digest).toBe(createPrefixTracker().observe(tools, request(), settings).digest);
    // This version saves the same parts (only the digest is computed otherwise), so the version before reads them alike.
    const { digest: _old, ...parts } = saved.fingerprint as PrefixFingerprint;
    const { digest: _new, ...again } = resumed.state([]).fingerprint as PrefixFingerprint;
    expect(again).toEqual(parts);
    // A rewrite after the resume is named against the saved parts, with the saved characters lost.
    const rewritten = createPrefixTracker(saved).observe(
      tools,
      [...request().slice(0, 3), { role: 'tool', toolCallId: 'c1', toolName: 'lookup', content: 'An end.' }],
      settings,
    );
    expect(rewritten.broke).toEqual({
      changes: [{ part: 'history', change: 'rewritten', index: 2 }],
      lostPrefixTokens: Math.ceil(78 / 4),
    });
  });

  it('throws on a message JSON cannot write and then reads the next request as a fresh tracker would', () => {
    const tracker = createPrefixTracker();
    const tools = [schema('a')];
    const history: Message[] = [user('1'), { role: 'assistant', content: 'x' }];
    const first = tracker.observe(tools, history).digest;
    const cyclic: Record<string, unknown> = { role: 'user' };
    cyclic.content = [cyclic];
    history.push(cyclic as unknown as Message);
    expect(() => tracker.observe(tools, history)).toThrow(TypeError);
    history[2] = user('2');
    const next = tracker.observe(tools, history);
    expect(next.broke).toBeUndefined();
    expect(next.digest).toBe(fingerprintPrefix(tools, history).digest);
    expect(next.digest).not.toBe(first);
  });
  it('leaves itself as after the last good request when a request throws (a rewrite, then a bigint)', () => {
    const tools = [schema('a')];
    const one = user('1');
    const x: Message = { role: 'assistant', content: 'x' };
    const changed = user('CHANGED');
    const bad = { role: 'user', content: [{ type: 'text', text: 'x', n: 1n }] } as unknown as Message;
    const first = [one, x];
    // The next request compared with the last good one, whether it undoes the failed rewrite or keeps it.
    for (const next of [
      [one, x],
      [changed, { role: 'assistant', content: 'y' } as Message],
      [one, changed],
    ]) {
      const tracker = createPrefixTracker();
      tracker.observe(tools, first);
      const before = tracker.state([]);
      expect(() => tracker.observe(tools, [changed, bad])).toThrow(TypeError);
      expect(tracker.state([])).toEqual(before);
      const got = tracker.observe(tools, next);
      expect(got.broke).toEqual(diffPrefix(fingerprintPrefix(tools, first), fingerprintPrefix(tools, next)));
      expect(got.digest).toBe(fingerprintPrefix(tools, next).digest);
    }
    // A failure on an append-only turn, then the same turn done right.
    const tracker = createPrefixTracker();
    const history: Message[] = [one, x];
    tracker.observe(tools, history);
    expect(() => tracker.observe(tools, [...history, user('2'), bad])).toThrow(TypeError);
    const resumed = createPrefixTracker(JSON.parse(JSON.stringify(tracker.state([]))) as PrefixState);
    expect(resumed.observe(tools, [user('1'), { role: 'assistant', content: 'x' }]).broke).toBeUndefined();
    history.push(user('2'));
    expect(tracker.observe(tools, history).broke).toBeUndefined();
  });

  it('compares the tool choice, response format and schema transform by content: an edit in place is a change', () => {
    const tools = [
      {
        name: 'a',
        description: 'A tool.',
        parameters: { type: 'object', properties: { q: { type: 'string', description: 'query' } } },
      } as ToolSchema,
    ];
    type Loose = Record<string, Record<string, unknown>>;
    type Edit = (settings: Loose) => void;
    const cases: [string, PrefixSettings, Edit][] = [
      [
        'response format schema',
        { responseFormat: { type: 'json_schema', name: 'A', schema: { type: 'object' } } },
        (settings) => {
          (settings.responseFormat as { schema: Record<string, unknown> }).schema.required = ['z'];
        },
      ],
      [
        'tool choice',
        { toolChoice: { type: 'tool', toolName: 'a' } },
        (settings) => {
          const choice = settings.toolChoice as Record<string, unknown>;
          choice.type = 'required';
          delete choice.toolName;
        },
      ],
      [
        'schema transform',
        { schemaTransform: { type: 'chain', transforms: [] } as unknown as PrefixSettings['schemaTransform'] },
        (settings) => {
          (settings.schemaTransform as { transforms: unknown[] }).transforms.push({ type: 'openai_strict' });
        },
      ],
    ];
    for (const [name, settings, edit] of cases) {
      const tracker = createPrefixTracker();
      const history: Message[] = [user('1')];
      const before = fingerprintPrefix(tools, history, settings);
      tracker.observe(tools, history, settings);
      edit(settings as unknown as Loose);
      history.push({ role: 'assistant', content: 'x' });
      const after = fingerprintPrefix(tools, history, settings);
      const got = tracker.observe(tools, history, settings);
      expect(got.broke, name).toEqual(diffPrefix(before, after));
      expect(got.broke, name).toBeDefined();
      expect(got.digest, name).toBe(after.digest);
    }
  });
  it('resumes a state saved before system positions were tracked (e5c9970): the same systems are no change', () => {
    // Written by createPrefixTracker at commit e5c9970 for the request below (no `systems`, a system hash without positions).
    const saved = JSON.parse(
      '{"toolOrder":[],"promoted":[],"fingerprint":{"digest":"378823fb881ed62b","tools":[],"system":{"hash":"20ac00a83945b54b","chars":78},"settings":{"hash":"7375b7fbe3abb6b7","chars":22},"history":[{"hash":"fbd36d58264c09b6","chars":29},{"hash":"9901e8e0c2197747","chars":34},{"hash":"357ca43851842b36","chars":29}]}}',
    ) as PrefixState;
    const settings = { toolChoice: { type: 'auto' as const } };
    const request = (reviewer = 'Reviewer.'): Message[] => [
      { role: 'system', content: 'Be terse.' },
      user('1'),
      { role: 'assistant', content: 'x' },
      { role: 'system', content: reviewer },
      user('2'),
    ];
    const resumed = createPrefixTracker(saved);
    const same = resumed.observe([], request(), settings);
    expect(same.broke).toBeUndefined();
    expect(same.digest).toBe(fingerprintPrefix([], request(), settings).digest);
    // From then on positions are tracked: an appended system message is an append.
    expect(resumed.observe([], [...request(), { role: 'system', content: 'Late.' }], settings).broke).toBeUndefined();
    // Another system text is a change.
    expect(createPrefixTracker(saved).observe([], request('Critic.'), settings).broke?.changes).toEqual([
      { part: 'system', change: 'changed' },
    ]);
  });
});

describe('createPrefixTracker: resumes a tester broke (stop 43)', () => {
  const assistant = (content: string): Message => ({ role: 'assistant', content });
  const system = (content: string): Message => ({ role: 'system', content });
  const resumed = (state: PrefixState) => createPrefixTracker(JSON.parse(JSON.stringify(state)) as PrefixState);

  it('a state saved with hoisted system messages is no pre-positions state: a move in place is a system change', () => {
    const messages = [user('hi'), assistant('yo'), system('Be terse.'), user('more')];
    const hoisted: PrefixSettings = { systemMessages: 'hoisted' };
    for (const [before, after] of [
      [hoisted, {}],
      [hoisted, hoisted],
      [{}, hoisted],
    ] as const) {
      const first = createPrefixTracker();
      first.observe([], messages, before);
      const fromState = resumed(first.state([])).observe([], messages, after);
      const neverPaused = createPrefixTracker();
      neverPaused.observe([], messages, before);
      const expected = neverPaused.observe([], messages, after);
      expect(fromState.broke).toEqual(expected.broke);
      expect(fromState.digest).toBe(expected.digest);
    }
  });

  it('a request that fails part-way on a resumed tracker leaves it as it was (no false break after)', () => {
    const messages = [user('1'), assistant('2'), user('3'), assistant('4')];
    const first = createPrefixTracker();
    first.observe([], messages);
    const tracker = resumed(first.state([]));
    let reads = 0;
    // Reads as the saved message once (the content comparison), then throws (the fold's walk).
    const flaky = {
      role: 'assistant',
      get content() {
        reads += 1;
        if (reads === 2) throw new Error('second read');
        return '2';
      },
    } as unknown as Message;
    expect(() =>
      tracker.observe([], [messages[0] as Message, flaky, messages[2] as Message, messages[3] as Message]),
    ).toThrow('second read');
    const next = tracker.observe([], [...messages, user('5')]);
    const neverPaused = createPrefixTracker();
    neverPaused.observe([], messages);
    expect(next.broke).toBeUndefined();
    expect(next.digest).toBe(neverPaused.observe([], [...messages, user('5')]).digest);
  });
});

describe('createPrefixTracker, given a growing array', () => {
  it('gives the digests and breaks of the same requests given as copies', () => {
    const growing = createPrefixTracker();
    const copied = createPrefixTracker();
    const tools = [schema('a')];
    const history: Message[] = [user('0')];
    for (let turn = 1; turn < 8; turn += 1) {
      const one = growing.observe(tools, history, undefined, true);
      const other = copied.observe(tools, history.slice());
      expect(one).toEqual(other);
      // A system message mid-history, then turns that only append.
      history.push(turn === 3 ? { role: 'system', content: 'S' } : { role: 'assistant', content: `a${turn}` });
      history.push(user(String(turn)));
    }
    // Another array after the growing one is compared message by message: a rewrite is a break.
    const rewritten = [...history.slice(0, 2), user('rewritten'), ...history.slice(3)];
    const one = growing.observe(tools, rewritten, undefined, true);
    expect(one.broke?.changes).toEqual([{ part: 'history', change: 'rewritten', index: 2 }]);
    expect(one).toEqual(copied.observe(tools, rewritten.slice()));
    expect(growing.state([])).toEqual(copied.state([]));
  });
});
