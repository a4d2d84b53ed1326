import {
  type AnyTool,
  CallDeferredError,
  completeTool,
  defineTool,
  ToolDefinitionError,
  ToolInputError,
  ToolNotFoundError,
  ToolPolicy,
  ToolResult,
} from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../registry/tool-registry.js';
import { ApprovalRequiredToolSet } from './approval-required-tool-set.js';
import { CombinedToolSet } from './combined-tool-set.js';
import { ExternalToolSet } from './external-tool-set.js';
import { FilteredToolSet } from './filtered-tool-set.js';
import { PrefixedToolSet } from './prefixed-tool-set.js';
import { PreparedToolSet } from './prepared-tool-set.js';
import { registryToolSet } from './registry-tool-set.js';
import { RenamedToolSet } from './renamed-tool-set.js';
import { listToolSet, type ToolSet, type ToolSetContext } from './tool-set.js';
import { toolSetFromTools } from './tool-set-from-tools.js';
import { toolsFilteredDetails } from './tools-filtered-details.js';

const context: ToolSetContext = { runId: 'run-1', turn: 1 };

/** A tool that sets every optional member to a non-default value. */
function richTool(name = 'rich') {
  return defineTool({
    name,
    description: 'A tool with every member set.',
    parameters: Type.Object({ city: Type.String(), token: Type.String() }),
    injected: [{ name: 'token', source: 'host' }],
    policy: ToolPolicy.readOnly().withRuntime({ timeoutMs: 1234 }).withDisplay({ label: 'Rich label' }),
    exposure: 'deferred',
    family: 'weather',
    tags: ['a', 'b'],
    category: 'integration',
    scope: 'agent',
    supportsMarkdown: true,
    returnDirect: true,
    maxResultSizeChars: 99,
    hostExtension: { x: 1 },
    permissionLevel: () => 'write',
    isConcurrencySafe: () => true,
    externalEffect: () => true,
    indirectTarget: () => 'target',
    timeoutPolicy: () => ({ kind: 'unbounded' }),
    hostCallExtension: () => 'host-call',
    displayLabel: ({ city }) => `Weather in ${city}`,
    displayDetail: ({ city }) => city,
    execute: ({ city, token }) => `${city}:${token}`,
  });
}

const simple = (name: string, output = name) =>
  defineTool({ name, description: `The ${name} tool.`, parameters: Type.Object({}), execute: () => output });

function expectDelegated(wrapped: AnyTool | undefined, original: AnyTool, changed: readonly string[] = []) {
  expect(wrapped).toBeDefined();
  const a = completeTool(wrapped as AnyTool);
  const b = completeTool(original);
  const args = { city: 'Oslo', token: 't' } as never;
  const fields = [
    'name',
    'description',
    'parameters',
    'injected',
    'exposure',
    'family',
    'tags',
    'category',
    'scope',
    'supportsMarkdown',
    'returnDirect',
    'maxResultSizeChars',
    'hostExtension',
  ] as const;
  for (const field of fields) if (!changed.includes(field)) expect(a[field], field).toEqual(b[field]);
  if (!changed.includes('policy')) expect(a.policy.toJSON()).toEqual(b.policy.toJSON());
  expect(a.permissionLevel(args)).toBe('write');
  expect(a.isConcurrencySafe(args)).toBe(true);
  expect(a.externalEffect(args)).toBe(true);
  expect(a.indirectTarget(args)).toBe('target');
  expect(a.timeoutPolicy(args)).toEqual({ kind: 'unbounded' });
  expect(a.hostCallExtension(args)).toBe('host-call');
  expect(a.displayLabel(args)).toBe('Weather in Oslo');
  expect(a.displayDetail(args)).toBe('Oslo');
}

