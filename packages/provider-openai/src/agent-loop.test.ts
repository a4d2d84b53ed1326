import { AgentHarness } from '@tiny/harness';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { llamacpp } from './presets/llamacpp.js';
import { useReplayServer } from './replay.test-helper.js';

const replay = useReplayServer();

const weather = defineTool({
  name: 'weather',
  description: 'Look up the weather forecast for a city.',
  parameters: Type.Object({ city: Type.String() }),
  policy: ToolPolicy.readOnly(),
  execute: ({ city }) => `${city}: light snow, -3 °C`,
});

describe('the agent loop on this adapter', () => {
  it('streams a prompt-guided run after a tools rejection: scrubbed deltas, a text call, folded results', async () => {
    const model = llamacpp({ baseURL: replay.load('agent/prompt-guided-run.json') })('qwen2.5-7b');
    const harness = new AgentHarness({ model, tools: [weather] });
    const stream = harness.stream({}, [{ role: 'user', content: 'Weather in Oslo?' }]);
    const deltas: string[] = [];
    const types: string[] = [];
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'model_delta') deltas.push(event.delta);
    }
    const run = await stream.result;
    expect(run.outcome).toBe('final');
    expect(run.text).toBe('Oslo: light snow, -3 °C. Pack boots.');
    expect(run.executedTools).toEqual(['weather']);
    expect(deltas.join('')).toBe('Checking the forecast.Oslo: light snow, -3 °C. Pack boots.');
    expect(deltas.join('')).not.toContain('<tool');
    expect(types).toContain('tool_completed');
    expect(model.profile.toolCalling).toBe(false);
  });
});
