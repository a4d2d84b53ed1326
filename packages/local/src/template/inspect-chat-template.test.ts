/**
 * `inspectChatTemplate` over every real template in `__fixtures__/` (the 17 of
 * `/work/shared/fixtures/chat-templates/`, sources in `__fixtures__/SOURCES.md`) and the four
 * no-system-role templates in `__fixtures__/no-system/` (sources in its SOURCES.md), rendered with
 * `@huggingface/jinja`. The reference for "does `system` lose the instructions" is computed here
 * independently of the inspector: the real `tagged_json` dialect of `@tiny/llm` writes three
 * histories (first turn, a tool round, no user turn) with each placement, and the template renders
 * them the way a server renders a prompt-guided request (role and text only; a template that loops
 * over an undefined `tools` gets `tools: []`, as the `@tiny/llm` template tests do for Hermes 3).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Template } from '@huggingface/jinja';
import { createToolDialect, type Message, messageText, type SystemPromptPlacement, type ToolSchema } from '@tiny/llm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ChatTemplateError } from '../errors/chat-template-error.js';
import { type ChatTemplateReport, inspectChatTemplate, inspectTrustedChatTemplate } from './inspect-chat-template.js';

const folder = new URL('./__fixtures__/', import.meta.url);
const files = [
  ...readdirSync(folder).filter((file) => file.endsWith('.jinja')),
  ...readdirSync(new URL('no-system/', folder))
    .filter((file) => file.endsWith('.jinja'))
    .map((file) => `no-system/${file}`),
].sort();
const sources = new Map(files.map((file) => [file, readFileSync(new URL(file, folder), 'utf8')]));
const source = (file: string): string => sources.get(file) ?? '';

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

/** Renders what the dialect sends for `history` with `placement`; the text, or the error. */
function renderSent(file: string, history: readonly Message[], placement: SystemPromptPlacement): string | Error {
  const sent = createToolDialect('tagged_json').toProviderMessages(
    history,
    [weather],
    { type: 'auto' },
    { systemPrompt: placement },
  );
  const messages = sent.map((message) => ({ role: message.role, content: messageText(message) }));
  const template = new Template(source(file));
  const context = { bos_token: '<s>', eos_token: '</s>', add_generation_prompt: true, messages };
  try {
    return template.render(context);
  } catch (error) {
    try {
      return template.render({ ...context, tools: [] });
    } catch {
      return error as Error;
    }
  }
}

/** The placement keeps the system text and the tool instructions in every history. */
function keepsInstructions(file: string, placement: SystemPromptPlacement): boolean {
  return Object.values(histories).every((history) => {
    const text = renderSent(file, history, placement);
    return (
      typeof text === 'string' && text.includes('## Tool Use Protocol') && text.includes('You are a terse assistant.')
    );
  });
}

