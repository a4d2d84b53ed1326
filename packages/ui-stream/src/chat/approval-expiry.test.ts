import { AgentHarness } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { InMemoryApprovalStore } from './approval-store.js';
import { handleChatRequest } from './handle-chat-request.js';

async function sse(response: Response): Promise<UIMessageChunk[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((frame) => frame !== '' && frame !== 'data: [DONE]')
    .map((frame) => JSON.parse(frame.slice('data: '.length)) as UIMessageChunk);
}

/** The assistant message a client assembles from the chunks. */
async function message(chunks: readonly UIMessageChunk[]): Promise<UIMessage> {
  let last: UIMessage | undefined;
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  for await (const current of readUIMessageStream({ stream })) last = current;
  return last as UIMessage;
}

/** A chat whose model pays when asked and otherwise answers in text; `ran` lists the payments. */
function paymentChat() {
  const ran: string[] = [];
  const pay = defineTool({
    name: 'pay',
    description: 'Pays.',
    parameters: Type.Object({ to: Type.String(), cents: Type.Integer() }),
    policy: ToolPolicy.classified().withSideEffects({ payment: true }).requiringApproval(),
    execute: ({ to, cents }) => {
      ran.push(`${to}:${cents}`);
      return 'paid';
    },
  });
  const model = new ScriptedModel({
    repeatLast: true,
    steps: [
      (request) => {
        const last = request.messages.at(-1);
        if (last?.role === 'tool') return { content: 'paid' };
        const text = typeof last?.content === 'string' ? last.content : '';
        if (text.includes('pay')) return { toolCalls: [scriptedToolCall('pay', { to: 'bob', cents: 50000 }, 'c1')] };
        return { content: 'OK, forget it.' };
      },
    ],
  });
  const harness = new AgentHarness({ model, tools: [pay], approvalSecret: 'z'.repeat(40) });
  return { ran, harness };
}

/** `assistant` with every approval request answered `approved`. */
function approve(assistant: UIMessage): UIMessage {
  return {
    ...assistant,
    parts: assistant.parts.map((part) =>
      'state' in part && part.state === 'approval-requested'
        ? ({
            ...part,
            state: 'approval-responded',
            approval: { ...part.approval, approved: true },
          } as unknown as typeof part)
        : part,
    ),
  };
}

const user = (id: string, text: string): UIMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] });

// Breaker #H: the user moved on past a paused run; its old approval body arrived later and ran.
describe('approvals of a paused run the conversation moved past', () => {
  it('are void once a new user message starts a new run: a late approval never runs', async () => {
    const { ran, harness } = paymentChat();
    const store = new InMemoryApprovalStore();
    const first = user('u1', 'pay bob 500');
    const paused = await message(
      await sse(await handleChatRequest(harness, { messages: [first] }, { approvalStore: store })),
    );
    expect(store.size).toBe(1);
    const moved = [first, paused, user('u2', 'never mind, cancel that')];
    await (await handleChatRequest(harness, { messages: moved }, { approvalStore: store })).text();
    expect(store.size).toBe(0);
    const late = await handleChatRequest(harness, { messages: [first, approve(paused)] }, { approvalStore: store });
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ problem: 'unknown_approval' });
    expect(ran).toEqual([]);
  });

  it('expire approvalTtlMs after the pause, and an answer in time still runs', async () => {
    for (const [elapsed, expected] of [
      [59_999, ['bob:50000']],
      [60_000, []],
    ] as const) {
      const { ran, harness } = paymentChat();
      let now = 1_000;
      const store = new InMemoryApprovalStore({ approvalTtlMs: 60_000, now: () => now });
      const first = user('u1', 'pay bob 500');
      const paused = await message(
        await sse(await handleChatRequest(harness, { messages: [first] }, { approvalStore: store })),
      );
      now += elapsed;
      const answer = await handleChatRequest(harness, { messages: [first, approve(paused)] }, { approvalStore: store });
      await answer.text();
      expect(answer.status).toBe(expected.length === 0 ? 409 : 200);
      expect(ran).toEqual(expected);
    }
    expect(() => new InMemoryApprovalStore({ approvalTtlMs: 0 })).toThrow(/approvalTtlMs/);
  });
});
