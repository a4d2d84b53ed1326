import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentHarness, type AgentRunStream, sensitive } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { readUIMessageStream, type UIMessage, uiMessageChunkSchema } from 'ai';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { InMemoryApprovalStore } from '../chat/approval-store.js';
import { API_KEY, createScenario, MEMO, type Scenario } from '../scenarios.test-helper.js';
import { toUIMessageStream, type UIStreamOptions } from './to-ui-message-stream.js';
import type { UIMessageChunk } from './ui-message-chunk.js';
import { pipeUIMessageStreamToNodeResponse, toUIMessageStreamResponse } from './ui-message-stream-response.js';

const user = (text: string) => [{ role: 'user' as const, content: text }];

async function collect(stream: ReadableStream<UIMessageChunk>): Promise<UIMessageChunk[]> {
  const chunks: UIMessageChunk[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<UIMessageChunk>) chunks.push(chunk);
  return chunks;
}

/** Every chunk through `ai`'s own chunk schema (its `uiMessageChunkSchema`), then `readUIMessageStream`. */
async function readWithAi(chunks: readonly UIMessageChunk[], message?: UIMessage) {
  const schema = uiMessageChunkSchema();
  for (const chunk of chunks) {
    const checked = await schema.validate?.(JSON.parse(JSON.stringify(chunk)));
    expect(checked?.success, JSON.stringify(chunk)).toBe(true);
  }
  const errors: unknown[] = [];
  let last: UIMessage | undefined;
  const source = new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(JSON.parse(JSON.stringify(chunk)));
      controller.close();
    },
  });
  for await (const snapshot of readUIMessageStream({
    stream: source,
    ...(message ? { message } : {}),
    onError: (error) => errors.push(error),
  }))
    last = snapshot;
  return { message: last as UIMessage, errors };
}

async function run(scenario: Scenario, options: UIStreamOptions = {}, policy = { captureToolIo: true }) {
  const setup = createScenario(scenario);
  const stream: AgentRunStream = setup.harness.stream(setup.context, user('go'), { policy });
  const chunks = await collect(toUIMessageStream(stream, { tools: setup.harness, ...options }));
  return { ...setup, chunks };
}

describe('toUIMessageStream read by ai@6 readUIMessageStream', () => {
  it('streams a native call: text, the tool part with input and output, progress, the answer, usage', async () => {
    const { chunks } = await run('native');
    const { message, errors } = await readWithAi(chunks);
    expect(errors).toEqual([]);
    expect(chunks[0]).toEqual({ type: 'start' });
    expect(chunks.at(-1)).toMatchObject({
      type: 'finish',
      finishReason: 'stop',
      messageMetadata: { outcome: 'final' },
    });
    const parts = message.parts.filter((part) => part.type !== 'step-start');
    expect(parts).toMatchObject([
      { type: 'text', text: 'Let me check.', state: 'done' },
      {
        type: 'tool-lookup',
        toolCallId: 'c1',
        state: 'output-available',
        input: { id: 'a1' },
        output: 'account a1: 120 EUR',
      },
      { type: 'data-tool-progress', id: 'c1', data: { toolCallId: 'c1', message: 'found', fraction: 1 } },
      { type: 'text', text: 'Account a1 holds 120 EUR.', state: 'done' },
    ]);
    expect(message.parts.filter((part) => part.type === 'step-start')).toHaveLength(2);
  });

  it('streams a prompt-guided (text dialect) call like a native one: no call markup in text parts', async () => {
    const { chunks } = await run('prompt_guided');
    const { message, errors } = await readWithAi(chunks);
    expect(errors).toEqual([]);
    const texts = message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : []));
    expect(texts.join('')).not.toMatch(/<|tool_call|"arguments"/);
    expect(texts.map((text) => text.trim())).toEqual(['Let me check.', 'Account a1 holds 120 EUR.']);
    const tool = message.parts.find((part) => part.type === 'tool-lookup');
    expect(tool).toMatchObject({ state: 'output-available', input: { id: 'a1' }, output: 'account a1: 120 EUR' });
  });

  it('pauses for approval: the tool part asks for approval with redacted input; no secret on the wire', async () => {
    const store = new InMemoryApprovalStore();
    const { chunks, log } = await run('approval', { approvalStore: store });
    const { message, errors } = await readWithAi(chunks);
    expect(errors).toEqual([]);
    expect(log).toEqual([]);
    const tool = message.parts.find((part) => part.type === 'tool-pay');
    expect(tool).toMatchObject({
      state: 'approval-requested',
      toolCallId: 'c2',
      input: { to: 'ada', cents: 500, memo: '[redacted]' },
    });
    expect(message.parts.find((part) => part.type === 'data-tool-input-redacted')).toMatchObject({ id: 'c2' });
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool-calls' });
    expect(store.size).toBe(1);
    const wire = JSON.stringify(chunks);
    expect(wire).not.toContain(MEMO);
    expect(wire).not.toContain(API_KEY);
  });

  it('answers a tool error with an output-error part and continues', async () => {
    const { chunks } = await run('tool_error');
    const { message } = await readWithAi(chunks);
    expect(message.parts.find((part) => part.type === 'tool-broken')).toMatchObject({
      state: 'output-error',
      errorText: expect.stringContaining('the disk is full'),
    });
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
  });

  it('ends a failed run with an error chunk naming the ModelCallError kind, then finish', async () => {
    const { chunks } = await run('model_error');
    const { errors } = await readWithAi(chunks);
    const error = chunks.find((chunk) => chunk.type === 'error');
    expect(error).toMatchObject({ errorText: expect.stringContaining('ModelCallError (auth)') });
    expect(errors).toHaveLength(1);
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'error' });
  });

  it('shows no tool input or output without captureToolIo (the events carry none)', async () => {
    const { chunks } = await run('native', {}, { captureToolIo: false });
    const { message } = await readWithAi(chunks);
    expect(message.parts.find((part) => part.type === 'tool-lookup')).toMatchObject({
      state: 'output-available',
      input: null,
      output: null,
    });
  });
});

