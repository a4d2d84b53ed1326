import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type AgentEvent, AgentHarness } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { ToolNotFoundError } from '@tiny/tools';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpToolSet } from './create-mcp-tool-set.js';
import { McpPinFileError } from './errors/mcp-pin-file-error.js';
import { McpToolDefinitionChangedError } from './errors/mcp-tool-definition-changed-error.js';
import { type McpToolDefinitionEvent, readMcpPinFile, writeMcpPinFile } from './mcp-tool-pins.js';
import type { McpToolSet } from './mcp-tool-set.js';

const fixture = fileURLToPath(new URL('./__fixtures__/changing-server.mjs', import.meta.url));
// Pass the loopback guard of scripts/offline.sh on to the server process.
const baseEnv = {
  ...getDefaultEnvironment(),
  ...Object.fromEntries(
    ['NODE_OPTIONS', 'TINY_LOOPBACK_GUARD_LOG'].flatMap((key) => {
      const value = process.env[key];
      return value === undefined ? [] : [[key, value]];
    }),
  ),
};
const connection = (mutated = false) => ({
  command: process.execPath,
  args: [fixture],
  env: { ...baseEnv, ...(mutated ? { MUTATED: '1' } : {}) },
});
const context = { runId: 'r', turn: 1 };
const names = async (toolSet: McpToolSet) => (await toolSet.tools(context)).map((tool) => tool.name).sort();
const open: McpToolSet[] = [];
const dir = mkdtempSync(join(tmpdir(), 'tiny-mcp-pins-'));
afterAll(async () => {
  await Promise.all(open.map((toolSet) => toolSet.close().catch(() => undefined)));
  rmSync(dir, { recursive: true, force: true });
});

async function connect(options: Parameters<typeof createMcpToolSet>[0]) {
  const toolSet = await createMcpToolSet(options);
  open.push(toolSet);
  return toolSet;
}

/** Resolves after the next `list_changed` refresh of the toolset being created. */
function nextChange() {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, onToolsChanged: () => resolve() };
}

const greetRuns = async (toolSet: McpToolSet) =>
  JSON.parse((await toolSet.call('log', {}, context)).output()) as Array<{ name: string; version: number }>;

