import { createToolExecutionContext, createValidator, defineTool, type ToolRanker, ToolResult } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import {
  resolveSearchLimits,
  TOOL_CALL_PARAMETERS,
  TOOL_SEARCH_USAGE,
  toolCallSchema,
  toolSearchSchema,
} from './bridge-schemas.js';
import { jsonBytes } from './compact-schema.js';
import { createDeferredCatalogue, type DeferredToolSpec, deferredToolSpec } from './deferred-catalogue.js';
import { createDiscoverySession } from './discovery-session.js';
import { searchDeferredTools } from './search-deferred-tools.js';
import { firstSentence, renderSearchManifest } from './search-manifest.js';
import { unwrapBridgeCall } from './unwrap-bridge-call.js';

const spec = (name: string, description: string, properties: Record<string, unknown> = {}, family?: string) =>
  ({
    name,
    description,
    parameters: { type: 'object', properties },
    ...(family === undefined ? {} : { family }),
  }) satisfies DeferredToolSpec;

const specs: DeferredToolSpec[] = [
  spec('send_email', 'Send an email to a recipient. Supports attachments.', { to: {}, subject: {}, body: {} }, 'mail'),
  spec('read_file', 'Read a text file from the workspace.', { path: {} }, 'fs'),
  spec('create_issue', 'Create a GitHub issue in a repository!', { repo: {}, title: {} }, 'github'),
  spec('list_calendar_events', 'List calendar events between two dates? Yes.', { from: {}, to: {} }, 'calendar'),
];

describe('deferred catalogue', () => {
  it('sorts by name, keeps the first of duplicate names and builds the search text', () => {
    const catalogue = createDeferredCatalogue([...specs, spec('read_file', 'Duplicate.')]);
    expect(catalogue.entries.map((entry) => entry.name)).toEqual([
      'create_issue',
      'list_calendar_events',
      'read_file',
      'send_email',
    ]);
    expect(catalogue.get('read_file')?.searchText).toBe(
      'read_file read file Read a text file from the workspace. path',
    );
    expect(catalogue.candidates.find((item) => item.key === 'send_email')).toMatchObject({ family: 'mail' });
    expect(catalogue.schemaOf('read_file')).toEqual({
      name: 'read_file',
      description: 'Read a text file from the workspace.',
      parameters: { type: 'object', properties: { path: {} } },
    });
  });

  it('projects injected arguments out of a tool spec', () => {
    const tool = defineTool({
      name: 'secret_call',
      description: 'Uses a key.',
      parameters: Type.Object({ q: Type.String(), key: Type.String() }),
      injected: [{ name: 'key', source: 'host' }],
      family: 'svc',
      execute: () => '',
    });
    const projected = deferredToolSpec(tool);
    expect(Object.keys(projected.parameters.properties as object)).toEqual(['q']);
    expect(projected.family).toBe('svc');
  });
});

describe('manifest', () => {
  it('takes the first sentence, cut to 60 characters plus an ellipsis', () => {
    expect(firstSentence('Send an email. Supports attachments.')).toBe('Send an email.');
    expect(firstSentence('Version 1.5 is here! More.')).toBe('Version 1.5 is here!');
    expect(firstSentence('No end mark')).toBe('No end mark');
    expect(firstSentence(`${'x'.repeat(70)}.`)).toBe(`${'x'.repeat(60)}…`);
    expect(firstSentence('  spaced\n\ttext.  ')).toBe('spaced text.');
  });

  it('degrades from summaries to names to a count line within the byte budget', () => {
    const { entries } = createDeferredCatalogue(specs);
    const full = renderSearchManifest(entries, 10_000);
    expect(full.split('\n')).toEqual([
      '4 deferred tool(s) are searchable:',
      '- create_issue: Create a GitHub issue in a repository!',
      '- list_calendar_events: List calendar events between two dates?',
      '- read_file: Read a text file from the workspace.',
      '- send_email: Send an email to a recipient.',
    ]);
    const names = renderSearchManifest(entries, full.length - 1);
    expect(names).toBe(
      '4 deferred tool(s) are searchable:\n- create_issue\n- list_calendar_events\n- read_file\n- send_email',
    );
    expect(renderSearchManifest(entries, 20)).toBe(
      '4 deferred tool(s) are searchable; describe what you need to find them.',
    );
    expect(renderSearchManifest([], 100)).toBe('');
  });
});

