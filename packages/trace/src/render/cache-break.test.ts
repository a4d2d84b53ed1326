import { AgentHarness } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { buildTrace } from '../model/build-trace.js';
import { normalizeInput } from '../model/trace-input.js';
import { renderTraceHtml } from './render-trace-html.js';

const weather = defineTool({
  name: 'weather',
  description: 'Weather for a city.',
  parameters: Type.Object({ city: Type.String() }),
  policy: ToolPolicy.readOnly(),
  execute: ({ city }) => `${city}: sunny`,
});

describe('a prompt prefix break on the timeline', () => {
  it('marks the model call whose prefix changed, says what changed, and shows cached tokens', async () => {
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('weather', { city: 'Oslo' }, 'w1')], usage: { inputTokens: 80 } },
        {
          toolCalls: [scriptedToolCall('weather', { city: 'Bergen' }, 'w2')],
          usage: { inputTokens: 120, cachedInputTokens: 64 },
        },
        { content: 'sunny twice' },
      ],
    });
    let turn = 0;
    // A timestamp-like system line that changes on the third request only: one break.
    const run = await new AgentHarness({
      model,
      tools: [weather],
      middleware: [{ name: 'dated', beforeModel: () => ({ systemMessages: [`Day ${++turn < 3 ? 1 : 2}.`] }) }],
    }).invoke({}, [{ role: 'user', content: 'weather?' }]);
    const view = buildTrace(normalizeInput(run));
    const models = view.turns.flatMap((entry) => entry.models);
    expect(models.map((entry) => entry.prefixBreak?.changes)).toEqual([undefined, undefined, ['system changed']]);
    expect(models[1]?.cachedInputTokens).toBe(64);
    const html = renderTraceHtml(run);
    expect(html.match(/class="bar model cache-break"/g)).toHaveLength(1);
    expect(html).toContain('<span class="badge cache-break">cache break · ~');
    expect(html).toContain('120 (64 cached) →');
    expect(html).toContain('<b>prompt prefix changed</b> system changed: ~');
  });
});
