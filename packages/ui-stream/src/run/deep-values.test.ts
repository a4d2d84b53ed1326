import { AgentHarness, sensitive } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { handleAgUiRequest } from '../ag-ui/handle-ag-ui-request.js';
import { handleChatRequest } from '../chat/handle-chat-request.js';
import { secretStrings } from './scrub-secrets.js';

const post = (body: string) => new Request('http://127.0.0.1/api', { method: 'POST', body });
const SECRET = 'deepSECRET-4242';

function nest(value: unknown, levels: number): unknown {
  let out = value;
  for (let level = 0; level < levels; level++) out = { x: out };
  return out;
}

// ui-r2 a4 and a6.
describe('deeply nested values', () => {
  it('a body nested 200k levels deep answers 400 (chat and AG-UI), nothing runs', async () => {
    const harness = new AgentHarness({ model: new ScriptedModel({ steps: [{ content: 'hi' }] }), tools: [] });
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    const chat = await handleChatRequest(
      harness,
      post(
        `{"messages":[{"id":"a","role":"assistant","parts":[{"type":"tool-x","toolCallId":"x","state":"output-available","input":${deep},"output":1}]},{"id":"u","role":"user","parts":[{"type":"text","text":"hi"}]}]}`,
      ),
    );
    expect(chat.status).toBe(400);
    const agUi = await handleAgUiRequest(
      harness,
      post(`{"threadId":"t","messages":[{"role":"user","content":"x","id":${deep}}]}`),
    );
    expect(agUi.status).toBe(400);
  });

  it('finds host values at any depth, and survives cycles', () => {
    const cyclic: Record<string, unknown> = { key: 'cycleVALUE-1' };
    cyclic.self = cyclic;
    expect(secretStrings({ deep: nest(SECRET, 5000), cyclic })).toEqual([SECRET, 'cycleVALUE-1']);
  });

  it('scrubs a host value nested past the harness walk from what a tool shows', async () => {
    const tool = defineTool({
      name: 't',
      description: 'Echoes a configured value.',
      parameters: Type.Object({ q: Type.String(), cfg: Type.Any() }),
      injected: [{ name: 'cfg', source: 'host' }],
      policy: ToolPolicy.readOnly(),
      execute: ({ cfg }) => {
        let leaf: unknown = cfg;
        while (typeof leaf === 'object' && leaf !== null) leaf = (leaf as { x: unknown }).x;
        return `v=${String(leaf)}`;
      },
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('t', { q: 'a' }, 'c1')] }, { content: 'end' }],
    });
    const harness = new AgentHarness({ model, tools: [tool] });
    const body = JSON.stringify({ messages: [{ id: 'u', role: 'user', parts: [{ type: 'text', text: 'go' }] }] });
    const response = await handleChatRequest(harness, post(body), {
      context: { hostValues: { cfg: nest(SECRET, 70) } },
    });
    const text = await response.text();
    expect(text).toContain('v=[redacted]');
    expect(text).not.toContain(SECRET);
  });

  // ui-r2 a8: a model may choose a call id equal to a sensitive value it sent earlier.
  it('mints a stream id for a call whose model-chosen id is a secret (chat and AG-UI)', async () => {
    const PIN = 'pinVAL-55aa77bb';
    const login = defineTool({
      name: 'login',
      description: 'Logs in.',
      parameters: Type.Object({ user: Type.String(), password: sensitive(Type.String()) }),
      policy: ToolPolicy.readOnly(),
      execute: ({ user }) => `welcome ${user}`,
    });
    const steps = [
      { toolCalls: [scriptedToolCall('login', { user: 'a', password: PIN }, 'c1')] },
      { toolCalls: [scriptedToolCall('login', { user: 'b', password: 'zzzzzzzz' }, PIN)] },
      { content: 'end' },
    ];
    const make = () => new AgentHarness({ model: new ScriptedModel({ steps, chunkSize: 4 }), tools: [login] });
    const chatBody = JSON.stringify({ messages: [{ id: 'u', role: 'user', parts: [{ type: 'text', text: 'go' }] }] });
    const chat = await (await handleChatRequest(make(), post(chatBody))).text();
    expect(chat).not.toContain(PIN);
    expect(chat).toContain('welcome b');
    const agUiBody = JSON.stringify({ threadId: 't', messages: [{ id: 'u', role: 'user', content: 'go' }] });
    const agUi = await (await handleAgUiRequest(make(), post(agUiBody))).text();
    expect(agUi).not.toContain(PIN);
    expect(agUi).toContain('welcome b');
  });
});
