import { readFileSync } from 'node:fs';
import { type AgentEvent, AgentHarness, type AgentMiddleware } from '@tiny/harness';
import { useLoopbackServer } from '@tiny/provider-tests';
import { describe, expect, it } from 'vitest';
import { createAnthropic } from './create-anthropic.js';

// What the harness's prefix tracker sees of this adapter's wire: every system message goes into the
// `system` field (the Messages API reference: "there is no `system` role for input messages in the
// Messages API"; use the top-level `system` parameter), and model-level provider options are sent
// on every request. Each request is answered with the recorded answer of
// __fixtures__/anthropic/thinking-answer.sse.
const answer = readFileSync(new URL('./__fixtures__/anthropic/thinking-answer.sse', import.meta.url), 'utf8');
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

describe('the prompt prefix on the Anthropic wire', () => {
  it('a system message added mid-run joins the system field in order and is a system change, not an append', async () => {
    serve();
    const model = createAnthropic({ baseURL: `${server.url()}/v1`, apiKey: 'sk-ant-prefix' })('claude-sonnet-4-5');
    expect(model.profile.systemMessages).toBe('hoisted');
    const run = await runOf(new AgentHarness({ model, middleware: [reviewer()] }), [
      { role: 'system', content: 'Stable.' },
      { role: 'user', content: 'Weather in Oslo?' },
    ]);
    expect(run.outcome).toBe('final');
    expect(bodies.map((body) => body.system)).toEqual([
      [{ type: 'text', text: 'Stable.' }],
      [
        { type: 'text', text: 'Stable.' },
        { type: 'text', text: 'Reviewer: one sentence.' },
      ],
    ]);
    expect(JSON.stringify(bodies[1]?.messages)).not.toContain('Reviewer');
    expect(changesOf(run.events)).toEqual([[{ part: 'system', change: 'changed' }]]);
  });

  it('model-level serverTools edited between requests go on the wire and are a settings change', async () => {
    serve();
    const serverTools: Record<string, unknown>[] = [{ type: 'web_search_20250305', name: 'web_search', max_uses: 1 }];
    const model = createAnthropic({ baseURL: `${server.url()}/v1`, apiKey: 'sk-ant-prefix' })('claude-sonnet-4-5', {
      providerOptions: { serverTools },
    });
    let edited = false;
    const edit: AgentMiddleware = {
      name: 'edit',
      afterModel: () => {
        if (edited) return undefined;
        edited = true;
        serverTools.push({ type: 'code_execution_20250522', name: 'code_execution' });
        return { type: 'jump_to', target: 'model', messages: [{ role: 'user', content: 'And tomorrow?' }] };
      },
    };
    const run = await runOf(new AgentHarness({ model, middleware: [edit] }), [
      { role: 'user', content: 'Weather in Oslo?' },
    ]);
    expect(run.outcome).toBe('final');
    expect(bodies.map((body) => (body.tools as { name: string }[] | undefined)?.map((tool) => tool.name))).toEqual([
      ['web_search'],
      ['web_search', 'code_execution'],
    ]);
    expect(changesOf(run.events)).toEqual([[{ part: 'settings', change: 'changed' }]]);
  });

  it('unchanged model-level settings are no settings change (the late system message is the only change)', async () => {
    serve();
    const model = createAnthropic({ baseURL: `${server.url()}/v1`, apiKey: 'sk-ant-prefix' })('claude-sonnet-4-5', {
      providerOptions: { serverTools: [{ type: 'web_search_20250305', name: 'web_search' }] },
    });
    const run = await runOf(new AgentHarness({ model, middleware: [reviewer()] }), [
      { role: 'user', content: 'Weather in Oslo?' },
      { role: 'system', content: 'Late note.' },
    ]);
    expect(run.outcome).toBe('final');
    expect(changesOf(run.events)).toEqual([[{ part: 'system', change: 'changed' }]]);
  });
});