describe('inspectChatTemplate on the real templates', () => {
  // The bounded path (a child process per template), one template at a time.
  const reports = new Map<string, ChatTemplateReport>();
  beforeAll(async () => {
    for (const file of files) reports.set(file, await inspectChatTemplate(source(file)));
  });
  const report = (file: string) => reports.get(file) ?? expect.unreachable(file);

  it('inspects all 21 templates without throwing', () => {
    expect(files).toHaveLength(21);
    expect(reports.size).toBe(21);
  });

  it.each(files)('the in-process variant for trusted templates reports the same: %s', (file) => {
    expect(inspectTrustedChatTemplate(source(file))).toEqual(report(file));
  });

  it.each(files)("chooses first_user exactly where 'system' loses the instructions: %s", (file) => {
    const systemLoses = !keepsInstructions(file, 'system');
    expect(report(file).systemPrompt).toBe(systemLoses ? 'first_user' : 'system');
    expect(report(file).profile.systemPrompt).toBe(report(file).systemPrompt);
  });

  it.each(files)('with its choice every history keeps the tool instructions: %s', (file) => {
    expect(keepsInstructions(file, report(file).systemPrompt)).toBe(true);
  });

  it('picks first_user for the five templates without a system role, and only for them', () => {
    const firstUser = files.filter((file) => report(file).systemPrompt === 'first_user');
    expect(firstUser).toEqual([
      'google-gemma-2-2b-it.jinja',
      'no-system/mistralai-Mistral-7B-Instruct-v0.1.jinja',
      'no-system/vllm-template_chatglm.jinja',
      'no-system/vllm-template_chatglm2.jinja',
      'no-system/vllm-template_falcon.jinja',
    ]);
    expect(report('google-gemma-2-2b-it.jinja').systemRole).toBe('rejected');
    expect(report('no-system/vllm-template_falcon.jinja').systemRole).toBe('dropped');
    expect(report('google-gemma-2-2b-it.jinja').notes.join(' ')).toContain('System role not supported');
  });

  it('reads the call grammar each template teaches', () => {
    const grammars = Object.fromEntries(files.map((file) => [file, report(file).toolCallFormats?.join(',') ?? null]));
    expect(grammars).toEqual({
      'CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja': 'command_action',
      'GLM-4.6.jinja': 'glm',
      'Mistral-Small-3.2-24B-Instruct-2506.jinja': 'mistral',
      'NousResearch-Hermes-3-Llama-3.1-8B-tool_use.jinja': 'tagged_json',
      'Qwen-QwQ-32B.jinja': 'tagged_json',
      'Qwen-Qwen3-0.6B.jinja': 'tagged_json',
      'Qwen3.5-4B.jinja': 'invoke_xml',
      'deepseek-ai-DeepSeek-V3.1.jinja': 'sentinel',
      'google-gemma-2-2b-it.jinja': null,
      'ibm-granite-granite-3.3-2B-Instruct.jinja': 'tagged_json',
      'meetkai-functionary-medium-v3.2.jinja': 'tagged_json',
      'meta-llama-Llama-3.2-3B-Instruct.jinja': 'bare_json',
      'meta-llama-Llama-3.3-70B-Instruct.jinja': 'bare_json',
      'microsoft-Phi-3.5-mini-instruct.jinja': null,
      'mistralai-Mistral-Nemo-Instruct-2407.jinja': 'mistral',
      'moonshotai-Kimi-K2.jinja': null,
      'no-system/mistralai-Mistral-7B-Instruct-v0.1.jinja': null,
      'no-system/vllm-template_chatglm.jinja': null,
      'no-system/vllm-template_chatglm2.jinja': null,
      'no-system/vllm-template_falcon.jinja': null,
      'openai-gpt-oss-120b.jinja': 'harmony',
    });
  });

  it('calls a template native only when it declares tools and replays calls and results', () => {
    const native = files.filter((file) => report(file).nativeTools);
    expect(native).toEqual([
      'CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja',
      'GLM-4.6.jinja',
      'Mistral-Small-3.2-24B-Instruct-2506.jinja',
      'NousResearch-Hermes-3-Llama-3.1-8B-tool_use.jinja',
      'Qwen-QwQ-32B.jinja',
      'Qwen-Qwen3-0.6B.jinja',
      'Qwen3.5-4B.jinja',
      'meta-llama-Llama-3.2-3B-Instruct.jinja',
      'meta-llama-Llama-3.3-70B-Instruct.jinja',
      'mistralai-Mistral-Nemo-Instruct-2407.jinja',
      'openai-gpt-oss-120b.jinja',
    ]);
    for (const file of files) expect(report(file).profile.toolCalling).toBe(report(file).nativeTools);
    // RENDER-MATRIX: Phi-3.5 drops tools entirely; Granite 3.3 and this Kimi K2 drop the assistant's calls;
    // DeepSeek V3.1 renders calls (string arguments only) but never reads `tools`.
    expect(report('microsoft-Phi-3.5-mini-instruct.jinja')).toMatchObject({ toolDeclarations: false, toolRole: false });
    expect(report('ibm-granite-granite-3.3-2B-Instruct.jinja')).toMatchObject({
      toolDeclarations: true,
      assistantToolCalls: false,
    });
    expect(report('moonshotai-Kimi-K2.jinja')).toMatchObject({ toolDeclarations: true, assistantToolCalls: false });
    expect(report('deepseek-ai-DeepSeek-V3.1.jinja')).toMatchObject({
      toolDeclarations: false,
      assistantToolCalls: true,
      toolCallArguments: 'string',
    });
  });

  it('reads reasoning and the generation prompt', () => {
    expect(report('Qwen3.5-4B.jinja').reasoning).toMatchObject({
      supported: true,
      field: 'reasoning_content',
      generationOpensThink: true,
    });
    expect(report('Qwen3.5-4B.jinja').generationPrompt).toBe('<|im_start|>assistant\n<think>\n');
    expect(report('Qwen-QwQ-32B.jinja').reasoning).toMatchObject({ generationOpensThink: true, field: undefined });
    expect(report('Qwen-Qwen3-0.6B.jinja').reasoning).toMatchObject({
      field: 'reasoning_content',
      keptInHistory: true,
      generationOpensThink: false,
    });
    expect(report('openai-gpt-oss-120b.jinja').reasoning).toMatchObject({ supported: true, field: 'thinking' });
    expect(report('meta-llama-Llama-3.3-70B-Instruct.jinja').reasoning.supported).toBe(false);
  });
});

