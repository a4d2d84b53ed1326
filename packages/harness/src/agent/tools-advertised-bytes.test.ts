import { defineTool } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../testkit/index.js';
import { AgentHarness } from './agent-harness.js';

const tool = (name: string, description: string) =>
  defineTool({ name, description, parameters: Type.Object({ q: Type.String() }), execute: () => 'ok' });

describe('tools_advertised.schemaBytes', () => {
  it('is the UTF-8 size of the declarations sent, as JSON, for no tool, one, and several (reused across harnesses)', async () => {
    const tools = [tool('alpha', 'Déjà vu — “quoted”'), tool('beta', 'plain'), tool('gamma', '日本語の説明')];
    for (const offered of [[], tools.slice(0, 1), tools, tools.slice(1)]) {
      for (let round = 0; round < 2; round += 1) {
        const model = new ScriptedModel({ steps: [{ content: 'done' }] });
        const run = await new AgentHarness({ model, tools: offered }).invoke([{ role: 'user', content: 'hi' }]);
        const advertised = run.events.find((event) => event.type === 'tools_advertised');
        const sent = model.requests[0]?.tools ?? [];
        expect(advertised?.type === 'tools_advertised' && advertised.schemaBytes).toBe(
          Buffer.byteLength(JSON.stringify(sent)),
        );
      }
    }
  });
});
