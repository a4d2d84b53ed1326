import { fileURLToPath } from 'node:url';
import { AgentHarness } from '@tiny/harness';
import { localResponses, openaiResponses } from '@tiny/provider-openai-responses';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';

const calculator = defineTool({
  name: 'calculator',
  description: 'A minimal calculator for basic arithmetic. Call it once per step.',
  parameters: Type.Object(
    {
      a: Type.Number({ description: 'First operand.' }),
      b: Type.Number({ description: 'Second operand.' }),
      op: Type.Union([Type.Literal('add'), Type.Literal('subtract'), Type.Literal('multiply'), Type.Literal('divide')]),
    },
    { additionalProperties: false },
  ),
  policy: ToolPolicy.readOnly(),
  execute: ({ a, b, op }) =>
    String(op === 'add' ? a + b : op === 'subtract' ? a - b : op === 'multiply' ? a * b : a / b),
});

/** How to run the example, printed when no endpoint is configured. */
export const USAGE = `Set one of:
  OPENAI_API_KEY=sk-...                          OpenAI (OPENAI_MODEL, default gpt-5-mini)
  OPENAI_BASE_URL=http://127.0.0.1:8000/v1       a local server speaking /v1/responses, e.g.
                                                 vllm serve openai/gpt-oss-20b
                                                 (OPENAI_MODEL names the model, default openai/gpt-oss-20b)`;

/**
 * Runs one agent turn with a calculator tool against the configured endpoint and returns what it
 * printed; without OPENAI_API_KEY or OPENAI_BASE_URL it returns the usage text.
 */
export async function main(env: Readonly<Record<string, string | undefined>> = process.env): Promise<string> {
  const { OPENAI_API_KEY: apiKey, OPENAI_BASE_URL: baseURL } = env;
  if (apiKey === undefined && baseURL === undefined) return USAGE;
  const model =
    apiKey === undefined
      ? localResponses({ baseURL })(env.OPENAI_MODEL ?? 'openai/gpt-oss-20b')
      : openaiResponses({ apiKey, baseURL })(env.OPENAI_MODEL ?? 'gpt-5-mini', {
          // Stateless (the default): reasoning comes back encrypted and is replayed from the transcript.
          providerOptions: { reasoningEffort: 'low', reasoningSummary: 'auto' },
        });
  const harness = new AgentHarness({ model, tools: [calculator] });
  const lines: string[] = [];
  const stream = harness.stream({}, [
    { role: 'system', content: 'Use the calculator for every step.' },
    { role: 'user', content: 'Compute (12 + 7) * 3 * 10 with the calculator, one step per call.' },
  ]);
  for await (const event of stream) {
    if (event.type === 'tool_completed')
      lines.push(`tool ${event.toolName} ran (${event.outputBytes} bytes of output)`);
  }
  const run = await stream.result;
  lines.push(
    `final answer: ${run.text}`,
    `outcome: ${run.outcome}, tools run: ${run.executedTools.join(', ') || 'none'}`,
  );
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await main());
}
