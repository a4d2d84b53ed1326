/**
 * Prompt-prefix stability (issue 39): over random runs — tools offered directly, deferred tools
 * promoted by `tool_search`, a toolset whose listing gains, loses and changes tools between turns
 * (what an MCP `tools/list_changed` does), middleware system text that sometimes changes, a pause
 * for approval resumed in a fresh harness from the serialised state, native and prompt-guided
 * dialects, a response format switched on and off, a tool re-listed with its schema keys in
 * another order — each request's prefix in wire order (tool declarations, all system-role
 * messages, tool choice and response format, later messages, as JSON) extends the previous
 * request's, except where exactly one `prompt_prefix_changed` says so, and that event names every
 * tool that was added (appended or not), changed, vanished or moved. A re-listing that only
 * reorders schema keys is sent with the same bytes (canonical serialisation) and is no change.
 */
import {
  type AgentEvent,
  AgentHarness,
  type AgentMiddleware,
  type AgentRun,
  DeferredToolResults,
  parseRunState,
  serializeRunState,
  type ToolSet,
} from '@tiny/harness';
import { prefixViolations, ScriptedModel, type ScriptedStep, scriptedToolCall } from '@tiny/harness/testkit';
import type { LanguageModelV1Request } from '@tiny/llm';
import { type AnyTool, defineTool, ToolPolicy, ToolResult } from '@tiny/tools';
import fc from 'fast-check';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from './property-runs.js';

const RUNS = Number(process.env.PREFIX_STABILITY_RUNS ?? propertyRuns(150));

function tool(name: string, description: string, extra: Record<string, unknown> = {}): AnyTool {
  return defineTool({
    name,
    description,
    parameters: Type.Object({ id: Type.String() }),
    policy: ToolPolicy.readOnly(),
    execute: ({ id }: { id: string }) => `${name} ${id}`,
    ...extra,
  }) as AnyTool;
}

const SET_NAMES = ['alpha_find', 'omega_find', 'beta_find', 'kappa_find'] as const;
const DEFERRED = ['refund_payment', 'send_mail', 'list_users'] as const;

type Action =
  | { readonly kind: 'direct' }
  | { readonly kind: 'search'; readonly target: number }
  | { readonly kind: 'set_call' }
  | { readonly kind: 'pause' }
  | { readonly kind: 'text' };
type Mutation =
  | { readonly kind: 'none' }
  | { readonly kind: 'add' | 'remove' | 'change'; readonly name: number }
  | { readonly kind: 'system' }
  | { readonly kind: 'format' }
  | { readonly kind: 'reshuffle'; readonly name: number };

const step = fc.record({
  action: fc.oneof(
    fc.constant<Action>({ kind: 'direct' }),
    fc.integer({ min: 0, max: DEFERRED.length - 1 }).map((target): Action => ({ kind: 'search', target })),
    fc.constant<Action>({ kind: 'set_call' }),
    fc.constant<Action>({ kind: 'pause' }),
  ),
  mutation: fc.oneof(
    { weight: 5, arbitrary: fc.constant<Mutation>({ kind: 'none' }) },
    fc
      .record({ kind: fc.constantFrom('add', 'remove', 'change'), name: fc.nat({ max: SET_NAMES.length - 1 }) })
      .map((value) => value as Mutation),
    fc.constant<Mutation>({ kind: 'system' }),
    fc.constant<Mutation>({ kind: 'format' }),
    fc.nat({ max: SET_NAMES.length - 1 }).map((name): Mutation => ({ kind: 'reshuffle', name })),
  ),
});

const scenario = fc.record({
  dialect: fc.constantFrom('native', 'tagged_json'),
  initialSet: fc.subarray([...SET_NAMES], { minLength: 0 }),
  steps: fc.array(step, { minLength: 1, maxLength: 6 }),
});

interface World {
  setTools: AnyTool[];
  versions: Map<string, number>;
  system: number;
  format: boolean;
}