describe('bridge schemas', () => {
  it('clamps limits without throwing, even for a zero maximum', () => {
    expect(resolveSearchLimits()).toEqual({ defaultLimit: 5, maxLimit: 20 });
    expect(resolveSearchLimits({ maxLimit: 0 })).toEqual({ defaultLimit: 1, maxLimit: 1 });
    expect(resolveSearchLimits({ defaultLimit: 50, maxLimit: 10 })).toEqual({ defaultLimit: 10, maxLimit: 10 });
    expect(resolveSearchLimits({ defaultLimit: 0, maxLimit: Number.NaN })).toEqual({ defaultLimit: 1, maxLimit: 20 });
  });

  it('advertises limit bounds and appends the manifest to the usage text', () => {
    const schema = toolSearchSchema(createDeferredCatalogue(specs), { limits: resolveSearchLimits({ maxLimit: 7 }) });
    expect(schema.description?.startsWith(`${TOOL_SEARCH_USAGE}\n\n4 deferred tool(s) are searchable:`)).toBe(true);
    expect(schema.parameters).toMatchObject({
      required: ['query'],
      properties: { limit: { type: 'integer', minimum: 1, maximum: 7 } },
    });
  });

  it('advertises tool_call arguments as a JSON string but validates strings, objects and null', () => {
    expect(toolCallSchema().parameters).toMatchObject({ properties: { arguments: { type: 'string' } } });
    const validator = createValidator(TOOL_CALL_PARAMETERS);
    for (const args of ['{}', { a: 1 }, null]) expect(validator.validate({ name: 'x', arguments: args }).ok).toBe(true);
    expect(validator.validate({ name: 'x' }).ok).toBe(true);
    expect(validator.validate({ arguments: '{}' }).ok).toBe(false);
  });
});

describe('searchDeferredTools', () => {
  const catalogue = createDeferredCatalogue(specs);

  it('ranks with BM25 by default and renders matches with full parameters', async () => {
    const outcome = await searchDeferredTools(catalogue, { query: 'email a recipient' });
    expect(outcome.matched).toEqual(['send_email']);
    expect(outcome.ranker).toBe('bm25');
    expect(outcome.latencyMs).toBeGreaterThanOrEqual(0);
    const text = outcome.result.output();
    expect(text.startsWith('1 match for "email a recipient".')).toBe(true);
    expect(JSON.parse(text.slice(text.indexOf('\n') + 1))).toEqual([
      {
        name: 'send_email',
        description: 'Send an email to a recipient. Supports attachments.',
        parameters: { type: 'object', properties: { to: {}, subject: {}, body: {} } },
      },
    ]);
  });

  it('answers an empty query with a tool error before ranking', async () => {
    for (const args of [{ query: '  ' }, {}, null, 'text']) {
      const outcome = await searchDeferredTools(catalogue, args);
      expect(outcome.result.isError).toBe(true);
      expect(outcome.ranker).toBe('');
      expect(outcome.matched).toEqual([]);
    }
  });

  it('says nothing matched, with the searchable count, and never pads to the limit', async () => {
    const none = await searchDeferredTools(catalogue, { query: 'quantum teleportation' });
    expect(none.result.isError).toBe(false);
    expect(none.result.output()).toBe(
      'No deferred tool matches "quantum teleportation" (4 searchable). Try other words for the task.',
    );
    const few = await searchDeferredTools(catalogue, { query: 'file', limit: 20 });
    expect(few.matched).toEqual(['read_file']);
  });

  it('clamps the requested limit and cuts long descriptions to 500 characters', async () => {
    const many = createDeferredCatalogue(
      Array.from({ length: 30 }, (_, index) =>
        spec(`tool_${String(index).padStart(2, '0')}`, `${index < 20 ? 'Widget' : 'Gadget'} ${'w'.repeat(600)}`),
      ),
    );
    const limits = resolveSearchLimits({ defaultLimit: 3, maxLimit: 10 });
    expect((await searchDeferredTools(many, { query: 'widget' }, { limits })).matched).toHaveLength(3);
    expect((await searchDeferredTools(many, { query: 'widget', limit: 99 }, { limits })).matched).toHaveLength(10);
    expect((await searchDeferredTools(many, { query: 'widget', limit: 0 }, { limits })).matched).toHaveLength(1);
    const text = (await searchDeferredTools(many, { query: 'widget', limit: 1 }, { limits })).result.output();
    const [match] = JSON.parse(text.slice(text.indexOf('\n') + 1)) as [{ description: string }];
    expect([...match.description]).toHaveLength(501);
    expect(match.description.endsWith('…')).toBe(true);
  });

  it('is deterministic on ties (by name)', async () => {
    const tied = createDeferredCatalogue([
      spec('b_tool', 'Shared words.'),
      spec('a_tool', 'Shared words.'),
      spec('c', 'x'),
    ]);
    expect((await searchDeferredTools(tied, { query: 'shared' })).matched).toEqual(['a_tool', 'b_tool']);
  });

  const host = (rank: ToolRanker['rank'], kind = 'embeddings'): ToolRanker => ({ kind: () => kind, rank });

  it('serves a host ranker, dropping unknown keys, unknown fields and duplicates', async () => {
    const ranker = host(() => [
      { key: 'ghost', score: 9 },
      { key: 'read_file', score: 3, confidence: 0.9, extra: 'x' } as never,
      { key: 'read_file', score: 2 },
      { key: 'send_email', score: 1, confidence: 7 },
    ]);
    const outcome = await searchDeferredTools(catalogue, { query: 'anything' }, { ranker });
    expect(outcome.matched).toEqual(['read_file', 'send_email']);
    expect(outcome.ranker).toBe('embeddings');
    expect(outcome.topConfidence).toBe(0.9);
    expect(outcome.fallback).toBeUndefined();
  });

  it('falls back to BM25 when the host ranker throws or matches nothing', async () => {
    const failing = host(() => {
      throw new Error('service down');
    });
    const failed = await searchDeferredTools(catalogue, { query: 'read file' }, { ranker: failing });
    expect(failed).toMatchObject({ matched: ['read_file'], ranker: 'bm25', fallback: 'ranker_error: service down' });
    const empty = await searchDeferredTools(catalogue, { query: 'read file' }, { ranker: host(async () => []) });
    expect(empty).toMatchObject({ matched: ['read_file'], ranker: 'bm25', fallback: 'ranker_empty' });
  });

  it('ignores the host ranker in bm25 mode and shadows it with BM25 in compare mode', async () => {
    const ranker = host(() => [{ key: 'create_issue', score: 1 }]);
    const bm25 = await searchDeferredTools(catalogue, { query: 'read file' }, { ranker, rankMode: 'bm25' });
    expect(bm25).toMatchObject({ matched: ['read_file'], ranker: 'bm25' });
    const compare = await searchDeferredTools(catalogue, { query: 'read file' }, { ranker, rankMode: 'compare' });
    expect(compare).toMatchObject({ matched: ['create_issue'], ranker: 'embeddings', shadowMatched: ['read_file'] });
  });
});

