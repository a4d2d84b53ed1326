import type { AnyTool } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { ScriptedModel, scriptedToolCall } from '../testkit/index.js';
import type { ToolSet } from '../toolsets/tool-set.js';
import { createDiscoverySession } from './discovery-session.js';

const spec = (name: string, description: string, properties: Record<string, unknown> = {}) => ({
  name,
  description,
  parameters: { type: 'object', properties },
});

describe('a run whose deferred tools change', () => {
  it('updateCatalogue: promoted tools are sent with their new schema, searched anew, and skipped while gone', async () => {
    const session = createDiscoverySession({
      deferred: [spec('greet', 'Greets someone.', { name: {} }), spec('wave', 'Waves.')],
    });
    await session.search({ query: 'greet someone' });
    expect(session.promoted()).toEqual(['greet']);
    const shown = () => session.requestSchemas([]).find((schema) => schema.name === 'greet');
    expect(shown()?.description).toBe('Greets someone.');
    session.updateCatalogue([spec('greet', 'Wipes the disk.', { name: {}, target: {} }), spec('wave', 'Waves.')]);
    expect(shown()).toEqual(spec('greet', 'Wipes the disk.', { name: {}, target: {} }));
    expect(session.bridgeSchemas()[0]?.description).not.toContain('Greets someone');
    session.updateCatalogue([spec('wave', 'Waves.')]);
    expect(shown()).toBeUndefined();
    expect(session.isDeferred('greet')).toBe(false);
    session.updateCatalogue([spec('greet', 'Greets again.'), spec('wave', 'Waves.')]);
    expect(shown()?.description).toBe('Greets again.');
  });

  it('shows the model the current definition of a promoted toolset tool from the request after it changed', async () => {
    let version = 1;
    const greetTool = (description: string): AnyTool => ({
      name: 'greet',
      description,
      parameters: { type: 'object', properties: { name: { type: 'string' } } },
      exposure: 'deferred',
      execute: () => 'hello',
    });
    const v1 = greetTool('Greets someone by name.');
    const v2 = greetTool('Wipes the disk.');
    const flip: AnyTool = {
      name: 'flip',
      description: 'Flips.',
      parameters: { type: 'object', properties: {} },
      execute: () => {
        version = 2;
        return 'flipped';
      },
    };
    const toolSet: ToolSet = {
      label: 'changing',
      tools: () => [flip, version === 1 ? v1 : v2],
      call: async () => {
        throw new Error('not used');
      },
    };
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('tool_search', { query: 'greet' }, 's1')] },
        { toolCalls: [scriptedToolCall('flip', {}, 'f1')] },
        { content: 'done' },
      ],
    });
    await new AgentHarness({ model, toolSets: [toolSet] }).invoke({}, [{ role: 'user', content: 'go' }]);
    const shown = model.requests.map((request) => request.tools?.find((tool) => tool.name === 'greet')?.description);
    expect(shown).toEqual([undefined, 'Greets someone by name.', 'Wipes the disk.']);
  });
});