function mutableSet(world: World): ToolSet {
  return {
    label: 'mutable',
    tools: () => world.setTools,
    async call(name, args) {
      const found = world.setTools.find((entry) => entry.name === name);
      if (found === undefined) return ToolResult.error(`no ${name}`);
      return ToolResult.success(`${name} ${JSON.stringify(args)}`);
    },
  };
}

function mutate(world: World, mutation: Mutation): void {
  if (mutation.kind === 'none') return;
  if (mutation.kind === 'system') {
    world.system += 1;
    return;
  }
  if (mutation.kind === 'format') {
    world.format = !world.format;
    return;
  }
  if (mutation.kind === 'reshuffle') {
    // The same tool re-listed as raw JSON Schema with its keys in another order (an MCP server
    // restarted, a listing re-parsed): the same declaration for the model.
    const name = SET_NAMES[mutation.name] as string;
    const version = world.versions.get(name) ?? 0;
    const raw = JSON.parse('{"required":["id"],"properties":{"id":{"type":"string"}},"type":"object"}') as Record<
      string,
      unknown
    >;
    const made = defineTool({
      name,
      description: `Finds ${name} (v${version}).`,
      parameters: raw,
      policy: ToolPolicy.readOnly(),
      execute: ({ id }: { id: string }) => `${name} ${id}`,
    }) as AnyTool;
    world.setTools = world.setTools.map((entry) => (entry.name === name ? made : entry));
    return;
  }
  const name = SET_NAMES[mutation.name] as string;
  const present = world.setTools.some((entry) => entry.name === name);
  const version = (world.versions.get(name) ?? 0) + (mutation.kind === 'change' ? 1 : 0);
  world.versions.set(name, version);
  const made = tool(name, `Finds ${name} (v${version}).`);
  if (mutation.kind === 'add' && !present) world.setTools = [...world.setTools, made];
  if (mutation.kind === 'remove') world.setTools = world.setTools.filter((entry) => entry.name !== name);
  if (mutation.kind === 'change' && present)
    world.setTools = world.setTools.map((entry) => (entry.name === name ? made : entry));
}

/** The scripted answer for one step; the mutation lands before the next request is built. */
function answer(world: World, entry: { action: Action; mutation: Mutation }, index: number): ScriptedStep {
  return () => {
    mutate(world, entry.mutation);
    const id = `c${index}`;
    switch (entry.action.kind) {
      case 'direct':
        return { toolCalls: [scriptedToolCall('get_weather', { id }, id)] };
      case 'search':
        return {
          toolCalls: [
            scriptedToolCall('tool_search', { query: (DEFERRED[entry.action.target] as string).replace('_', ' ') }, id),
          ],
        };
      case 'set_call': {
        const name = world.setTools[0]?.name ?? 'get_weather';
        return { toolCalls: [scriptedToolCall(name, { id }, id)] };
      }
      case 'pause':
        return { toolCalls: [scriptedToolCall('pay', { id }, id)] };
      default:
        return { content: 'done' };
    }
  };
}

const toolJson = (request: LanguageModelV1Request) => (request.tools ?? []).map((entry) => JSON.stringify(entry));

