import type { Message } from '@tiny/llm';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { DeferredToolResults } from '../deferral/deferred-tool-results.js';
import { parseRunState, serializeRunState } from '../deferral/run-state.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { AgentMiddleware as Middleware } from '../middleware/agent-middleware.js';
import { ToolRegistry } from '../registry/tool-registry.js';
import { eventsOfType, ScriptedModel, type ScriptedModelOptions, scriptedToolCall } from '../testkit/index.js';
import { diffPrefix } from './diff-prefix.js';
import { fingerprintPrefix } from './prefix-fingerprint.js';

// What the model itself puts on the wire: where it sends system messages (profile.systemMessages)
// and what it sends from its own settings (wireSettings()).
const changesOf = (events: readonly AgentEvent[]) =>
  eventsOfType(events, 'prompt_prefix_changed').map((event) => event.changes);

/** A scripted model that sends settings of its own, read from `settings` at every request. */
class SettingsModel extends ScriptedModel {
  constructor(
    options: ScriptedModelOptions,
    readonly settings: { serverTools: Record<string, unknown>[] },
  ) {
    super(options);
  }

  wireSettings(): unknown {
    return { model: this.modelId, providerOptions: this.settings };
  }
}

/** A middleware that adds one system message once, after the first answer without calls. */
function reviewer(): Middleware {
  let sent = false;
  return {
    name: 'review',
    afterModel: ({ calls }) => {
      if (calls.length > 0 || sent) return undefined;
      sent = true;
      return { type: 'jump_to', target: 'model', messages: [{ role: 'system', content: 'Reviewer: one sentence.' }] };
    },
  };
}

const opening: Message[] = [
  { role: 'system', content: 'Stable.' },
  { role: 'user', content: 'go' },
];

describe('system messages of a model that hoists them into one field', () => {
  it('a system message added mid-run is a system change of the prefix, not an append', async () => {
    const model = new ScriptedModel({
      profile: { systemMessages: 'hoisted' },
      steps: [{ content: 'draft' }, { content: 'final' }],
    });
    const run = await new AgentHarness({ model, middleware: [reviewer()] }).invoke({}, opening);
    expect(run.outcome).toBe('final');
    const events = eventsOfType(run.events, 'prompt_prefix_changed');
    expect(events.map((event) => event.changes)).toEqual([[{ part: 'system', change: 'changed' }]]);
    // Everything after the tools is lost: the old system text and the whole history.
    expect(events[0]?.lostPrefixTokens).toBeGreaterThan(0);
  });

  it('the same run on a model that sends them in place is an append', async () => {
    const model = new ScriptedModel({ steps: [{ content: 'draft' }, { content: 'final' }] });
    const run = await new AgentHarness({ model, middleware: [reviewer()] }).invoke({}, opening);
    expect(changesOf(run.events)).toEqual([]);
  });

  it('compares hoisted system messages by text and order, not by position', () => {
    const hoisted = { systemMessages: 'hoisted' as const };
    const a: Message = { role: 'system', content: 'A' };
    const b: Message = { role: 'system', content: 'B' };
    const user: Message = { role: 'user', content: 'hi' };
    const first = fingerprintPrefix([], [a, user], hoisted);
    // the same wire (one system field holding A): no change
    expect(fingerprintPrefix([], [user, a], hoisted).system.hash).toBe(first.system.hash);
    expect(diffPrefix(first, fingerprintPrefix([], [user, a], hoisted))).toBeUndefined();
    // B added after everything: the system field changed
    expect(diffPrefix(first, fingerprintPrefix([], [a, user, b], hoisted))?.changes).toEqual([
      { part: 'system', change: 'changed' },
    ]);
    // in place, the same addition is an append; positions count
    expect(diffPrefix(fingerprintPrefix([], [a, user]), fingerprintPrefix([], [a, user, b]))).toBeUndefined();
    expect(fingerprintPrefix([], [user, a]).system.hash).not.toBe(fingerprintPrefix([], [a, user]).system.hash);
    // order still counts when hoisted
    expect(fingerprintPrefix([], [b, a, user], hoisted).system.hash).not.toBe(
      fingerprintPrefix([], [a, b, user], hoisted).system.hash,
    );
  });
});