describe('unwrapBridgeCall', () => {
  const call = (args: unknown, extra: Record<string, unknown> = {}) => ({
    id: 'c1',
    name: 'tool_call',
    arguments: args,
    ...extra,
  });

  it('leaves other calls alone', () => {
    const other = { id: 'c', name: 'read_file', arguments: { path: 'a' } };
    expect(unwrapBridgeCall(other)).toEqual({ kind: 'not_bridge', call: other });
  });

  it('unwraps JSON-string, object, missing, null and blank arguments, keeping the id', () => {
    const cases: Array<[unknown, Record<string, unknown>]> = [
      [{ name: 'read_file', arguments: '{"path":"a.txt"}' }, { path: 'a.txt' }],
      [{ name: 'read_file', arguments: { path: 'a.txt' } }, { path: 'a.txt' }],
      [{ name: 'read_file' }, {}],
      [{ name: 'read_file', arguments: null }, {}],
      [{ name: 'read_file', arguments: '  ' }, {}],
      [{ name: 'read_file', arguments: '{"path": "a.txt",}' }, { path: 'a.txt' }],
      ['{"name": "read_file", "arguments": "{\\"path\\": \\"a.txt\\"}"}', { path: 'a.txt' }],
    ];
    for (const [args, expected] of cases) {
      const outcome = unwrapBridgeCall(call(args));
      expect(outcome.kind, JSON.stringify(args)).toBe('unwrapped');
      if (outcome.kind !== 'unwrapped') continue;
      expect(outcome.call).toEqual({ id: 'c1', name: 'read_file', arguments: expected });
      expect(outcome.bridgeCall.name).toBe('tool_call');
    }
  });

  it('clears the provider invalid flag once the outer arguments are recovered', () => {
    const outcome = unwrapBridgeCall(call('{"name": "read_file", "arguments": {}', { invalid: 'bad json' }));
    expect(outcome.kind).toBe('unwrapped');
    if (outcome.kind === 'unwrapped') expect('invalid' in outcome.call).toBe(false);
  });

  it('rejects an empty name, self-calls and non-object arguments as tool errors', () => {
    const cases: unknown[] = [
      {},
      { name: '  ' },
      { name: 42 },
      { name: 'tool_call', arguments: '{}' },
      { name: 'read_file', arguments: '[1, 2]' },
      { name: 'read_file', arguments: 'not json at all' },
      { name: 'read_file', arguments: 7 },
      { name: 'read_file', arguments: ['a'] },
      [1],
      '{{{',
    ];
    for (const args of cases) {
      const outcome = unwrapBridgeCall(call(args));
      expect(outcome.kind, JSON.stringify(args)).toBe('invalid');
      if (outcome.kind === 'invalid') expect(outcome.message).toMatch(/tool_call/);
    }
  });
});

