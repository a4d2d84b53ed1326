/**
 * Renders the request bodies this adapter sends in prompt-guided mode through real chat templates
 * (the repo's fixtures in packages/llm, see SOURCES.md there) with `@huggingface/jinja`, as a
 * serving runtime (llama.cpp, Ollama, LM Studio, vLLM) would: the wire messages as they are, no
 * `tools`, `add_generation_prompt: true`.
 */
import { readFileSync } from 'node:fs';
import { Template } from '@huggingface/jinja';
import { CONTINUATION_PROMPT, type Message, type ToolSchema } from '@tiny/llm';
import { describe, expect, it } from 'vitest';
import { createOpenAICompatible } from '../create-openai-compatible.js';

const folder = new URL('../../../llm/src/prompt/__fixtures__/chat-templates/', import.meta.url);
const templates = [
  'Qwen-Qwen3-0.6B.jinja',
  'meta-llama-Llama-3.2-3B-Instruct.jinja',
  'meta-llama-Llama-3.3-70B-Instruct.jinja',
  'mistralai-Mistral-Nemo-Instruct-2407.jinja',
  'Mistral-Small-3.2-24B-Instruct-2506.jinja',
  'openai-gpt-oss-120b.jinja',
];

const weather: ToolSchema = {
  name: 'get_weather',
  description: 'Get the current weather for a city.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } },
    required: ['city'],
  },
};
const system: Message = { role: 'system', content: 'You are a helpful assistant.' };
const user: Message = { role: 'user', content: 'Compare the weather in Paris, Oslo and Rome.' };
const rounds: Message[] = [
  {
    role: 'assistant',
    content: 'Let me check Paris first.',
    reasoningContent: 'Paris first, then the others.',
    toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city": "Paris"}' }],
  },
  { role: 'tool', toolCallId: 'call_1', toolName: 'get_weather', content: '{"temperature_c": 21}' },
  {
    role: 'assistant',
    content: '',
    toolCalls: [
      { id: 'call_2', name: 'get_weather', arguments: '{"city": "Oslo"}' },
      { id: 'call_3', name: 'get_weather', arguments: '{city: "Rome", unit: "c",}' },
    ],
  },
  { role: 'tool', toolCallId: 'call_2', toolName: 'get_weather', content: 'Oslo: 4 C, rain' },
  { role: 'tool', toolCallId: 'call_3', toolName: 'get_weather', content: 'Rome: 25 C </tool_result>' },
];
const shapes: Record<string, Message[]> = {
  first_turn: [system, user],
  tool_rounds: [system, user, ...rounds],
  user_turn_dropped: [system, ...rounds],
};

/** The body the adapter sends for a history, captured without a server. */
async function sentBody(messages: readonly Message[], preset: 'generic' | 'local'): Promise<Record<string, unknown>> {
  let body: Record<string, unknown> = {};
  const fetch = async (_url: string | URL | Request, init?: RequestInit) => {
    body = JSON.parse(String(init?.body)) as Record<string, unknown>;
    return Response.json({
      choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
    });
  };
  const provider = createOpenAICompatible({
    baseURL: 'http://127.0.0.1:1/v1',
    fetch,
    profile: { toolCalling: false },
    ...(preset === 'local' ? { replayArguments: 'valid_json' as const } : {}),
  });
  await provider('local-model').doGenerate({ messages, tools: [weather] });
  return body;
}

function render(file: string, messages: unknown): string {
  const template = new Template(readFileSync(new URL(file, folder), 'utf8'));
  return template.render({ messages, bos_token: '<s>', eos_token: '</s>', add_generation_prompt: true });
}

describe('prompt-guided request bodies render through real chat templates', () => {
  for (const preset of ['generic', 'local'] as const) {
    describe.each(templates)(`%s (${preset} settings)`, (file) => {
      it.each(Object.keys(shapes))('renders the %s shape', async (shape) => {
        const body = await sentBody(shapes[shape] ?? [], preset);
        expect(body.tools).toBeUndefined();
        const messages = body.messages as { role: string; content: unknown; tool_calls?: unknown }[];
        for (const message of messages) {
          expect(['system', 'user', 'assistant']).toContain(message.role);
          expect(message.tool_calls).toBeUndefined();
          expect(typeof message.content).toBe('string');
        }
        const text = render(file, messages);
        expect(text).toContain('## Tool Use Protocol');
        expect(text).toContain('get_weather');
        if (shape === 'first_turn') return;
        expect(text).toContain('[Tool results]');
        expect(text).toContain('Oslo: 4 C, rain');
        expect(text).toContain('<tool_call>{"name":"get_weather","arguments":{"city":"Oslo"}}</tool_call>');
        expect(text).toContain('Rome: 25 C &lt;/tool_result>');
        expect(text.includes(CONTINUATION_PROMPT)).toBe(shape === 'user_turn_dropped');
      });
    });
  }
});
