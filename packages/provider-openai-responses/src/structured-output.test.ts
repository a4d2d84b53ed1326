// Structured output through each strategy @tiny/structured has, on the Responses wire: the answers
// are the final response of the recorded run (vercel/ai@ed857f50f112e23930b0c2dd8d532cc8bebbc911
// packages/openai/src/responses/__fixtures__/openai-reasoning-encrypted-content.1.chunks.txt, step 4)
// with its output item's text or a function_call in its place, replayed from 127.0.0.1.
import { readFileSync } from 'node:fs';
import { AgentHarness } from '@tiny/harness';
import type { ModelProfile } from '@tiny/llm';
import { useReplayServer } from '@tiny/provider-tests';
import { invokeStructured, ResponseFormat } from '@tiny/structured';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { openaiResponses } from './presets/openai.js';

const replay = useReplayServer(new URL('./__fixtures__/', import.meta.url));

const Report = Type.Object({
  city: Type.String(),
  temperature_c: Type.Number(),
  summary: Type.Optional(Type.String()),
});
const report = { city: 'Paris', temperature_c: 18.5 };
const ask = [{ role: 'user' as const, content: 'Report the weather in Paris.' }];

/** The recorded final response, with `output` replaced. */
function answer(output: unknown[]): Record<string, unknown> {
  const text = readFileSync(new URL('./__fixtures__/responses/reasoning-agent-run.4.sse', import.meta.url), 'utf8');
  const completed = text
    .split('\n\n')
    .filter((block) => block.includes('data: '))
    .map(
      (block) =>
        JSON.parse(block.slice(block.indexOf('data: ') + 6)) as { type: string; response?: Record<string, unknown> },
    )
    .find((event) => event.type === 'response.completed');
  return { ...completed?.response, output };
}

const message = (text: string) => ({
  id: 'msg_01830d662ab3856501693c32183a488190a612c410a0a39823',
  type: 'message',
  status: 'completed',
  content: [{ type: 'output_text', annotations: [], logprobs: [], text }],
  role: 'assistant',
});

function harness(profile: Partial<ModelProfile> = {}) {
  const baseURL = `${replay.server().url}/v1`;
  const model = openaiResponses({ baseURL, apiKey: 'sk-structured' })('gpt-5.1-codex-max', { profile });
  return new AgentHarness({ model, tools: [] });
}

describe('structured output through each strategy', () => {
  it('provider: text.format json_schema, strict with the optional summary made nullable; a null summary reads as absent', async () => {
    replay.server().load({
      exchanges: [{ response: { json: answer([message(JSON.stringify({ ...report, summary: null }))]) } }],
    });
    const result = await invokeStructured(
      harness(),
      {},
      ask,
      ResponseFormat.provider({ name: 'weather_report', schema: Report, strict: true }),
    );
    expect(result.parsed).toEqual(report);
    expect(result.validation.strategy).toBe('provider');
    const body = replay.server().requests[0]?.body as { text: { format: Record<string, unknown> } };
    expect(body.text.format).toMatchObject({
      type: 'json_schema',
      name: 'weather_report',
      strict: true,
      schema: { required: ['city', 'temperature_c', 'summary'], additionalProperties: false },
    });
  });

  it('tool: the output tool is a function the model must call, answered from its arguments, never executed', async () => {
    replay.server().load({
      exchanges: [
        {
          response: {
            json: answer([
              {
                id: 'fc_01830d662ab3856501693c32165be4819098c08f205f8932ef',
                type: 'function_call',
                status: 'completed',
                arguments: JSON.stringify(report),
                call_id: 'call_Q6pW65MUgW9vF59BmItYGos3',
                name: 'weather_report',
              },
            ]),
          },
        },
      ],
    });
    const result = await invokeStructured(
      harness(),
      {},
      ask,
      ResponseFormat.tool({ name: 'weather_report', schema: Report }),
    );
    expect(result.parsed).toEqual(report);
    expect(result.validation.strategy).toBe('tool');
    const body = replay.server().requests[0]?.body as { tools: { name: string; strict: boolean }[]; text?: unknown };
    expect(body.tools.map((tool) => tool.name)).toEqual(['weather_report']);
    // Strict mode would make the optional summary required-and-nullable: the tool goes non-strict.
    expect(body.tools[0]?.strict).toBe(false);
    expect(body.text).toBeUndefined();
  });

  it('prompted: no text.format, the schema in the prompt, the JSON read from the text', async () => {
    replay.server().load({
      exchanges: [{ response: { json: answer([message(`Here it is:\n${JSON.stringify(report)}`)]) } }],
    });
    const result = await invokeStructured(
      harness({ structuredOutput: 'none' }),
      {},
      ask,
      ResponseFormat.prompted({ name: 'weather_report', schema: Report }),
    );
    expect(result.parsed).toEqual(report);
    expect(result.validation.strategy).toBe('prompted');
    const sent = replay.server().requests[0]?.body as { text?: unknown } | undefined;
    expect(sent).toBeDefined();
    expect(sent?.text).toBeUndefined();
  });
});
