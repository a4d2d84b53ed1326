import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type AgentEvent, AgentHarness, type AgentRun, type AgentRunStream, DeferredToolResults } from '@tiny/harness';
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
import { invokeStructured, ResponseFormat } from '@tiny/structured';
import { recordEvents, renderTraceHtml } from '@tiny/trace';
import { createEventFormatter, LEGEND, short } from './format-event.js';
import { demoScript, TripSummary } from './script.js';
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
  console.log('model: the embedded scripted model (set OPENAI_BASE_URL to use a real endpoint)');
}

const outbox: string[] = [];
const harness = new AgentHarness({
  model,
  tools: [weather, createNoteTool(outbox), sendSms],
  policy: { captureToolIo: true },
  limits: { maxModelCalls: 10 },
});

const secret = 'sk-demo-0123456789';
const context = { hostValues: { apiKey: secret } };
// Timestamps every event for the trace viewer.
const recorder = recordEvents();
const format = createEventFormatter({ outputTools: ['trip_summary'] });
let deltas = 0;
const executed: string[] = [];

/** Prints one event: streamed text live on a `~` line, everything else through the formatter. */
function print(event: AgentEvent): void {
  recorder.onEvent(event);
  if (event.type === 'tool_completed' && event.toolName !== 'trip_summary' && event.error === undefined) {
    executed.push(event.toolName);
  }
  if (event.type === 'model_delta') {
    process.stdout.write(deltas === 0 ? `~ ${event.delta}` : event.delta);
    deltas += 1;
    return;
  }
  if (event.type === 'model_completed' && deltas > 0) {
    process.stdout.write(`  (${deltas} deltas)\n`);
    deltas = 0;
  }
  const line = format(event);
  if (line !== undefined) console.log(line);
}

/** Drains a run stream, printing as events arrive, and returns the run. */
async function follow(stream: AgentRunStream): Promise<AgentRun> {
  for await (const event of stream) print(event);
  return stream.result;
}

console.log(`${LEGEND}\n`);
try {
  // 1. A streamed run: recoveries, then a batch whose text message needs the host's approval.
  let run = await follow(
    harness.stream(context, [
      { role: 'system', content: 'You are a concise travel assistant.' },
      {
        role: 'user',
        content: 'What will the weather be in Oslo for two days? Save a note and text me at +4712345678.',
      },
    ]),
  );

  // 2. The host reads the pending call, edits its argument and approves; the run resumes.
  if (run.outcome === 'deferred' && run.state !== undefined && run.deferred !== undefined) {
    const decisions = new DeferredToolResults();
    for (const call of run.deferred.approvals) {
      const args = call.arguments as { text?: string };
      const edited = { ...args, text: `${args.text ?? ''} (approved by Ana)` };
      console.log(`\nhost: ${call.toolName} wants ${short(call.arguments, 70)}`);
      console.log(`host: approve with an edited text: ${JSON.stringify(edited.text)}`);
      decisions.approveWithArgs(call.callId, edited);
    }
    run = await follow(harness.streamResumeDeferred(context, run.state, decisions));
  }
  console.log(`\nfinal answer: ${run.text}`);

  console.log(`model calls: ${run.modelCalls}, executed: ${executed.join(', ')}`);
  if (scripted === undefined) {
    console.log('(the typed summary step runs on the embedded scripted model)');
  } else {
    // 3. A typed structured answer over the same conversation.
    const summary = await invokeStructured(
      harness,
      context,
      [...run.messages, { role: 'user', content: 'Summarise the trip.' }],
      ResponseFormat.auto({ name: 'trip_summary', description: 'A summary of the trip.', schema: TripSummary }),
      { onEvent: print },
    );
    const trip = summary.parsed; // typed: { city: string; days: number; forecast: string; packing: string[]; reminderSent: boolean }
    console.log(
      `\ntyped summary (${summary.validation.strategy} strategy): ${trip.city}, ${trip.days} days, ${trip.forecast}; ` +
        `pack ${trip.packing.join(', ')}; reminder sent: ${trip.reminderSent ? 'yes' : 'no'}`,
    );
  }
  console.log(`notes saved: ${JSON.stringify(outbox)}`);
} catch (error) {
  console.error(`\nthe run failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}

// The run as one self-contained HTML page next to the example's dist/ (written even when the run failed).
const traceHtml = renderTraceHtml(recorder.recording, { title: 'tiny quickstart' });
const tracePath = fileURLToPath(new URL('../trace.html', import.meta.url));
writeFileSync(tracePath, traceHtml);
console.log(`trace: ${tracePath} (open it in a browser)`);

const sent = scripted === undefined ? sentBodies.join('\n') : JSON.stringify(scripted.requests);
const leaked = sent.includes(secret) || traceHtml.includes(secret);
console.log(`secret sent to the model: ${leaked ? 'YES (bug!)' : 'never'}`);
if (leaked) process.exitCode = 1;
