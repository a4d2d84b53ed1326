/**
 * Whatever JSON a server answers on the probed endpoints, `probeLocalServer` returns a probe whose
 * decided profile holds only well-typed fields, and `inspectTrustedChatTemplate` either reports or throws
 * a `ChatTemplateError`: unknown shapes are ignored, never misread or thrown through. Sized by a
 * run count; one 127.0.0.1 server whose answers change per run.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatTemplateError } from '../errors/chat-template-error.js';
import { inspectTrustedChatTemplate } from '../template/inspect-chat-template.js';
import { probeLocalServer } from './probe-local-server.js';
import { type Route, replayServer } from './replay-server.test-helper.js';

const routes: Record<string, Route> = {};
let server: Awaited<ReturnType<typeof replayServer>>;
beforeAll(async () => {
  server = await replayServer(routes); // read per request, so each run's answers apply
});
afterAll(async () => {
  await server.close();
});

const KINDS = ['llamacpp', 'ollama', 'lmstudio', 'vllm', 'openai-compatible'];

/** JSON near the real shapes: the known keys with values of any JSON type. */
const nearShape = fc.oneof(
  fc.jsonValue(),
  fc.record(
    {
      default_generation_settings: fc.oneof(fc.jsonValue(), fc.record({ n_ctx: fc.jsonValue() })),
      chat_template_caps: fc.oneof(
        fc.jsonValue(),
        fc.dictionary(fc.constantFrom('supports_tools', 'supports_tool_calls', 'supports_system_role'), fc.jsonValue()),
      ),
      chat_template: fc.oneof(
        fc.jsonValue(),
        fc.constantFrom('{{ messages }}', '{% for', "{{ raise_exception('x') }}"),
      ),
      model_path: fc.jsonValue(),
      modalities: fc.jsonValue(),
      capabilities: fc.oneof(fc.jsonValue(), fc.array(fc.constantFrom('tools', 'thinking', 'vision', 'tool_use', 1))),
      model_info: fc.jsonValue(),
      template: fc.oneof(fc.jsonValue(), fc.constantFrom('{{ .System }}', '{{ .Prompt }}')),
      parameters: fc.oneof(fc.jsonValue(), fc.constantFrom('num_ctx 4096', 'num_ctx abc')),
      data: fc.oneof(
        fc.jsonValue(),
        fc.array(
          fc.record(
            {
              id: fc.jsonValue(),
              state: fc.jsonValue(),
              type: fc.jsonValue(),
              max_context_length: fc.jsonValue(),
              max_model_len: fc.jsonValue(),
              capabilities: fc.jsonValue(),
              owned_by: fc.jsonValue(),
            },
            { requiredKeys: [] },
          ),
        ),
      ),
    },
    { requiredKeys: [] },
  ),
);

describe('probeLocalServer on arbitrary answers', () => {
  it('returns a well-typed probe for any JSON on any endpoint', async () => {
    await fc.assert(
      fc.asyncProperty(
        nearShape,
        nearShape,
        nearShape,
        nearShape,
        fc.option(fc.string(), { nil: undefined }),
        async (props, lm, models, show, model) => {
          routes['GET /props'] = { json: props };
          routes['GET /api/v0/models'] = { json: lm };
          routes['GET /v1/models'] = { json: models };
          routes['POST /api/show'] = { json: show };
          const probe = await probeLocalServer(`${server.url}/v1`, { model, timeoutMs: 60_000 });
          expect(KINDS).toContain(probe.server);
          for (const note of probe.notes) expect(typeof note).toBe('string');
          const { profile } = probe;
          expect(
            Object.keys(profile).every((key) =>
              ['toolCalling', 'parallelToolCalls', 'systemPrompt', 'toolCallFormats'].includes(key),
            ),
          ).toBe(true);
          if (profile.toolCalling !== undefined) expect(typeof profile.toolCalling).toBe('boolean');
          if (profile.systemPrompt !== undefined) expect(['system', 'first_user']).toContain(profile.systemPrompt);
          if (probe.contextLength !== undefined) expect(Number.isFinite(probe.contextLength)).toBe(true);
          if (probe.model !== undefined) expect(typeof probe.model).toBe('string');
        },
      ),
      { numRuns: 60 },
    );
  });
});

const fragment = fc.constantFrom(
  '{% for m in messages %}',
  '{% endfor %}',
  "{% if m.role == 'system' %}",
  "{% if m.role == 'tool' %}",
  '{% else %}',
  '{% endif %}',
  '{{ m.content }}',
  '{{ m.tool_calls[0].function.arguments | tojson }}',
  '{{ tools | tojson }}',
  "{{ raise_exception('no') }}",
  '{{ bos_token }}',
  '{% if add_generation_prompt %}<assistant>{% endif %}',
  '<tool_call>',
  '[TOOL_CALLS]',
  'text ',
  '{{',
  '%}',
);

describe('inspectTrustedChatTemplate on arbitrary templates', () => {
  it('reports or throws a ChatTemplateError, nothing else', () => {
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 14 }), (parts) => {
        try {
          const report = inspectTrustedChatTemplate(parts.join(''));
          expect(['system', 'first_user']).toContain(report.systemPrompt);
          expect(report.profile.toolCalling).toBe(report.nativeTools);
        } catch (error) {
          expect(ChatTemplateError.isInstance(error), String(error)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
