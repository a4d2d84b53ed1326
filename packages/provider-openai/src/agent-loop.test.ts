import { AgentHarness } from '@tiny/harness';
import { useReplayServer } from '@tiny/provider-tests';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { llamacpp } from './presets/llamacpp.js';
import { openai } from './presets/openai.js';

const replay = useReplayServer(new URL('./__fixtures__/', import.meta.url));

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

describe('a tool call cut inside its arguments by max tokens', () => {
  const written: string[] = [];
  const writeFile = defineTool({
    name: 'write_file',
    description: 'Write a file.',
    parameters: Type.Object({ path: Type.String(), content: Type.Optional(Type.String()) }),
    policy: ToolPolicy.classified().withSideEffects({ writesFiles: true }),
    execute: ({ path, content }) => {
      written.push(`${path}:${content ?? ''}`);
      return 'written';
    },
  });

  it('is refused by default (finish_reason length): nothing runs, the model reads why, the slot is spent', async () => {
    const model = openai({ baseURL: replay.load('agent/cut-off-call.json'), apiKey: 'sk-test' })('gpt-4o');
    const harness = new AgentHarness({ model, tools: [writeFile] });
    const stream = harness.stream({}, [{ role: 'user', content: 'Write a long note to notes.txt' }], {
      modelSettings: { maxTokens: 16 },
    });
    for await (const _event of stream);
    const run = await stream.result;
    expect(written).toEqual([]);
    expect(run.executedTools).toEqual([]);
    expect(run.toolCalls).toBe(1);
    expect(run.events.filter((event) => event.type === 'tool_call_refused')).toEqual([
      expect.objectContaining({ toolName: 'write_file', reason: 'length', callId: 'call_cut0001' }),
    ]);
    expect(run.text).toBe('I ran out of room; I will write the note in a shorter call.');
  });
});
