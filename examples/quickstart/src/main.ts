import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AgentHarness } from '@tiny/harness';
import { ScriptedModel } from '@tiny/harness/testkit';
import type { LanguageModelV1 } from '@tiny/llm';
import {
  createOpenAICompatible,
  llamacpp,
  lmstudio,
  type OpenAICompatibleProvider,
  ollama,
  openai,
  vllm,
} from '@tiny/provider-openai';
import { recordEvents, renderTraceHtml } from '@tiny/trace';
import { formatEvent } from './format-event.js';
import { demoScript } from './script.js';
import { createNoteTool, sendSms, weather } from './tools.js';

/** Every request body sent to a real endpoint, to prove the host secret never leaves. */
const sentBodies: string[] = [];
const recordingFetch: typeof fetch = (input, init) => {
  sentBodies.push(String(init?.body ?? ''));
  return fetch(input, init);
};

/** The preset for a base URL: by host for OpenAI, by the default port of each local server, else generic. */
function providerFor(baseURL: string, apiKey: string | undefined): OpenAICompatibleProvider {
  const options = { baseURL, apiKey, fetch: recordingFetch };
  const url = new URL(baseURL);
  if (url.hostname === 'api.openai.com') return openai(options);
  const byPort: Record<string, (given: typeof options) => OpenAICompatibleProvider> = {
    '11434': ollama,
    '1234': lmstudio,
    '8080': llamacpp,
    '8000': vllm,
  };
  return (byPort[url.port] ?? ((given) => createOpenAICompatible(given)))(options);
}

const baseURL = process.env.OPENAI_BASE_URL;
let model: LanguageModelV1;
let scripted: ScriptedModel | undefined;
if (baseURL) {
  const modelId = process.env.OPENAI_MODEL ?? 'gpt-4o-mini';
  model = providerFor(baseURL, process.env.OPENAI_API_KEY)(modelId);
  console.log(`model: ${modelId} at ${baseURL} (${model.provider} preset)\n`);
} else {
  if (process.env.OPENAI_API_KEY) {
    console.log('(OPENAI_API_KEY is set: add OPENAI_BASE_URL=https://api.openai.com/v1 to use OpenAI.)');
  }
  scripted = new ScriptedModel({ steps: demoScript });
  model = scripted;
  console.log('model: the embedded scripted model (set OPENAI_BASE_URL to use a real endpoint)\n');
}

const outbox: string[] = [];
const harness = new AgentHarness({
  model,
  tools: [weather, createNoteTool(outbox), sendSms],
  policy: { captureToolIo: true },
});

const secret = 'sk-demo-0123456789';
// Timestamps every event for the trace viewer and passes it on to the console printer.
const recorder = recordEvents({
  forward: (event) => {
    const line = formatEvent(event);
    if (line !== undefined) console.log(line);
  },
});
try {
  const run = await harness.invoke(
    { hostValues: { apiKey: secret } },
    [
      { role: 'system', content: 'You are a concise travel assistant.' },
      {
        role: 'user',
        content: 'What will the weather be in Oslo for two days? Save a note and text me at +4712345678.',
      },
    ],
    { onEvent: recorder.onEvent },
  );
  console.log(`\nfinal answer: ${run.text}`);
  console.log(
    `model calls: ${run.modelCalls}, tool calls: ${run.toolCalls}, executed: ${run.executedTools.join(', ')}`,
  );
  console.log(`notes saved: ${JSON.stringify(outbox)}`);
} catch (error) {
  console.error(`\nthe run failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}

// The run as one self-contained HTML page next to the example's dist/ (written even when the run failed).
const traceHtml = renderTraceHtml(recorder.recording, { title: 'tiny quickstart' });
const tracePath = fileURLToPath(new URL('../trace.html', import.meta.url));
writeFileSync(tracePath, traceHtml);
console.log(`\ntrace: ${tracePath} (open it in a browser)`);

const sent = scripted === undefined ? sentBodies.join('\n') : JSON.stringify(scripted.requests);
const leaked = sent.includes(secret) || traceHtml.includes(secret);
console.log(`secret sent to the model: ${leaked ? 'YES (bug!)' : 'never'}`);
if (leaked) process.exitCode = 1;
