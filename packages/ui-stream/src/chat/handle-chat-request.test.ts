import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentHarness } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import {
  AbstractChat,
  type ChatState,
  type ChatStatus,
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type UIMessage,
} from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { API_KEY, APPROVAL_SECRET, createScenario, createTools, MEMO } from '../scenarios.test-helper.js';
import { pipeResponseToNode } from '../sse/sse.js';
import { type ChatRequestOptions, handleChatRequest } from './handle-chat-request.js';

/** A chat state in plain memory (what `useChat` keeps in React state). */
class MemoryState implements ChatState<UIMessage> {
  status: ChatStatus = 'ready';
  error: Error | undefined = undefined;
  messages: UIMessage[] = [];
  pushMessage = (message: UIMessage) => {
    this.messages = [...this.messages, message];
  };
  popMessage = () => {
    this.messages = this.messages.slice(0, -1);
  };
  replaceMessage = (index: number, message: UIMessage) => {
    this.messages = this.messages.map((existing, at) => (at === index ? message : existing));
  };
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/** The AI SDK's own chat client (what `useChat` wraps), over real HTTP. */
class TestChat extends AbstractChat<UIMessage> {
  private finished: (() => void)[] = [];
  constructor(api: string) {
    super({
      state: new MemoryState(),
      transport: new DefaultChatTransport({ api }),
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
      onFinish: () => {
        for (const resolve of this.finished.splice(0)) resolve();
      },
    });
  }
  get all(): UIMessage[] {
    return this.state.messages;
  }
  nextFinish(): Promise<void> {
    return new Promise((resolve) => this.finished.push(resolve));
  }
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A Node http server on 127.0.0.1 answering `useChat` with `handleChatRequest`; returns its URL. */
async function serve(harness: AgentHarness, options: ChatRequestOptions): Promise<string> {
  const server = createServer(async (req, res) => {
    const parts: Buffer[] = [];
    for await (const part of req) parts.push(part as Buffer);
    const body = JSON.parse(Buffer.concat(parts).toString('utf8'));
    await pipeResponseToNode(await handleChatRequest(harness, body, options), res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/chat`;
}

const toolPart = (message: UIMessage | undefined) =>
  message?.parts.find((part) => part.type === 'tool-pay') as
    | { state: string; approval?: { id: string }; input: unknown; output?: unknown }
    | undefined;

async function pausedChat() {
  const setup = createScenario('approval');
  const api = await serve(setup.harness, { context: setup.context });
  const chat = new TestChat(api);
  await chat.sendMessage({ text: 'pay ada 5 EUR' });
  const part = toolPart(chat.all.at(-1));
  expect(part).toMatchObject({ state: 'approval-requested', input: { to: 'ada', cents: 500, memo: '[redacted]' } });
  return { ...setup, api, chat, approvalId: part?.approval?.id as string };
}

async function post(api: string, body: unknown) {
  const response = await fetch(api, { method: 'POST', body: JSON.stringify(body) });
  return { status: response.status, text: await response.text() };
}

describe('handleChatRequest with the AI SDK chat client over HTTP', () => {
  it('pauses, and Approve resumes the run: the call runs once with its injected value, then the answer', async () => {
    const { chat, approvalId, log } = await pausedChat();
    expect(log).toEqual([]);
    const finished = chat.nextFinish();
    await chat.addToolApprovalResponse({ id: approvalId, approved: true });
    await finished;
    expect(log).toEqual(['pay:ada:500:true']);
    const message = chat.all.at(-1) as UIMessage;
    expect(chat.all).toHaveLength(2);
    expect(toolPart(message)).toMatchObject({ state: 'output-available', output: 'paid 500 to ada' });
    expect(message.parts.at(-1)).toMatchObject({ type: 'text', text: 'Done: paid ada.' });
    expect(JSON.stringify(chat.all)).not.toContain(MEMO);
    expect(JSON.stringify(chat.all)).not.toContain(API_KEY);
  });

  it('Deny answers the call with the denial: nothing runs, the part ends output-denied', async () => {
    const { chat, approvalId, log, model } = await pausedChat();
    const finished = chat.nextFinish();
    await chat.addToolApprovalResponse({ id: approvalId, approved: false, reason: 'not today' });
    await finished;
    expect(log).toEqual([]);
    expect(toolPart(chat.all.at(-1))).toMatchObject({ state: 'output-denied' });
    const denial = model.requests.at(-1)?.messages.find((message) => message.role === 'tool');
    expect(JSON.stringify(denial)).toContain('not today');
  });

  it('a replayed approval runs nothing the second time (409 unknown_approval)', async () => {
    const { chat, approvalId, log, api } = await pausedChat();
    const finished = chat.nextFinish();
    await chat.addToolApprovalResponse({ id: approvalId, approved: true });
    await finished;
    const paused = chat.all.slice(0, 2).map((message) => structuredClone(message));
    const replay = paused.map((message) => ({
      ...message,
      parts: message.parts.map((part) =>
        part.type === 'tool-pay'
          ? { ...part, state: 'approval-responded', approval: { id: approvalId, approved: true } }
          : part,
      ),
    }));
    const answer = await post(api, { messages: replay });
    expect(answer.status).toBe(409);
    expect(JSON.parse(answer.text)).toMatchObject({ error: 'ChatApprovalError', problem: 'unknown_approval' });
    expect(log).toEqual(['pay:ada:500:true']);
  });

  it('a forged approval id, or a real one for another call id, runs nothing', async () => {
    const { chat, approvalId, log, api } = await pausedChat();
    const [userMessage, assistant] = chat.all as [UIMessage, UIMessage];
    const respond = (id: string, toolCallId: string) => ({
      messages: [
        userMessage,
        {
          ...assistant,
          parts: assistant.parts.map((part) =>
            part.type === 'tool-pay'
              ? { ...part, toolCallId, state: 'approval-responded', approval: { id, approved: true } }
              : part,
          ),
        },
      ],
    });
    const forged = await post(api, respond('00000000-0000-4000-8000-000000000000', 'c2'));
    expect(forged.status).toBe(409);
    expect(JSON.parse(forged.text).problem).toBe('unknown_approval');
    const mismatched = await post(api, respond(approvalId, 'c9'));
    expect(mismatched.status).toBe(409);
    expect(JSON.parse(mismatched.text).problem).toBe('mismatched_call');
    expect(log).toEqual([]);
    // The refused attempts consumed nothing: the real response still resumes.
    const finished = chat.nextFinish();
    await chat.addToolApprovalResponse({ id: approvalId, approved: true });
    await finished;
    expect(log).toEqual(['pay:ada:500:true']);
  });

  it('answers a body that is not { messages } with 400', async () => {
    const { harness } = createScenario('native');
    const api = await serve(harness, {});
    const answer = await post(api, { messages: 'hello' });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toMatchObject({ error: 'InvalidInputError' });
  });

  it('runs the arguments the server kept, whatever input the client sends back with its approval', async () => {
    const { chat, approvalId, log, api } = await pausedChat();
    const [userMessage, assistant] = chat.all as [UIMessage, UIMessage];
    const edited = {
      ...assistant,
      parts: assistant.parts.map((part) =>
        part.type === 'tool-pay'
          ? {
              ...part,
              input: { to: 'mallory', cents: 99_999 },
              state: 'approval-responded',
              approval: { id: approvalId, approved: true },
            }
          : part,
      ),
    };
    const answer = await post(api, { messages: [userMessage, edited] });
    expect(answer.status).toBe(200);
    expect(log).toEqual(['pay:ada:500:true']);
  });

  it('with two pending approvals, answering one is refused (incomplete, nothing consumed); answering both resumes', async () => {
    const { log, tools } = createTools();
    const model = new ScriptedModel({
      steps: [
        {
          toolCalls: [
            scriptedToolCall('pay', { to: 'ada', cents: 1, memo: MEMO }, 'p1'),
            scriptedToolCall('pay', { to: 'bob', cents: 2, memo: MEMO }, 'p2'),
          ],
        },
        { content: 'Paid one.' },
      ],
    });
    const harness = new AgentHarness({ model, tools, approvalSecret: APPROVAL_SECRET });
    const api = await serve(harness, { context: { hostValues: { apiKey: API_KEY } } });
    const chat = new TestChat(api);
    await chat.sendMessage({ text: 'pay both' });
    const [userMessage, assistant] = chat.all as [UIMessage, UIMessage];
    const approvals = assistant.parts.flatMap((part) =>
      part.type === 'tool-pay' && part.state === 'approval-requested'
        ? [{ callId: part.toolCallId, id: part.approval.id }]
        : [],
    );
    expect(approvals.map((approval) => approval.callId)).toEqual(['p1', 'p2']);
    const answer = (decisions: Record<string, boolean>) => ({
      messages: [
        userMessage,
        {
          ...assistant,
          parts: assistant.parts.map((part) => {
            if (part.type !== 'tool-pay' || !(part.toolCallId in decisions)) return part;
            const id = approvals.find((approval) => approval.callId === part.toolCallId)?.id;
            return { ...part, state: 'approval-responded', approval: { id, approved: decisions[part.toolCallId] } };
          }),
        },
      ],
    });
    const partial = await post(api, answer({ p1: true }));
    expect(partial.status).toBe(409);
    expect(JSON.parse(partial.text)).toMatchObject({ problem: 'incomplete' });
    expect(log).toEqual([]);
    const both = await post(api, answer({ p1: true, p2: false }));
    expect(both.status).toBe(200);
    expect(both.text).toContain('"type":"tool-output-denied","toolCallId":"p2"');
    expect(log).toEqual(['pay:ada:1:true']);
  });
});