describe('wrappers delegate every tool member', () => {
  const base = () => toolSetFromTools([richTool()]);
  it.each<[string, () => ToolSet, string, string[]]>([
    ['Prefixed', () => new PrefixedToolSet(base(), 'x_'), 'x_rich', ['name']],
    ['Renamed', () => new RenamedToolSet(base(), { rich: 'fancy' }), 'fancy', ['name']],
    ['Filtered', () => new FilteredToolSet(base(), () => true), 'rich', []],
    [
      'Prepared',
      () => new PreparedToolSet(base(), (_, tools) => tools.map((tool) => ({ ...tool, description: 'Short.' }))),
      'rich',
      ['description'],
    ],
    ['ApprovalRequired', () => new ApprovalRequiredToolSet(base()), 'rich', ['policy']],
    ['Combined', () => new CombinedToolSet([base()]), 'rich', []],
    [
      'a chain of all of them',
      () =>
        new CombinedToolSet([
          new ApprovalRequiredToolSet(
            new PreparedToolSet(
              new RenamedToolSet(new PrefixedToolSet(new FilteredToolSet(base(), () => true), 'x_'), {
                x_rich: 'fancy',
              }),
              (_, tools) => tools,
            ),
            () => false,
          ),
        ]),
      'fancy',
      ['name'],
    ],
  ])('%s', async (_, make, name, changed) => {
    const listing = await listToolSet(make(), context);
    const wrapped = listing.tools.find((tool) => tool.name === name);
    expectDelegated(wrapped, richTool(), changed);
    expect(await (wrapped as AnyTool).execute({ city: 'Oslo', token: 't' } as never, {} as never)).toBe('Oslo:t');
  });

  it('ApprovalRequired keeps the rest of the policy and classifies it', async () => {
    const listing = await listToolSet(new ApprovalRequiredToolSet(base()), context);
    const policy = completeTool(listing.tools[0] as AnyTool).policy;
    expect(policy.access.approvalRequired).toBe(true);
    expect(policy.classified).toBe(true);
    expect(policy.sideEffects.readOnly).toBe(true);
    expect(policy.runtime.timeoutMs).toBe(1234);
    expect(policy.display.label).toBe('Rich label');
    expect(listing.explanations).toEqual([{ name: 'rich', kind: 'approval_required', by: 'approval_required' }]);
  });
});

describe('CombinedToolSet', () => {
  it('concatenates in member order, keeps duplicates and routes to the first owner', async () => {
    const combined = new CombinedToolSet([
      toolSetFromTools([simple('a', 'first a'), simple('b')]),
      toolSetFromTools([simple('a', 'second a'), simple('c')]),
    ]);
    const listing = await listToolSet(combined, context);
    expect(listing.tools.map((tool) => tool.name)).toEqual(['a', 'b', 'a', 'c']);
    expect((await combined.call('a', {}, context)).output()).toBe('first a');
    expect((await combined.call('c', {}, context)).output()).toBe('c');
    await expect(combined.call('zzz', {}, context)).rejects.toSatisfy(ToolNotFoundError.isInstance);
  });

  it('routes by the current listing, so a member that stops listing a tool loses it', async () => {
    let show = true;
    const dynamic: ToolSet = {
      label: 'dynamic',
      tools: () => (show ? [simple('a', 'dynamic a')] : []),
      call: async (name) => {
        if (name !== 'a' || !show) throw new ToolNotFoundError({ toolName: name });
        return ToolResult.success('dynamic a');
      },
    };
    const combined = new CombinedToolSet([dynamic, toolSetFromTools([simple('a', 'fallback a')])]);
    expect((await combined.call('a', {}, context)).output()).toBe('dynamic a');
    show = false;
    expect((await combined.call('a', {}, context)).output()).toBe('fallback a');
  });

  it('joins instructions with blank lines and runs forRun on every member in order', async () => {
    const order: string[] = [];
    const member = (label: string, text?: string): ToolSet => ({
      label,
      tools: () => [],
      call: () => Promise.reject(new ToolNotFoundError({ toolName: 'x' })),
      instructions: () => text,
      forRun: () => {
        order.push(label);
      },
    });
    const combined = new CombinedToolSet([member('one', 'Use one.'), member('two'), member('three', 'Use three.')]);
    expect(combined.instructions()).toBe('Use one.\n\nUse three.');
    await combined.forRun({ runId: 'r', turn: 0 });
    expect(order).toEqual(['one', 'two', 'three']);
    expect(new CombinedToolSet([member('none')]).instructions()).toBeUndefined();
  });

  it('propagates "mine and failed" without trying later members', async () => {
    const failing = toolSetFromTools([
      defineTool({
        name: 'a',
        description: 'Fails.',
        parameters: Type.Object({}),
        execute: () => {
          throw new Error('boom');
        },
      }),
    ]);
    const combined = new CombinedToolSet([failing, toolSetFromTools([simple('a')])]);
    await expect(combined.call('a', {}, context)).rejects.toThrow('boom');
  });
});

