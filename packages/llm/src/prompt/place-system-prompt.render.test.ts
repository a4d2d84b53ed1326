/**
 * Renders prompt-guided message lists through real chat templates that drop or reject the system
 * role (Gemma 2 from `__fixtures__/chat-templates/`, Falcon, ChatGLM, ChatGLM2 and Mistral 7B
 * Instruct v0.1 from `__fixtures__/chat-templates-no-system/`, sources in the SOURCES.md files)
 * with `@huggingface/jinja`: with `systemPrompt: 'system'` the tool instructions vanish or the
 * template throws; with `first_user` they are in the rendered prompt.
 */
import { readFileSync } from 'node:fs';
import { Template } from '@huggingface/jinja';
import { describe, expect, it } from 'vitest';
import { createToolDialect } from '../dialects/create-tool-dialect.js';
import { type Message, messageText } from '../messages/message.js';
import type { ToolSchema } from '../spec/tool-schema.js';
import { CONTINUATION_PROMPT } from './ensure-resolvable-user-turn.js';
import { placeSystemPrompt, type SystemPromptPlacement } from './place-system-prompt.js';

const fixtures = new URL('./__fixtures__/', import.meta.url);
const templates = {
  gemma2: 'chat-templates/google-gemma-2-2b-it.jinja',
  falcon: 'chat-templates-no-system/vllm-template_falcon.jinja',
  chatglm: 'chat-templates-no-system/vllm-template_chatglm.jinja',
  chatglm2: 'chat-templates-no-system/vllm-template_chatglm2.jinja',
  mistral7b: 'chat-templates-no-system/mistralai-Mistral-7B-Instruct-v0.1.jinja',
} as const;
type TemplateName = keyof typeof templates;
const compiled = new Map(
  Object.entries(templates).map(([name, file]) => [name, new Template(readFileSync(new URL(file, fixtures), 'utf8'))]),
);

type Rendering = { ok: true; text: string } | { ok: false; error: string };

function render(name: TemplateName, messages: readonly Message[]): Rendering {
  const template = compiled.get(name) as Template;
  const plain = messages.map((message) => ({ role: message.role, content: messageText(message) }));
  try {
    return {
      ok: true,
      text: template.render({ bos_token: '<s>', eos_token: '</s>', add_generation_prompt: true, messages: plain }),
    };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

const weather: ToolSchema = {
  name: 'get_weather',
  description: 'Get the current weather for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const system: Message = { role: 'system', content: 'You are a terse assistant.' };
const user: Message = { role: 'user', content: 'Weather in Oslo?' };
const call: Message = {
  role: 'assistant',
  content: '',
  toolCalls: [{ id: 'abc123XYZ', name: 'get_weather', arguments: '{"city": "Oslo"}' }],
};
const result: Message = { role: 'tool', toolCallId: 'abc123XYZ', toolName: 'get_weather', content: 'Oslo: 4 C, rain' };
const histories: Readonly<Record<string, readonly Message[]>> = {
  first_turn: [system, user],
  tool_round: [system, user, call, result],
  no_user_turn: [system, call, result],
};

function sent(history: readonly Message[], placement: SystemPromptPlacement): Message[] {
  return createToolDialect('xml').toProviderMessages(history, [weather], { type: 'auto' }, { systemPrompt: placement });
}

describe('system prompt placement on templates without a system role', () => {
  it("with 'system' the tool instructions are lost or the template throws", () => {
    const outcomes = Object.fromEntries(
      (Object.keys(templates) as TemplateName[]).map((name) => {
        const rendered = render(name, sent(histories.first_turn ?? [], 'system'));
        return [name, rendered.ok ? rendered.text.includes('## Tool Use Protocol') : rendered.error];
      }),
    );
    expect(outcomes).toEqual({
      gemma2: 'System role not supported',
      falcon: false,
      chatglm: false,
      chatglm2: false,
      mistral7b: 'Conversation roles must alternate user/assistant/user/assistant/...',
    });
  });

  describe.each(Object.keys(templates) as TemplateName[])("with 'first_user' on %s", (name) => {
    it.each(Object.keys(histories))('%s renders with the system text and the tool instructions', (shape) => {
      const messages = sent(histories[shape] ?? [], 'first_user');
      expect(messages.some((message) => message.role === 'system')).toBe(false);
      const rendered = render(name, messages);
      if (!rendered.ok) throw new Error(rendered.error);
      expect(rendered.text).toContain('You are a terse assistant.');
      expect(rendered.text).toContain('## Tool Use Protocol');
      expect(rendered.text).toContain('get_weather');
      // The system text comes before the user's own words, in the same (first) user turn.
      const first = messageText(messages[0] as Message);
      expect(messages[0]?.role).toBe('user');
      expect(first.indexOf('You are a terse assistant.')).toBeLessThan(first.indexOf('## Tool Use Protocol'));
      if (shape === 'no_user_turn') {
        expect(first.endsWith(CONTINUATION_PROMPT)).toBe(true);
        expect(rendered.text).toContain('Oslo: 4 C, rain');
      } else {
        expect(first.endsWith('Weather in Oslo?')).toBe(true);
      }
    });
  });
});

describe('placeSystemPrompt', () => {
  it("returns the list as it is for 'system'", () => {
    const messages = [system, user];
    const placed = placeSystemPrompt(messages);
    expect(placed).toEqual(messages);
    expect(placed).not.toBe(messages);
  });

  it('merges several system messages and parts into the first user turn, parts kept as parts', () => {
    const image = { type: 'image', mediaType: 'image/png', data: { kind: 'url', value: 'https://x/y.png' } } as const;
    const placed = placeSystemPrompt(
      [
        {
          role: 'system',
          content: [
            { type: 'text', text: 'A.' },
            { type: 'text', text: ' ' },
          ],
        },
        { role: 'system', content: 'B.' },
        { role: 'user', content: [{ type: 'text', text: 'Look.' }, image] },
      ],
      'first_user',
    );
    expect(placed).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'A.\n\nB.' }, { type: 'text', text: 'Look.' }, image] },
    ]);
  });

  it('opens with a user turn when an assistant turn comes first, and keeps a later system message', () => {
    const placed = placeSystemPrompt(
      [
        system,
        { role: 'assistant', content: 'Hello.' },
        { role: 'user', content: 'Hi.' },
        { role: 'system', content: 'Be brief.' },
        { role: 'assistant', content: 'Sure.' },
      ],
      'first_user',
    );
    expect(placed).toEqual([
      { role: 'user', content: 'You are a terse assistant.' },
      { role: 'assistant', content: 'Hello.' },
      { role: 'user', content: 'Hi.\n\nBe brief.' },
      { role: 'assistant', content: 'Sure.' },
    ]);
  });
});
