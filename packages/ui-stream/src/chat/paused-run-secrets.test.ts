import { AgentHarness } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { describe, expect, it } from 'vitest';
import { handleAgUiRequest } from '../ag-ui/handle-ag-ui-request.js';
import { APPROVAL_SECRET, createTools, MEMO } from '../scenarios.test-helper.js';
import { handleChatRequest } from './handle-chat-request.js';

/** A paused `pay` call whose model, once resumed, repeats the sensitive memo it sent (ui-r2 a5). */
function echoingHarness() {
  const { tools } = createTools();
  const model = new ScriptedModel({
    steps: [
      { toolCalls: [scriptedToolCall('pay', { to: 'ada', cents: 500, memo: MEMO }, 'c2')] },
      { content: `I did not send the memo ${MEMO}.` },
    ],
    chunkSize: 4,
  });
  return new AgentHarness({ model, tools, approvalSecret: APPROVAL_SECRET });
}

const post = (body: unknown) => new Request('http://127.0.0.1/api', { method: 'POST', body: JSON.stringify(body) });

function frames(text: string): Record<string, unknown>[] {
  return text
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: ') && frame !== 'data: [DONE]')
    .map((frame) => JSON.parse(frame.slice(6)));
}

describe('a resumed run scrubs the sensitive arguments of the calls it was paused on', () => {
  for (const approved of [false, true]) {
    it(`chat, ${approved ? 'approved' : 'denied'}: the model repeating the memo shows [redacted]`, async () => {
      const harness = echoingHarness();
      const context = { hostValues: { apiKey: 'sk-host-injected-4242' } };
      const user = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'pay' }] };
      const first = frames(await (await handleChatRequest(harness, post({ messages: [user] }), { context })).text());
      const request = first.find((chunk) => chunk.type === 'tool-approval-request') as { approvalId: string };
      const assistant = {
        id: 'a1',
        role: 'assistant',
        parts: [
          {
            type: 'tool-pay',
            toolCallId: 'c2',
            state: 'approval-responded',
            input: {},
            approval: { id: request.approvalId, approved },
          },
        ],
      };
      const second = await (
        await handleChatRequest(harness, post({ messages: [user, assistant] }), { context })
      ).text();
      const text = frames(second)
        .filter((chunk) => chunk.type === 'text-delta')
        .map((chunk) => chunk.delta)
        .join('');
      expect(text).toBe('I did not send the memo [redacted].');
      expect(second).not.toContain(MEMO);
    });

    it(`AG-UI, ${approved ? 'approved' : 'denied'}: the model repeating the memo shows [redacted]`, async () => {
      const harness = echoingHarness();
      const options = { context: { hostValues: { apiKey: 'sk-host-injected-4242' } } };
      const started = { threadId: 't', messages: [{ id: 'u', role: 'user', content: 'pay' }] };
      const first = frames(await (await handleAgUiRequest(harness, post(started), options)).text());
      const finished = first.at(-1) as { outcome?: { interrupts?: { id: string }[] } };
      const ids = (finished.outcome?.interrupts ?? []).map((interrupt) => interrupt.id);
      expect(ids).toHaveLength(1);
      const resume = ids.map((id) => ({ interruptId: id, status: 'resolved', payload: { approved } }));
      const second = await (
        await handleAgUiRequest(harness, post({ threadId: 't', messages: [], resume }), options)
      ).text();
      const text = frames(second)
        .filter((event) => event.type === 'TEXT_MESSAGE_CONTENT')
        .map((event) => event.delta)
        .join('');
      expect(text).toBe('I did not send the memo [redacted].');
      expect(second).not.toContain(MEMO);
    });
  }
});
