import { AgentHarness } from '@tiny/harness';
import { useReplayServer } from '@tiny/provider-tests';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { anthropic } from './presets/anthropic.js';

const replay = useReplayServer(new URL('./__fixtures__/', import.meta.url));

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
    // Recorded usage: 599 input tokens, then 702 new plus 599 read from the cache.
    const cached = run.events.flatMap((event) => (event.type === 'model_completed' ? [event.cachedInputTokens] : []));
    expect(cached).toEqual([0, 599]);
    expect(run.usage).toMatchObject({ inputTokens: 599 + 702 + 599, cachedInputTokens: 599 });
    expect(run.cacheHitRatio).toBeCloseTo(599 / (599 + 702 + 599), 10);
  });
});

describe('calls from a turn cut off by max_tokens', () => {
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

  it.each([
    ['streamed, cut inside its arguments', 'anthropic/broken-turn-stream.json', true],
    ['whole message, partial input still valid', 'anthropic/broken-turn-whole.json', false],
  ])('refuses the call by default (%s): nothing runs, the model reads why', async (_name, fixture, streaming) => {
    written.length = 0;
    const model = anthropic({ baseURL: replay.load(fixture), apiKey: 'sk-ant-test-key' })('claude-sonnet-4-5', {
      maxTokens: 16,
    });
    const harness = new AgentHarness({ model, tools: [writeFile] });
    const messages = [{ role: 'user' as const, content: 'Write a long note to notes.txt' }];
    let run: Awaited<ReturnType<typeof harness.invoke>>;
    if (streaming) {
      const stream = harness.stream({}, messages);
      for await (const _event of stream);
      run = await stream.result;
    } else {
      run = await harness.invoke({}, messages);
    }
    expect(written).toEqual([]);
    expect(run.executedTools).toEqual([]);
    expect(run.toolCalls).toBe(1);
    const refused = run.events.filter((event) => event.type === 'tool_call_refused');
    expect(refused).toEqual([expect.objectContaining({ toolName: 'write_file', reason: 'length' })]);
    expect(run.text).toBe('I ran out of room; I will write the note in a shorter call.');
  });
});
