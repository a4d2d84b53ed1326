import { describe, expect, it } from 'vitest';
import { handleAgUiRequest } from '../ag-ui/handle-ag-ui-request.js';
import { createScenario } from '../scenarios.test-helper.js';
import { InMemoryApprovalStore } from './approval-store.js';
import { handleChatRequest } from './handle-chat-request.js';

const post = (body: unknown) => new Request('http://127.0.0.1/api', { method: 'POST', body: JSON.stringify(body) });

function frames(text: string): Record<string, unknown>[] {
  return text
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: ') && frame !== 'data: [DONE]')
    .map((frame) => JSON.parse(frame.slice(6)));
}

const user = (id: string, text: string) => ({ id, role: 'user', parts: [{ type: 'text', text }] });

// ui-r2 h2 (late) and a9: a client that sends only its new user message, then the old approval id.
describe('a new user turn voids the runs paused in its conversation', () => {
  it('chat: a later turn of the same chat id (history trimmed) voids the approval; another chat keeps its own', async () => {
    // One harness (and scripted model) per chat, one approval store.
    const chats = { 'chat-A': createScenario('approval'), 'chat-B': createScenario('approval') };
    type Chat = keyof typeof chats;
    const approvalStore = new InMemoryApprovalStore();
    const send = (chatId: Chat, messages: unknown[]) =>
      handleChatRequest(chats[chatId].harness, post({ id: chatId, messages }), {
        context: chats[chatId].context,
        approvalStore,
      });
    const pause = async (chatId: Chat) => {
      const chunks = frames(await (await send(chatId, [user('u1', 'pay')])).text());
      return chunks.find((chunk) => chunk.type === 'tool-approval-request') as {
        approvalId: string;
        toolCallId: string;
      };
    };
    const answer = (chatId: Chat, request: { approvalId: string; toolCallId: string }) =>
      send(chatId, [
        user('u1', 'pay'),
        {
          id: 'a1',
          role: 'assistant',
          parts: [
            {
              type: 'tool-pay',
              toolCallId: request.toolCallId,
              state: 'approval-responded',
              input: {},
              approval: { id: request.approvalId, approved: true },
            },
          ],
        },
      ]);
    const stale = await pause('chat-A');
    const kept = await pause('chat-B');
    expect(approvalStore.size).toBe(2);
    // Only the new message, without the paused assistant message: the chat moved on.
    await (await send('chat-A', [user('u2', 'never mind')])).text();
    const late = await answer('chat-A', stale);
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ problem: 'unknown_approval' });
    expect(chats['chat-A'].log).toEqual([]);
    const other = await answer('chat-B', kept);
    expect(other.status).toBe(200);
    await other.text();
    expect(chats['chat-B'].log).toEqual(['pay:ada:500:true']);
  });

  it('AG-UI: a new run in the same thread voids its interrupts', async () => {
    const { harness, log, context } = createScenario('approval');
    const options = { context, approvalStore: new InMemoryApprovalStore() };
    const started = { threadId: 'th-1', messages: [{ id: 'u1', role: 'user', content: 'pay' }] };
    const first = frames(await (await handleAgUiRequest(harness, post(started), options)).text());
    const finished = first.at(-1) as { outcome?: { interrupts?: { id: string }[] } };
    const ids = (finished.outcome?.interrupts ?? []).map((interrupt) => interrupt.id);
    expect(ids).toHaveLength(1);
    const moved = { threadId: 'th-1', messages: [{ id: 'u2', role: 'user', content: 'never mind' }] };
    await (await handleAgUiRequest(harness, post(moved), options)).text();
    const resume = ids.map((id) => ({ interruptId: id, status: 'resolved', payload: { approved: true } }));
    const late = await handleAgUiRequest(harness, post({ threadId: 'th-1', messages: [], resume }), options);
    expect(late.status).toBe(409);
    expect(log).toEqual([]);
  });
});