describe("the model's own wire settings", () => {
  const steps = () => [{ toolCalls: [scriptedToolCall('lookup', { id: 'a' }, 'c1')] }, { content: 'done' }];

  it('a model-level setting edited between requests is a settings change', async () => {
    const settings = { serverTools: [{ type: 'web_search_20250305', name: 'web_search' }] };
    const model = new SettingsModel({ steps: steps() }, settings);
    // Edited in place while the tool runs, as a host reconfiguring its model object would.
    const edit: Middleware = {
      name: 'edit',
      afterModel: () => {
        settings.serverTools.push({ type: 'code_execution_20250522', name: 'code_execution' });
        return undefined;
      },
    };
    const run = await new AgentHarness({ model, middleware: [edit] }).invoke({}, opening);
    expect(changesOf(run.events)).toEqual([[{ part: 'settings', change: 'changed' }]]);
  });

  it('unchanged settings are no change, whatever object holds them', async () => {
    const model = new SettingsModel({ steps: steps() }, { serverTools: [{ name: 'web_search' }] });
    const replace: Middleware = {
      name: 'replace',
      afterModel: () => {
        model.settings.serverTools = [{ name: 'web_search' }];
        return undefined;
      },
    };
    const run = await new AgentHarness({ model, middleware: [replace] }).invoke({}, opening);
    expect(changesOf(run.events)).toEqual([]);
  });

  it('a run resumed on a model with other settings reports a settings change, with the same ones none', async () => {
    const registry = () =>
      new ToolRegistry().registerExternal({ name: 'lookup', description: 'Look up.', parameters: { type: 'object' } });
    const paused = await new AgentHarness({
      model: new SettingsModel({ steps: [{ toolCalls: [scriptedToolCall('lookup', {}, 'c1')] }] }, { serverTools: [] }),
      tools: registry(),
    }).invoke({}, opening);
    expect(paused.outcome).toBe('deferred');
    const state = parseRunState(serializeRunState(paused.state as NonNullable<typeof paused.state>));
    const resume = async (serverTools: Record<string, unknown>[]) => {
      const model = new SettingsModel({ steps: [{ content: 'done' }] }, { serverTools });
      const run = await new AgentHarness({ model, tools: registry() }).resumeDeferred(
        {},
        state,
        new DeferredToolResults().respond('c1', 'found'),
      );
      expect(run.outcome).toBe('final');
      return changesOf(run.events);
    };
    expect(await resume([])).toEqual([]);
    expect(await resume([{ name: 'web_search' }])).toEqual([[{ part: 'settings', change: 'changed' }]]);
  });
});

describe("the profile's schema transform and values JSON writes otherwise", () => {
  const lookup = {
    name: 'lookup',
    description: 'Look up.',
    parameters: { type: 'object', properties: { q: { type: 'string' } }, additionalProperties: false },
  };

  it('fingerprints tools as the transform sends them: a transform that changes a declaration is a tool change', () => {
    const transform = { type: 'no_additional_properties' } as const;
    const plain = fingerprintPrefix([lookup], opening);
    const transformed = fingerprintPrefix([lookup], opening, { schemaTransform: transform });
    expect(diffPrefix(plain, transformed)?.changes).toEqual([{ part: 'tool', change: 'changed', toolName: 'lookup' }]);
    // a transform that leaves a declaration as it was changes nothing on the wire: no change
    const open = { ...lookup, parameters: { type: 'object', properties: { q: { type: 'string' } } } };
    expect(
      diffPrefix(
        fingerprintPrefix([open], opening),
        fingerprintPrefix([open], opening, { schemaTransform: transform }),
      ),
    ).toBeUndefined();
    // the same transform again (another object) is no change
    expect(
      diffPrefix(transformed, fingerprintPrefix([lookup], opening, { schemaTransform: { ...transform } })),
    ).toBeUndefined();
  });

  it('a run resumed on a model whose profile transforms schemas reports the tool change (p3-resume)', async () => {
    const registry = () => new ToolRegistry().registerExternal(lookup);
    const paused = await new AgentHarness({
      model: new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall('lookup', { q: 'x' }, 'c1')] }] }),
      tools: registry(),
    }).invoke({}, opening);
    const state = parseRunState(serializeRunState(paused.state as NonNullable<typeof paused.state>));
    const model = new ScriptedModel({
      profile: { schemaTransform: { type: 'no_additional_properties' } },
      steps: [{ content: 'done' }],
    });
    const run = await new AgentHarness({ model, tools: registry() }).resumeDeferred(
      {},
      state,
      new DeferredToolResults().respond('c1', 'found'),
    );
    expect(run.outcome).toBe('final');
    expect(changesOf(run.events)).toEqual([[{ part: 'tool', change: 'changed', toolName: 'lookup' }]]);
  });

  it('reads a Date or URL in provider options as the JSON on the wire holds it (p3-date)', () => {
    const at = (value: unknown) => fingerprintPrefix([], opening, { providerOptions: { x: { since: value } } });
    const a = at(new Date('2025-01-01T00:00:00Z'));
    expect(a.settings?.hash).not.toBe(at(new Date('2025-06-01T00:00:00Z')).settings?.hash);
    expect(a.settings?.hash).toBe(at('2025-01-01T00:00:00.000Z').settings?.hash);
    expect(at(new URL('https://a.example/')).settings?.hash).not.toBe(at(new URL('https://b.example/')).settings?.hash);
  });
});