describe('FilteredToolSet', () => {
  it('withholds and refuses filtered tools, and explains each', async () => {
    const filtered = FilteredToolSet.allowing(toolSetFromTools([simple('a'), simple('b'), simple('c')]), ['a', 'c']);
    const listing = await listToolSet(filtered, context);
    expect(listing.tools.map((tool) => tool.name)).toEqual(['a', 'c']);
    expect(listing.explanations).toEqual([{ name: 'b', kind: 'filtered_out', by: 'allow_list' }]);
    await expect(filtered.call('b', {}, context)).rejects.toSatisfy(ToolNotFoundError.isInstance);
    expect((await filtered.call('c', {}, context)).output()).toBe('c');
  });

  it('passes the turn context to the predicate', async () => {
    const filtered = new FilteredToolSet(toolSetFromTools([simple('a')]), (_, ctx) => ctx.turn > 1);
    expect((await listToolSet(filtered, context)).tools).toHaveLength(0);
    expect((await listToolSet(filtered, { ...context, turn: 2 })).tools).toHaveLength(1);
  });
});

describe('PrefixedToolSet', () => {
  it('concatenates the prefix verbatim and requires it on calls', async () => {
    const prefixed = new PrefixedToolSet(toolSetFromTools([simple('read')]), 'fs_');
    const listing = await listToolSet(prefixed, context);
    expect(listing.tools.map((tool) => tool.name)).toEqual(['fs_read']);
    expect(listing.explanations).toEqual([
      { name: 'read', kind: 'prefixed', by: 'prefixed:fs_', from: 'read', to: 'fs_read' },
    ]);
    expect((await prefixed.call('fs_read', {}, context)).output()).toBe('read');
    for (const name of ['read', 'fs_', 'fs_write']) {
      const error = await prefixed.call(name, {}, context).catch((caught: unknown) => caught);
      expect(ToolNotFoundError.isInstance(error), name).toBe(true);
      expect((error as ToolNotFoundError).toolName).toBe(name);
    }
  });
});

describe('RenamedToolSet', () => {
  it('advertises the new name, refuses the old one and leaves unmapped names alone', async () => {
    const renamed = new RenamedToolSet(toolSetFromTools([simple('get_weather'), simple('other')]), {
      get_weather: 'weather',
    });
    const listing = await listToolSet(renamed, context);
    expect(listing.tools.map((tool) => tool.name)).toEqual(['weather', 'other']);
    expect(listing.explanations).toEqual([
      { name: 'get_weather', kind: 'renamed', by: 'renamed', from: 'get_weather', to: 'weather' },
    ]);
    expect((await renamed.call('weather', {}, context)).output()).toBe('get_weather');
    expect((await renamed.call('other', {}, context)).output()).toBe('other');
    await expect(renamed.call('get_weather', {}, context)).rejects.toSatisfy(ToolNotFoundError.isInstance);
  });

  it('accepts a Map and ignores mappings for tools the inner set does not list', async () => {
    const renamed = new RenamedToolSet(toolSetFromTools([simple('a')]), new Map([['missing', 'b']]));
    expect((await listToolSet(renamed, context)).tools.map((tool) => tool.name)).toEqual(['a']);
    await expect(renamed.call('b', {}, context)).rejects.toSatisfy(ToolNotFoundError.isInstance);
  });
});

describe('PreparedToolSet', () => {
  it('rewrites and drops declarations per turn, and refuses dropped names', async () => {
    const prepared = new PreparedToolSet(toolSetFromTools([simple('a'), simple('b'), simple('c')]), (ctx, tools) =>
      tools
        .filter((tool) => tool.name !== 'b')
        .map((tool) => (tool.name === 'c' ? { ...tool, description: `Turn ${ctx.turn}.` } : tool)),
    );
    const listing = await listToolSet(prepared, context);
    expect(listing.tools.map((tool) => [tool.name, tool.description])).toEqual([
      ['a', 'The a tool.'],
      ['c', 'Turn 1.'],
    ]);
    expect(listing.explanations).toEqual([
      { name: 'c', kind: 'prepared', by: 'prepared' },
      { name: 'b', kind: 'filtered_out', by: 'prepared' },
    ]);
    await expect(prepared.call('b', {}, context)).rejects.toSatisfy(ToolNotFoundError.isInstance);
    expect((await prepared.call('c', {}, context)).output()).toBe('c');
  });

  it('refuses to add or duplicate tools', async () => {
    const adding = new PreparedToolSet(toolSetFromTools([simple('a')]), () => [
      { name: 'new', description: '', parameters: {} },
    ]);
    await expect(listToolSet(adding, context)).rejects.toSatisfy(ToolDefinitionError.isInstance);
    const doubling = new PreparedToolSet(toolSetFromTools([simple('a')]), (_, tools) => [...tools, ...tools]);
    await expect(listToolSet(doubling, context)).rejects.toSatisfy(ToolDefinitionError.isInstance);
  });
});