describe('pinned MCP tool definitions (a real stdio server that changes a tool mid-session)', () => {
  it('withholds a tool whose description and schema change after first listing, until its new digest is approved', async () => {
    const events: McpToolDefinitionEvent[] = [];
    const change = nextChange();
    const toolSet = await connect({
      ...connection(),
      onEvent: (event) => events.push(event),
      onToolsChanged: change.onToolsChanged,
    });
    expect(await names(toolSet)).toEqual(['add', 'greet', 'log', 'mutate', 'mutate_silently', 'rename']);
    expect((await toolSet.call('greet', { name: 'ada' })).output()).toBe('hello ada');
    const before = toolSet.pins().tools.greet?.sha256;

    await toolSet.call('mutate', {});
    await change.promise;
    expect(await names(toolSet)).not.toContain('greet');
    await expect(toolSet.call('greet', { name: 'ada' })).rejects.toSatisfy(ToolNotFoundError.isInstance);
    expect(events).toEqual([
      {
        type: 'tool_definition_changed',
        toolSet: 'mcp:changing',
        toolName: 'greet',
        changed: ['description', 'inputSchema'],
        pinned: before,
        current: expect.stringMatching(/^[0-9a-f]{64}$/),
        withheld: true,
      },
    ]);
    expect(toolSet.withheld.map((tool) => tool.toolName)).toEqual(['greet']);
    // A refresh with the same changed definition does not report it again.
    await toolSet.refresh();
    expect(events).toHaveLength(1);

    const current = (events[0] as { current: string }).current;
    expect(() => toolSet.approveDefinition('mutate', current)).toThrow(ToolNotFoundError);
    const pin = toolSet.approveDefinition('greet', current);
    expect(pin.sha256).toBe(current);
    expect(await names(toolSet)).toContain('greet');
    const greet = (await toolSet.tools(context)).find((tool) => tool.name === 'greet');
    const parameters = greet?.parameters as { properties?: object } | undefined;
    expect(Object.keys(parameters?.properties ?? {})).toEqual(['name', 'note']);
    expect(toolSet.withheld).toEqual([]);
  });

  it('approveDefinition refuses a digest other than the current one (the host reviewed an older change)', async () => {
    const events: McpToolDefinitionEvent[] = [];
    const toolSet = await connect({ ...connection(), onEvent: (event) => events.push(event) });
    await toolSet.call('mutate_silently', { version: 1 });
    await toolSet.refresh();
    const reviewed = (events.at(-1) as { current: string }).current;
    await toolSet.call('mutate_silently', { version: 2 });
    await toolSet.refresh();
    const latest = (events.at(-1) as { current: string }).current;
    expect(latest).not.toBe(reviewed);

    const stale = (() => toolSet.approveDefinition('greet', reviewed)) as () => unknown;
    expect(stale).toThrow(McpToolDefinitionChangedError);
    const error = (() => {
      try {
        stale();
      } catch (caught) {
        return caught as McpToolDefinitionChangedError;
      }
    })();
    expect(error).toMatchObject({ during: 'approval', expected: reviewed, current: latest, toolName: 'greet' });
    // The old one-argument form (plain JavaScript) approves nothing either.
    const approve = toolSet.approveDefinition as (name: string) => unknown;
    expect(() => approve.call(toolSet, 'greet')).toThrow(/pass the SHA-256/);
    expect(await names(toolSet)).not.toContain('greet');
    expect(toolSet.approveDefinition('greet', latest).sha256).toBe(latest);
    expect(await names(toolSet)).toContain('greet');
  });

  it('refuses a call admitted in the same batch as a definition change, and the run reports the change', async () => {
    const toolSet = await connect(connection());
    const model = new ScriptedModel({
      steps: [
        {
          toolCalls: [
            scriptedToolCall('mutate', {}, 'c1'),
            scriptedToolCall('greet', { name: 'ada' }, 'c2'),
            scriptedToolCall('mutate_silently', { version: 2 }, 'c3'),
          ],
        },
        { content: 'done' },
      ],
    });
    const harness = new AgentHarness({ model, toolSets: [toolSet] });
    const run = await harness.invoke({}, [{ role: 'user', content: 'go' }], {
      policy: { toolErrors: { kind: 'return_error' } },
    });
    const greetResult = run.messages.find((message) => message.role === 'tool' && message.toolCallId === 'c2');
    expect(String(greetResult?.content)).toMatch(/was not called: it was admitted under definition/);
    expect(await greetRuns(toolSet)).toEqual([]);
    const changes = run.events.filter(
      (event: AgentEvent) => event.type === 'tool_definition_changed' && event.toolName === 'greet',
    );
    // Both changes (the announced one and the silent one) reach the run's events.
    expect(changes).toHaveLength(2);
    expect(changes.every((event) => event.type === 'tool_definition_changed' && event.withheld)).toBe(true);

    // Under the default tool-error policy the refusal fails the run with the typed error.
    const again = await connect(connection());
    const failing = new AgentHarness({
      model: new ScriptedModel({
        steps: [{ toolCalls: [scriptedToolCall('mutate_silently', {}), scriptedToolCall('greet', { name: 'x' })] }],
      }),
      toolSets: [again],
    });
    const error = await failing.invoke({}, [{ role: 'user', content: 'go' }]).catch((caught: unknown) => caught);
    const cause = (error as { cause?: unknown }).cause ?? error;
    expect(McpToolDefinitionChangedError.isInstance(cause)).toBe(true);
    expect(cause).toMatchObject({ during: 'call', toolName: 'greet' });
    expect(await greetRuns(again)).toEqual([]);
  });

  it('reports tools added or renamed mid-session and withholds them until approved (trust on first use)', async () => {
    const events: McpToolDefinitionEvent[] = [];
    const added = nextChange();
    const toolSet = await connect({
      ...connection(),
      onEvent: (event) => events.push(event),
      onToolsChanged: added.onToolsChanged,
    });
    await toolSet.call('add', {});
    await added.promise;
    expect(events).toEqual([
      {
        type: 'tool_definition_added',
        toolSet: 'mcp:changing',
        toolName: 'wave',
        current: expect.any(String),
        withheld: true,
      },
    ]);
    expect(await names(toolSet)).not.toContain('wave');
    await toolSet.call('rename', {});
    await toolSet.refresh();
    // Changes and removals come before additions.
    expect(events.slice(1).map((event) => [event.type, event.toolName])).toEqual([
      ['tool_definition_removed', 'greet'],
      ['tool_definition_added', 'greet_v2'],
    ]);
    expect(await names(toolSet)).not.toContain('greet_v2');
    const renamed = events[2] as { current: string };
    toolSet.approveDefinition('greet_v2', renamed.current);
    expect(await names(toolSet)).toContain('greet_v2');

    // newTools: 'offer' keeps trust on first use for additions, and still reports them.
    const offered: McpToolDefinitionEvent[] = [];
    const open = await connect({ ...connection(), newTools: 'offer', onEvent: (event) => offered.push(event) });
    await open.call('add', {});
    await open.refresh();
    expect(offered).toEqual([
      expect.objectContaining({ type: 'tool_definition_added', toolName: 'wave', withheld: false }),
    ]);
    expect(await names(open)).toContain('wave');
  });

  it('checks a pin file at the first listing: matching tools are offered, a changed or unknown one is not', async () => {
    const first = await connect(connection());
    const path = join(dir, 'pins.json');
    await writeMcpPinFile(path, first);
    const pins = await readMcpPinFile(path);
    expect(Object.keys(pins.tools)).toEqual(['add', 'greet', 'log', 'mutate', 'mutate_silently', 'rename']);

    const same = await connect({ ...connection(), pins });
    expect(await names(same)).toContain('greet');

    const events: McpToolDefinitionEvent[] = [];
    const rugPulled = await connect({ ...connection(true), pins, onEvent: (event) => events.push(event) });
    expect(await names(rugPulled)).not.toContain('greet');
    expect(events.map((event) => [event.type, event.toolName, 'changed' in event ? event.changed : []])).toEqual([
      ['tool_definition_changed', 'greet', ['description', 'inputSchema']],
    ]);

    const { greet: _greet, ...withoutGreet } = pins.tools;
    const unknown: McpToolDefinitionEvent[] = [];
    const strict = await connect({
      ...connection(),
      pins: { ...pins, tools: withoutGreet },
      onEvent: (event) => unknown.push(event),
    });
    expect(await names(strict)).not.toContain('greet');
    expect(unknown.map((event) => [event.type, event.toolName])).toEqual([['tool_definition_added', 'greet']]);
    expect(strict.withheld).toEqual([expect.objectContaining({ toolName: 'greet', changed: ['new'] })]);
  });

  it('refuses a malformed pin file with McpPinFileError', async () => {
    const path = join(dir, 'bad.json');
    writeFileSync(path, JSON.stringify({ version: 1, tools: { greet: { sha256: 'nope' } } }));
    await expect(readMcpPinFile(path)).rejects.toSatisfy(McpPinFileError.isInstance);
    writeFileSync(path, '{');
    await expect(readMcpPinFile(path)).rejects.toThrow(/not valid JSON/);
    writeFileSync(path, JSON.stringify({ version: 2, tools: {} }));
    await expect(readMcpPinFile(path)).rejects.toThrow(/version 2/);
  });
});