describe('inspectChatTemplate failures', () => {
  it('names the failure of a template that throws on every probe', async () => {
    const error = await rejection(inspectChatTemplate("{{ raise_exception('This server renders nothing') }}"));
    expect(error.failure).toBe('render');
    expect(error.limit).toBeUndefined();
    expect(error.probes.length).toBeGreaterThan(5);
    expect(error.message).toContain('This server renders nothing');
  });

  it('names a parse failure', async () => {
    await expect(inspectChatTemplate('{% for message in messages %}{{ message.content }}')).rejects.toThrow(
      expect.objectContaining({ name: 'ChatTemplateError', failure: 'parse' }),
    );
    expect(() => inspectTrustedChatTemplate('{% for message in messages %}{{ message.content }}')).toThrow(
      expect.objectContaining({ name: 'ChatTemplateError', failure: 'parse' }),
    );
  });

  it('keeps system when only a later probe fails for another reason', async () => {
    // Renders anything with a system message, throws on a tool message (Gemma-like strictness elsewhere).
    const template =
      "{% for m in messages %}{% if m.role == 'tool' %}{{ raise_exception('no tools') }}{% endif %}<{{ m.role }}>{{ m.content }}{% endfor %}";
    const report = await inspectChatTemplate(template);
    expect(report.systemPrompt).toBe('system');
    expect(report.nativeTools).toBe(false);
  });
});

/** The `ChatTemplateError` a promise rejects with (fails the test on anything else). */
async function rejection(promise: Promise<unknown>): Promise<ChatTemplateError> {
  const thrown = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(ChatTemplateError.isInstance(thrown), String(thrown)).toBe(true);
  return thrown as ChatTemplateError;
}

