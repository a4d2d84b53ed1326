// Structured output through each strategy @tiny/structured has, on the Gemini wire: answers shaped
// as the AI SDK's recorded Gemini traffic (vercel/ai@ed857f50f112e23930b0c2dd8d532cc8bebbc911
// packages/google/src/__fixtures__/google-text.json, google-tool-call-gemini3.json), replayed from 127.0.0.1.
import { AgentHarness } from '@tiny/harness';
import type { ModelProfile } from '@tiny/llm';
import { type ReplayServer, startReplayServer } from '@tiny/provider-tests';
import { invokeStructured, ResponseFormat } from '@tiny/structured';
import { Type } from 'typebox';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGoogle } from './create-google.js';
import type { GoogleSchemaMode } from './request/to-gemini-schema.js';

const Report = Type.Object({
  city: Type.String(),
  temperature_c: Type.Number(),
  summary: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
const report = { city: 'Paris', temperature_c: 18.5, summary: 'Mild and partly cloudy.' };
const ask = [{ role: 'user' as const, content: 'Report the weather in Paris.' }];
const usageMetadata = { promptTokenCount: 31, candidatesTokenCount: 22, totalTokenCount: 140, thoughtsTokenCount: 87 };

function answer(parts: unknown[]) {
  return {
    candidates: [{ content: { parts, role: 'model' }, finishReason: 'STOP', index: 0 }],
    usageMetadata,
    modelVersion: 'gemini-2.5-flash',
    responseId: 'Un6LacrVMcjUxs0PmJfWoQc',
  };
}

let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  server.assertDone();
});

function harness(options: { profile?: Partial<ModelProfile>; schemaMode?: GoogleSchemaMode } = {}) {
  const model = createGoogle({ baseURL: `${server.url}/v1beta`, apiKey: 'AIza-structured-key', ...options })(
    'gemini-2.5-flash',
  );
  return new AgentHarness({ model, tools: [] });
}

describe('structured output through each strategy', () => {
  it('provider: responseMimeType application/json with responseJsonSchema, the answer parsed from the text', async () => {
    server.load({ exchanges: [{ response: { json: answer([{ text: JSON.stringify(report) }]) } }] });
    const result = await invokeStructured(
      harness(),
      {},
      ask,
      ResponseFormat.provider({ name: 'weather_report', schema: Report }),
    );
    expect(result.parsed).toEqual(report);
    expect(result.validation.strategy).toBe('provider');
    const generation =
      (server.requests[0]?.body as { generationConfig: Record<string, unknown> } | undefined)?.generationConfig ?? {};
    expect(generation.responseMimeType).toBe('application/json');
    expect(generation.responseJsonSchema).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string' }, temperature_c: { type: 'number' } },
      required: ['city', 'temperature_c'],
    });
    expect(generation.responseSchema).toBeUndefined();
  });

  it("provider in openapi mode: responseSchema in Gemini's subset, a null branch made nullable", async () => {
    server.load({
      exchanges: [{ response: { json: answer([{ text: JSON.stringify({ ...report, summary: null }) }]) } }],
    });
    const result = await invokeStructured(
      harness({ schemaMode: 'openapi' }),
      {},
      ask,
      ResponseFormat.provider({ name: 'weather_report', schema: Report }),
    );
    expect(result.parsed).toEqual({ ...report, summary: null });
    const generation =
      (server.requests[0]?.body as { generationConfig: Record<string, unknown> } | undefined)?.generationConfig ?? {};
    expect(generation.responseJsonSchema).toBeUndefined();
    expect(generation.responseSchema).toMatchObject({ properties: { summary: { type: 'string', nullable: true } } });
  });

  it('tool: the output tool is a function declaration the model must call, never executed', async () => {
    server.load({
      exchanges: [
        {
          response: {
            json: answer([
              {
                functionCall: { name: 'weather_report', args: report },
                thoughtSignature:
                  'Eqo+Cqc+Ab4+9vtgONaaz6qwy6WXdp7gCd2w0X+Wz2gaBgY0Gv6A12JKo0y5vQwf9YQFyhMbKr1E9m17VT6HXd7jXzjaGYaE',
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
    const body = server.requests[0]?.body as {
      tools: [{ functionDeclarations: { name: string }[] }];
      toolConfig?: { functionCallingConfig: { mode: string } };
      generationConfig?: Record<string, unknown>;
    };
    expect(body.tools[0].functionDeclarations.map((declaration) => declaration.name)).toEqual(['weather_report']);
    expect(body.generationConfig?.responseMimeType).toBeUndefined();
  });

  it('prompted: the schema in the prompt, the answer read from text (a profile without native output)', async () => {
    server.load({
      exchanges: [
        { response: { json: answer([{ text: `Here it is:\n\`\`\`json\n${JSON.stringify(report)}\n\`\`\`` }]) } },
      ],
    });
    const result = await invokeStructured(
      harness({ profile: { structuredOutput: 'none', toolCalling: false } }),
      {},
      ask,
      ResponseFormat.prompted({ name: 'weather_report', schema: Report }),
    );
    expect(result.parsed).toEqual(report);
    expect(result.validation.strategy).toBe('prompted');
    const body = server.requests[0]?.body as { systemInstruction: { parts: { text: string }[] }; tools?: unknown };
    expect(body.systemInstruction.parts.map((part) => part.text).join('\n')).toContain('temperature_c');
    expect(body.tools).toBeUndefined();
  });
});
