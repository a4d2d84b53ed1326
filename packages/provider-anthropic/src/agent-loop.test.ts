import { AgentHarness } from '@tiny/harness';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { anthropic } from './presets/anthropic.js';
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
  it('replays the thinking block with its signature unchanged before the tool_use, with cache breakpoints', async () => {
    const model = anthropic({ baseURL: replay.load('anthropic/thinking-agent-run.json'), apiKey: 'sk-ant-test-key' })(
      'claude-sonnet-4-5',
      { maxTokens: 8000, providerOptions: { thinking: { type: 'enabled', budgetTokens: 2048 }, cacheControl: true } },
    );
    const harness = new AgentHarness({ model, tools: [weather] });
    const stream = harness.stream({}, [
      { role: 'system', content: 'Answer briefly.' },
      { role: 'user', content: 'Weather in Oslo?' },
    ]);
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    const run = await stream.result;
    expect(run.outcome).toBe('final');
    expect(run.text).toBe('Oslo: light snow, -3 °C.');
    expect(run.executedTools).toEqual(['weather']);
    expect(types).toContain('tool_completed');
  });
});