describe('discovery session', () => {
  const direct = [
    { name: 'alpha', description: 'Alpha.', parameters: { type: 'object', properties: {} } },
    { name: 'beta', description: 'Beta.', parameters: { type: 'object', properties: {} } },
  ];

  it('appends tool_search then tool_call after the direct set and promotes found tools in order', async () => {
    const searched: Array<[string[], string]> = [];
    const session = createDiscoverySession({
      deferred: specs,
      onSearch: (outcome, callId) => searched.push([[...outcome.matched], callId]),
    });
    expect(session.bridgeNames).toEqual(['tool_search', 'tool_call']);
    expect(session.requestSchemas(direct).map((schema) => schema.name)).toEqual([
      'alpha',
      'beta',
      'tool_search',
      'tool_call',
    ]);
    await session.search({ query: 'calendar events' }, 'call-1');
    await session.search({ query: 'email recipient' }, 'call-2');
    await session.search({ query: 'calendar' }, 'call-3');
    expect(searched).toEqual([
      [['list_calendar_events'], 'call-1'],
      [['send_email'], 'call-2'],
      [['list_calendar_events'], 'call-3'],
    ]);
    expect(session.promoted()).toEqual(['list_calendar_events', 'send_email']);
    const names = session.requestSchemas(direct).map((schema) => schema.name);
    expect(names).toEqual(['alpha', 'beta', 'tool_search', 'tool_call', 'list_calendar_events', 'send_email']);
  });

  it('reports the first request: direct names, deferred count and bytes of direct + bridge', () => {
    const session = createDiscoverySession({ deferred: specs });
    const advertised = session.advertise(direct);
    expect(advertised.direct).toEqual(['alpha', 'beta']);
    expect(advertised.deferred).toBe(4);
    expect(advertised.schemaBytes).toBe(jsonBytes([...direct, ...session.bridgeSchemas()]));
  });

  it('lets host tools named tool_search/tool_call win and offers no bridge without deferred tools', () => {
    const shadowed = createDiscoverySession({ deferred: specs, hostToolNames: ['tool_call'] });
    expect(shadowed.bridgeNames).toEqual(['tool_search']);
    expect(shadowed.isBridgeCall('tool_call')).toBe(false);
    const empty = createDiscoverySession({ deferred: [] });
    expect(empty.bridgeActive).toBe(false);
    expect(empty.requestSchemas(direct)).toHaveLength(2);
    const disabled = createDiscoverySession({ deferred: specs, enabled: false });
    expect(disabled.bridgeActive).toBe(false);
    expect(disabled.isDeferred('read_file')).toBe(true);
  });

  it('restores promotions on resume only for tools still in the catalogue', () => {
    const session = createDiscoverySession({ deferred: specs });
    expect(session.restorePromoted(['read_file', 'revoked_tool', 'read_file'])).toEqual(['read_file']);
    expect(session.promoted()).toEqual(['read_file']);
  });

  it('projects every request schema through the compaction budget', () => {
    const session = createDiscoverySession({
      deferred: specs,
      schemaCompaction: { maxDescriptionBytes: 20 },
    });
    for (const schema of session.requestSchemas(direct)) {
      expect(new TextEncoder().encode(schema.description).length).toBeLessThanOrEqual(20);
    }
  });

  it('runs the bridge tools: tool_search searches, a stray tool_call answers or delegates', async () => {
    const session = createDiscoverySession({ deferred: specs });
    const [search, call] = session.bridgeTools();
    const context = createToolExecutionContext({ callId: 'c9' });
    const found = (await search?.execute({ query: 'read file' } as never, context)) as ToolResult;
    expect(found.output()).toMatch(/^1 match/);
    expect(session.promoted()).toEqual(['read_file']);
    const bad = (await call?.execute({ name: '' } as never, context)) as ToolResult;
    expect(bad.isError).toBe(true);
    const nested = createToolExecutionContext({
      callTool: async (name, args) => ToolResult.success(`${name}:${JSON.stringify(args)}`),
    });
    const delegated = (await call?.execute(
      { name: 'read_file', arguments: '{"path":"x"}' } as never,
      nested,
    )) as ToolResult;
    expect(delegated.output()).toBe('read_file:{"path":"x"}');
    expect(search?.isConcurrencySafe?.({} as never)).toBe(true);
  });
});