describe('ExternalToolSet', () => {
  const specs = [
    { name: 'client_pick_file', description: 'Ask the user for a file.', parameters: { type: 'object' } },
    {
      name: 'client_notify',
      description: 'Notify.',
      parameters: { type: 'object' },
      exposure: 'deferred' as const,
      policy: ToolPolicy.readOnly(),
    },
  ];

  it('advertises schema-only tools and defers every call to the host', async () => {
    const external = new ExternalToolSet(specs);
    const listing = await listToolSet(external, context);
    expect(listing.tools.map((tool) => [tool.name, completeTool(tool).exposure])).toEqual([
      ['client_pick_file', 'direct'],
      ['client_notify', 'deferred'],
    ]);
    expect(completeTool(listing.tools[1] as AnyTool).policy.sideEffects.readOnly).toBe(true);
    expect(listing.explanations.map((item) => item.kind)).toEqual(['deferred', 'deferred']);
    const error = await external.call('client_pick_file', { a: 1 }, context).catch((caught: unknown) => caught);
    expect(CallDeferredError.isInstance(error)).toBe(true);
    expect((error as CallDeferredError).reason).toBe('external');
    expect((error as CallDeferredError).metadata).toEqual({ name: 'client_pick_file', arguments: { a: 1 } });
    expect(() => (listing.tools[0] as AnyTool).execute({} as never, {} as never)).toThrow(CallDeferredError);
    await expect(external.call('unknown', {}, context)).rejects.toSatisfy(ToolNotFoundError.isInstance);
  });
});

describe('registryToolSet', () => {
  it('lists every registered tool live and runs them with validation and injected values', async () => {
    const registry = new ToolRegistry().register(richTool());
    const set = registryToolSet(registry);
    registry.register(simple('later'));
    registry.registerExternal({ name: 'ext', description: 'External.', parameters: { type: 'object' } });
    const listing = await listToolSet(set, context);
    expect(listing.tools.map((tool) => tool.name)).toEqual(['ext', 'later', 'rich']);
    expectDelegated(listing.tools[2], richTool());
    const result = await set.call('rich', { city: 'Oslo' }, { ...context, execution: { hostValues: { token: 'k' } } });
    expect(result.output()).toBe('Oslo:k');
    await expect(
      set.call('rich', { city: 3 }, { ...context, execution: { hostValues: { token: 'k' } } }),
    ).rejects.toSatisfy(ToolInputError.isInstance);
    await expect(set.call('ext', {}, context)).rejects.toSatisfy(CallDeferredError.isInstance);
    await expect(set.call('nope', {}, context)).rejects.toSatisfy(ToolNotFoundError.isInstance);
  });
});

describe('toolsFilteredDetails', () => {
  it('groups explanations per adaptor for tools_filtered events', async () => {
    const chain = new RenamedToolSet(
      new FilteredToolSet(toolSetFromTools([simple('a'), simple('b'), simple('c')]), (tool) => tool.name !== 'b'),
      { c: 'see' },
    );
    const details = toolsFilteredDetails(await listToolSet(chain, context));
    expect(details).toEqual([
      {
        by: 'filtered',
        excluded: ['b'],
        remaining: 2,
        reasons: { b: 'filtered_out' },
        explanations: [{ name: 'b', kind: 'filtered_out', by: 'filtered' }],
      },
      {
        by: 'renamed',
        excluded: [],
        remaining: 2,
        reasons: { see: 'renamed from c' },
        explanations: [{ name: 'c', kind: 'renamed', by: 'renamed', from: 'c', to: 'see' }],
      },
    ]);
    expect(toolsFilteredDetails(await listToolSet(toolSetFromTools([simple('a')]), context))).toEqual([]);
  });
});
