import { type Message, messageText } from '@tiny/llm';
import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../testkit/index.js';
import { AgentHarness } from './agent-harness.js';
import { createTestTools } from './test-tools.js';

const conversation: Message[] = [
  { role: 'system', content: 'You are a terse assistant.' },
  { role: 'user', content: 'Weather in Oslo?' },
];

describe("a model profile with systemPrompt: 'first_user'", () => {
  it('gets no system message: the system text, tool instructions and middleware prompts open the first user turn', async () => {
    const { all } = createTestTools();
    const model = new ScriptedModel({
      steps: [{ content: 'Sunny.' }],
      profile: { toolCalling: false, systemPrompt: 'first_user' },
    });
    const run = await new AgentHarness({
      model,
      tools: all,
      middleware: [{ name: 'prompt', beforeModel: () => ({ systemMessages: ['Answer in English.'] }) }],
    }).invoke({}, conversation);
    expect(run.outcome).toBe('final');
    const sent = model.requests[0]?.messages ?? [];
    expect(sent.map((message) => message.role)).toEqual(['user']);
    const text = messageText(sent[0] as Message);
    expect(text.indexOf('Answer in English.')).toBe(0);
    expect(text).toContain('You are a terse assistant.');
    expect(text).toContain('weather');
    expect(text.endsWith('Weather in Oslo?')).toBe(true);
  });

  it('keeps system messages by default', async () => {
    const { all } = createTestTools();
    const model = new ScriptedModel({ steps: [{ content: 'Sunny.' }], profile: { toolCalling: false } });
    await new AgentHarness({ model, tools: all }).invoke({}, conversation);
    expect(model.requests[0]?.messages[0]?.role).toBe('system');
  });
});