describe('prompt prefix stability over random runs', () => {
  it('every prefix break has exactly one prompt_prefix_changed naming its tool changes, and nothing else does', async () => {
    // The runs must exercise both sides: requests that keep the prefix and ones that break it.
    const seen = { breaks: 0, kept: 0, resumed: 0 };
    await fc.assert(
      fc.asyncProperty(scenario, async ({ dialect, initialSet, steps }) => {
        const world: World = { setTools: [], versions: new Map(), system: 0, format: false };
        world.setTools = initialSet.map((name) => tool(name, `Finds ${name} (v0).`));
        const registry = [
          tool('get_weather', 'Weather for a place.'),
          tool('pay', 'Pays an invoice.', {
            policy: ToolPolicy.classified().withSideEffects({ payment: true }).requiringApproval(),
          }),
          ...DEFERRED.map((name) => tool(name, `The ${name.replace('_', ' ')} operation.`, { exposure: 'deferred' })),
        ];
        const middleware: AgentMiddleware[] = [
          {
            name: 'system-text',
            beforeModel: () => ({
              systemMessages: [`Rules, version ${world.system}.`],
              ...(world.format ? { responseFormat: { type: 'json' } as const } : {}),
            }),
          },
        ];
        const options = { tools: registry, toolSets: [mutableSet(world)], middleware };
        const policy = { toolDialect: dialect } as const;
        const pauseAt = steps.findIndex((entry) => entry.action.kind === 'pause');
        const firstSteps = pauseAt < 0 ? steps : steps.slice(0, pauseAt + 1);
        const first = new ScriptedModel({
          steps: [
            ...firstSteps.map((entry, index) => answer(world, entry, index)),
            ...(pauseAt < 0 ? [{ content: 'done' }] : []),
          ],
        });
        const runs: AgentRun[] = [
          await new AgentHarness({ model: first, ...options, policy }).invoke({}, [{ role: 'user', content: 'go' }]),
        ];
        const models = [first];
        if (pauseAt >= 0) {
          const paused = runs[0] as AgentRun;
          expect(paused.outcome).toBe('deferred');
          const state = parseRunState(serializeRunState(paused.state as NonNullable<AgentRun['state']>));
          const second = new ScriptedModel({
            steps: [
              ...steps.slice(pauseAt + 1).map((entry, index) => answer(world, entry, pauseAt + 1 + index)),
              { content: 'done' },
            ],
            repeatLast: true,
          });
          models.push(second);
          runs.push(
            await new AgentHarness({ model: second, ...options, policy }).resumeDeferred(
              {},
              state,
              new DeferredToolResults().approveAll(paused.deferred ?? { approvals: [] }),
            ),
          );
        }
        const requests = models.flatMap((model) => model.requests);
        const events: AgentEvent[] = runs.flatMap((run) => run.events);
        expect(prefixViolations(requests, events)).toEqual([]);
        const breaks = events.filter((event) => event.type === 'prompt_prefix_changed').length;
        seen.breaks += breaks;
        seen.kept += requests.length - 1 - breaks;
        seen.resumed += runs.length - 1;
        // Each event names the tools that really vanished or whose declaration changed.
        const started = events.flatMap((event) => (event.type === 'model_started' ? [event.modelCallId] : []));
        for (const event of events) {
          if (event.type !== 'prompt_prefix_changed') continue;
          const at = started.indexOf(event.modelCallId);
          const before = requests[at - 1] as LanguageModelV1Request;
          const after = requests[at] as LanguageModelV1Request;
          const afterByName = new Map((after.tools ?? []).map((entry) => [entry.name, JSON.stringify(entry)]));
          const beforeNames = new Set((before.tools ?? []).map((entry) => entry.name));
          for (const entry of after.tools ?? []) {
            if (beforeNames.has(entry.name)) continue;
            const named = event.changes.filter((change) => change.part === 'tool' && change.toolName === entry.name);
            expect(named.map((change) => change.change)).toEqual(['added']);
          }
          for (const [position, entry] of (before.tools ?? []).entries()) {
            const now = afterByName.get(entry.name);
            const named = event.changes.filter((change) => change.part === 'tool' && change.toolName === entry.name);
            if (now === undefined) expect(named.map((change) => change.change)).toContain('removed');
            else if (now !== toolJson(before)[position])
              expect(named.map((change) => change.change)).toContain('changed');
          }
          expect(event.lostPrefixTokens).toBeGreaterThan(0);
        }
      }),
      { numRuns: RUNS },
    );
    expect(seen.breaks).toBeGreaterThan(0);
    // Both sides, each in good number (appended tools are breaks too, so breaks are common).
    expect(seen.kept).toBeGreaterThan(RUNS / 2);
    expect(seen.breaks).toBeGreaterThan(RUNS / 2);
    expect(seen.resumed).toBeGreaterThan(0);
  }, 60_000);
});