// Hostile templates, as a server could serve them: each ends because of a bound (not because the
// engine gives up), with a `limit` naming it. No timing is asserted: the bound is what ends them.
describe('inspectChatTemplate bounds', () => {
  it('a loop over range(10**9) ends at the heap or time bound', async () => {
    // `range` of @huggingface/jinja builds the whole list first: a billion numbers.
    const error = await rejection(inspectChatTemplate('{% for i in range(10**9) %}{% endfor %}{{ messages }}'));
    expect(error.failure).toBe('limit');
    expect(['memory', 'time']).toContain(error.limit);
  });

  it('an endlessly recursive macro ends at the time bound', async () => {
    // Two self-calls per level and a depth guard the engine's stack never reaches: 2^60 calls.
    const template = '{% macro f(n) %}{% if n < 60 %}{{ f(n + 1) }}{{ f(n + 1) }}{% endif %}{% endmacro %}{{ f(0) }}';
    const error = await rejection(inspectChatTemplate(template, { renderTimeoutMs: 500 }));
    expect(error.failure).toBe('limit');
    expect(error.limit).toBe('time');
    expect(error.message).toContain('500 ms');
  });

  it('a macro that calls itself without end fails typed, bounded or in-process', async () => {
    // The engine's variable lookup swallows the stack overflow ("not a function"): every probe throws.
    const template = '{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}';
    for (const thrown of [
      await rejection(inspectChatTemplate(template)),
      (() => {
        try {
          inspectTrustedChatTemplate(template);
        } catch (error) {
          return error as ChatTemplateError;
        }
        return expect.unreachable('no error');
      })(),
    ]) {
      expect(ChatTemplateError.isInstance(thrown)).toBe(true);
      expect(['render', 'limit']).toContain(thrown.failure);
      if (thrown.failure === 'limit') expect(thrown.limit).toBe('stack');
    }
  });

  it('a huge string ends at the output bound', async () => {
    // Doubling a string 25 times: 32 Mi characters, far past 1 MiB, well inside the heap.
    const template =
      "{% set ns = namespace(s='x') %}{% for i in range(25) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s }}";
    const error = await rejection(inspectChatTemplate(template));
    expect(error).toMatchObject({ failure: 'limit', limit: 'output' });
    expect(error.probes[0]?.error).toContain('33554432 characters');
    expect(() => inspectTrustedChatTemplate(template)).toThrow(expect.objectContaining({ limit: 'output' }));
  });

  it("a string past the engine's length limit ends at the memory bound", async () => {
    // Doubling 40 times passes V8's longest string (2^29 characters) before the heap fills: a RangeError.
    const template =
      "{% set ns = namespace(s='x') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s }}";
    const error = await rejection(inspectChatTemplate(template));
    expect(error).toMatchObject({ failure: 'limit', limit: 'memory' });
  });

  it("a nesting deeper than the parser's stack ends at the stack bound", async () => {
    // 20000 nested parentheses: 40 KiB, inside the size bound; the recursive-descent parser overflows.
    const template = `{{ ${'('.repeat(20_000)}1${')'.repeat(20_000)} }}`;
    const error = await rejection(inspectChatTemplate(template));
    expect(error).toMatchObject({ failure: 'limit', limit: 'stack' });
    expect(error.probes[0]?.probe).toBe('parse');
    expect(() => inspectTrustedChatTemplate(template)).toThrow(expect.objectContaining({ limit: 'stack' }));
  });

  it('refuses a template longer than maxTemplateChars unread', async () => {
    const template = `{{ messages }}${' '.repeat(256 * 1024)}`;
    const error = await rejection(inspectChatTemplate(template));
    expect(error).toMatchObject({ failure: 'limit', limit: 'template_size' });
    const small = await inspectChatTemplate('{% for m in messages %}{{ m.content }}{% endfor %}', {
      maxTemplateChars: 100,
    });
    expect(small.systemPrompt).toBe('system');
    await expect(inspectChatTemplate('{{ messages }}', { maxTemplateChars: 5 })).rejects.toMatchObject({
      limit: 'template_size',
    });
  });

  it('a probe rendering more than maxOutputChars ends it, and one within does not', async () => {
    const template = '{% for m in messages %}{{ m.content }}{% endfor %}';
    await expect(inspectChatTemplate(template, { maxOutputChars: 20 })).rejects.toMatchObject({
      failure: 'limit',
      limit: 'output',
    });
    expect((await inspectChatTemplate(template, { maxOutputChars: 10_000 })).systemPrompt).toBe('system');
  });

  it("aborts with the signal's reason and kills the renderer", async () => {
    const controller = new AbortController();
    const reason = new Error('stop rendering');
    const template = '{% macro f(n) %}{% if n < 60 %}{{ f(n + 1) }}{{ f(n + 1) }}{% endif %}{% endmacro %}{{ f(0) }}';
    const pending = inspectChatTemplate(template, { signal: controller.signal, renderTimeoutMs: 60_000 });
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  it('refuses a bound that is not a positive number', async () => {
    await expect(inspectChatTemplate('{{ messages }}', { renderTimeoutMs: 0 })).rejects.toMatchObject({
      name: 'InvalidInputError',
    });
    expect(() => inspectTrustedChatTemplate('{{ messages }}', { maxOutputChars: Number.NaN })).toThrow(
      expect.objectContaining({ name: 'InvalidInputError' }),
    );
  });
});
