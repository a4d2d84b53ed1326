import { AgentHarness } from '@tiny/harness';
import { ScriptedModel } from '@tiny/harness/testkit';
import { formatEvent } from './format-event.js';
import { demoScript } from './script.js';
import { createNoteTool, sendSms, weather } from './tools.js';

if (process.env.OPENAI_BASE_URL || process.env.OPENAI_API_KEY) {
  console.log(
    '(OPENAI_* is set, but the OpenAI-compatible provider is not part of this build yet: using the embedded model.)\n',
  );
}

const outbox: string[] = [];
const model = new ScriptedModel({ steps: demoScript });
const harness = new AgentHarness({
  model,
  tools: [weather, createNoteTool(outbox), sendSms],
  policy: { captureToolIo: true },
});

const secret = 'sk-demo-0123456789';
const run = await harness.invoke(
  { hostValues: { apiKey: secret } },
  [
    { role: 'system', content: 'You are a concise travel assistant.' },
    { role: 'user', content: 'What will the weather be in Oslo for two days? Save a note and text me at +4712345678.' },
  ],
  {
    onEvent: (event) => {
      const line = formatEvent(event);
      if (line !== undefined) console.log(line);
    },
  },
);

console.log(`\nfinal answer: ${run.text}`);
console.log(`model calls: ${run.modelCalls}, tool calls: ${run.toolCalls}, executed: ${run.executedTools.join(', ')}`);
console.log(`notes saved: ${JSON.stringify(outbox)}`);
const leaked = JSON.stringify(model.requests).includes(secret);
console.log(`secret sent to the model: ${leaked ? 'YES (bug!)' : 'never'}`);
if (leaked) process.exitCode = 1;
