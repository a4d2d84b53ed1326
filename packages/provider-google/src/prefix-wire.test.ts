import { readFileSync } from 'node:fs';
import { type AgentEvent, AgentHarness, type AgentMiddleware } from '@tiny/harness';
import { useLoopbackServer } from '@tiny/provider-tests';
import { describe, expect, it } from 'vitest';
import { createGoogle } from './create-google.js';

// What the harness's prefix tracker sees of this adapter's wire: every system message goes into
// `systemInstruction` (the API reference: `GenerateContentRequest.systemInstruction`, "developer
// set system instruction(s)"; a `Content.role` is "either 'user' or 'model'"), and model-level
// provider options are sent on every request. Each request is answered with the AI SDK's recorded
// google-text stream (__fixtures__/google/SOURCE.md).
const answer = readFileSync(new URL('./__fixtures__/google/google-text.sse', import.meta.url), 'utf8');
const server = useLoopbackServer();
const bodies: Record<string, unknown>[] = [];
const serve = () => {
  bodies.length = 0;
  server.handle((_request, response, body) => {
    bodies.push(JSON.parse(body) as Record<string, unknown>);
    response.writeHead(200, { 'content-type': 'text/event-stream' }).end(answer);
  });
};
/** Runs the harness streaming (each request answered with the recorded stream). */
const runOf = async (harness: AgentHarness, messages: Parameters<AgentHarness['stream']>[1]) => {
  const stream = harness.stream({}, messages);
  for await (const _event of stream) {
    // drained
  }
  return stream.result;
};
const changesOf = (events: readonly AgentEvent[]) =>
  events.flatMap((event) => (event.type === 'prompt_prefix_changed' ? [event.changes] : []));

/** Adds one system message after the first answer, then lets the model answer again. */
function reviewer(): AgentMiddleware {
  let sent = false;
  return {
    name: 'review',
    afterModel: () => {
      if (sent) return undefined;
      sent = true;
      return { type: 'jump_to', target: 'model', messages: [{ role: 'system', content: 'Reviewer: one sentence.' }] };
    },
  };
}

describe('the prompt prefix on the Gemini wire', () => {
  it('a system message added mid-run joins the system field in order and is a system change, not an append', async () => {
    serve();
    const model = createGoogle({ baseURL: `${server.url()}/v1beta`, apiKey: 'AIza-prefix-key' })(
      'gemini-3-pro-preview',
    );
    expect(model.profile.systemMessages).toBe('hoisted');
    const run = await runOf(new AgentHarness({ model, middleware: [reviewer()] }), [
      { role: 'system', content: 'Stable.' },
      { role: 'user', content: 'Weather in Oslo?' },
    ]);
    expect(run.outcome).toBe('final');
    expect(bodies.map((body) => body.systemInstruction)).toEqual([
      { parts: [{ text: 'Stable.' }] },
      { parts: [{ text: 'Stable.' }, { text: 'Reviewer: one sentence.' }] },
    ]);
    expect(JSON.stringify(bodies[1]?.contents)).not.toContain('Reviewer');
    expect(changesOf(run.events)).toEqual([[{ part: 'system', change: 'changed' }]]);
  });

  it('model-level safety settings edited between requests go on the wire and are a settings change', async () => {
    serve();
    const safetySettings: Record<string, string>[] = [
      { category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' },
    ];
    const model = createGoogle({ baseURL: `${server.url()}/v1beta`, apiKey: 'AIza-prefix-key' })(
      'gemini-3-pro-preview',
      {
        providerOptions: { safetySettings },
      },
    );
    let edited = false;
    const edit: AgentMiddleware = {
      name: 'edit',
      afterModel: () => {
        if (edited) return undefined;
        edited = true;
        safetySettings.push({ category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_NONE' });
        return { type: 'jump_to', target: 'model', messages: [{ role: 'user', content: 'And tomorrow?' }] };
      },
    };
    const run = await runOf(new AgentHarness({ model, middleware: [edit] }), [
      { role: 'user', content: 'Weather in Oslo?' },
    ]);
    expect(run.outcome).toBe('final');
    expect(bodies.map((body) => (body.safetySettings as unknown[] | undefined)?.length)).toEqual([1, 2]);
    expect(changesOf(run.events)).toEqual([[{ part: 'settings', change: 'changed' }]]);
  });

  it('unchanged model-level settings are no settings change (the late system message is the only change)', async () => {
    serve();
    const model = createGoogle({ baseURL: `${server.url()}/v1beta`, apiKey: 'AIza-prefix-key' })(
      'gemini-3-pro-preview',
      {
        providerOptions: { safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' }] },
      },
    );
    const run = await runOf(new AgentHarness({ model, middleware: [reviewer()] }), [
      { role: 'user', content: 'Weather in Oslo?' },
      { role: 'system', content: 'Late note.' },
    ]);
    expect(run.outcome).toBe('final');
    expect(changesOf(run.events)).toEqual([[{ part: 'system', change: 'changed' }]]);
  });
});
