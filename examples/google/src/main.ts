import { fileURLToPath } from 'node:url';
import { AgentHarness } from '@tiny/harness';
import { createGoogle, createVertex } from '@tiny/provider-google';
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
  GEMINI_API_KEY=AIza...                            the Gemini API (GEMINI_MODEL, default gemini-2.5-flash)
  GOOGLE_CLOUD_PROJECT=my-project                   Vertex AI, with GOOGLE_CLOUD_LOCATION (default us-central1)
  GOOGLE_ACCESS_TOKEN=$(gcloud auth print-access-token)   and a bearer token
GEMINI_BASE_URL overrides the API root (a proxy, or a replay server).`;

/**
 * Runs one agent turn with a weather tool against the configured endpoint and returns what it
 * printed; without GEMINI_API_KEY or GOOGLE_CLOUD_PROJECT it returns the usage text.
 */
export async function main(env: Readonly<Record<string, string | undefined>> = process.env): Promise<string> {
  const { GEMINI_API_KEY: apiKey, GOOGLE_CLOUD_PROJECT: project, GEMINI_BASE_URL: baseURL } = env;
  if (apiKey === undefined && project === undefined) return USAGE;
  const modelId = env.GEMINI_MODEL ?? 'gemini-2.5-flash';
  const model =
    apiKey !== undefined
      ? createGoogle({ apiKey, baseURL })(modelId)
      : createVertex({
          project: project as string,
          location: env.GOOGLE_CLOUD_LOCATION ?? 'us-central1',
          baseURL,
          // asked before every request: return a cached token and refresh it as you like
          accessToken: () => env.GOOGLE_ACCESS_TOKEN ?? '',
        })(modelId);
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
