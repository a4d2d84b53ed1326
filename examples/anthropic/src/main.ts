import { fileURLToPath } from 'node:url';
import { AgentHarness } from '@tiny/harness';
import { anthropic, localMessages } from '@tiny/provider-anthropic';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';

const weather = defineTool({
  name: 'weather',
  description: 'Look up the weather forecast for a city.',
  parameters: Type.Object({ city: Type.String({ description: 'City name' }) }),
  policy: ToolPolicy.readOnly(),
  execute: ({ city }) => `${city}: light snow, -3 °C, wind 20 km/h`,
});

/** How to run the example, printed when no endpoint is configured. */
export const USAGE = `Set one of:
  ANTHROPIC_API_KEY=sk-ant-...                      Claude (ANTHROPIC_MODEL, default claude-haiku-4-5)
  ANTHROPIC_BASE_URL=http://127.0.0.1:8080/v1       a local server speaking /v1/messages, e.g.
                                                    llama-server --jinja -m model.gguf --port 8080
                                                    (ANTHROPIC_MODEL names the model, default "local")`;

/**
 * Runs one agent turn with a weather tool against the configured endpoint and returns what it
 * printed; without ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL it returns the usage text.
 */
export async function main(env: Readonly<Record<string, string | undefined>> = process.env): Promise<string> {
  const { ANTHROPIC_API_KEY: apiKey, ANTHROPIC_BASE_URL: baseURL } = env;
  if (apiKey === undefined && baseURL === undefined) return USAGE;
  const model =
    apiKey === undefined
      ? localMessages({ baseURL })(env.ANTHROPIC_MODEL ?? 'local')
      : anthropic({ apiKey, baseURL })(env.ANTHROPIC_MODEL ?? 'claude-haiku-4-5', {
          providerOptions: { cacheControl: true },
        });
  const harness = new AgentHarness({ model, tools: [weather] });
  const lines: string[] = [];
  const stream = harness.stream({}, [
    { role: 'system', content: 'Use the weather tool, then answer in one sentence.' },
    { role: 'user', content: 'What should I wear in Oslo today?' },
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