describe('toUIMessageStream edges', () => {
  it('a cancelled run ends with abort then finish, every part closed', async () => {
    const setup = createScenario('native');
    const controller = new AbortController();
    const stream = setup.harness.stream({ ...setup.context, signal: controller.signal }, user('go'), {
      onEvent: (event) => {
        if (event.type === 'model_delta') controller.abort(new Error('client went away'));
      },
    });
    const chunks = await collect(toUIMessageStream(stream));
    expect(chunks.slice(-2)).toEqual([
      { type: 'abort', reason: 'The run was cancelled.' },
      { type: 'finish', finishReason: 'other' },
    ]);
    const { errors } = await readWithAi(chunks);
    expect(errors).toEqual([]);
    expect(chunks.filter((chunk) => chunk.type === 'text-start')).toHaveLength(1);
    expect(chunks.filter((chunk) => chunk.type === 'text-end')).toHaveLength(1);
    expect(chunks.some((chunk) => chunk.type === 'tool-output-available')).toBe(false);
  });

  it('transient progress reaches onData only, never the message', async () => {
    const { chunks } = await run('native', { progress: 'transient' });
    expect(
      chunks
        .filter((chunk) => chunk.type === 'data-tool-progress')
        .every((chunk) => 'transient' in chunk && chunk.transient),
    ).toBe(true);
    const { message } = await readWithAi(chunks);
    expect(message.parts.some((part) => part.type === 'data-tool-progress')).toBe(false);
  });

  it('never streams the argument text of a tool with a sensitive field, even with captureToolIo', async () => {
    const login = defineTool({
      name: 'login',
      description: 'Log in.',
      parameters: Type.Object({ user: Type.String(), password: sensitive(Type.String()) }),
      policy: ToolPolicy.readOnly(),
      execute: ({ user: name }) => `welcome ${name}`,
    });
    const model = new ScriptedModel({
      chunkSize: 2,
      steps: [{ toolCalls: [scriptedToolCall('login', { user: 'ada', password: MEMO }, 'c1')] }, { content: 'in' }],
    });
    const harness = new AgentHarness({ model, tools: [login] });
    const chunks = await collect(
      toUIMessageStream(harness.stream('go', { policy: { captureToolIo: true } }), { tools: harness }),
    );
    expect(JSON.stringify(chunks)).not.toContain(MEMO);
    expect(chunks.some((chunk) => chunk.type === 'tool-input-delta')).toBe(false);
    const { message } = await readWithAi(chunks);
    expect(message.parts.find((part) => part.type === 'tool-login')).toMatchObject({
      state: 'output-available',
      input: { user: 'ada', password: '[redacted]' },
    });
    expect(message.parts.some((part) => part.type === 'data-tool-input-redacted')).toBe(true);
  });

  it('scrubs the given secrets from every chunk (a value a tool holds by closure, not injection)', async () => {
    const key = 'closure-held-key-31337';
    const leak = defineTool({
      name: 'leak',
      description: 'Leaks.',
      parameters: Type.Object({}),
      policy: ToolPolicy.readOnly(),
      execute: (_args, context) => {
        context.reportProgress({ message: `using ${key}` });
        return `the key is ${key}`;
      },
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('leak', {}, 'c1')] }, { content: 'ok' }],
    });
    const harness = new AgentHarness({ model, tools: [leak] });
    const stream = harness.stream('go', { policy: { captureToolIo: true } });
    const chunks = await collect(toUIMessageStream(stream, { secrets: [key] }));
    expect(JSON.stringify(chunks)).not.toContain(key);
    expect(chunks.find((chunk) => chunk.type === 'tool-output-available')).toMatchObject({
      output: 'the key is [redacted]',
    });
  });
});

describe('response helpers', () => {
  it('toUIMessageStreamResponse: the AI SDK headers, one data event per chunk, then [DONE]', async () => {
    const setup = createScenario('native');
    const response = toUIMessageStreamResponse(setup.harness.stream(setup.context, user('go')));
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const frames = (await response.text()).split('\n\n').filter((frame) => frame !== '');
    expect(frames.at(-1)).toBe('data: [DONE]');
    const chunks = frames.slice(0, -1).map((frame) => JSON.parse(frame.slice('data: '.length)) as UIMessageChunk);
    expect((await readWithAi(chunks)).message.parts.some((part) => part.type === 'tool-lookup')).toBe(true);
  });

  it('pipeUIMessageStreamToNodeResponse serves the stream over Node http', async () => {
    const setup = createScenario('native');
    const server = createServer((_req, res) => {
      void pipeUIMessageStreamToNodeResponse(setup.harness.stream(setup.context, user('go')), res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
      const text = await response.text();
      expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
      expect(text).toContain('"type":"finish"');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
