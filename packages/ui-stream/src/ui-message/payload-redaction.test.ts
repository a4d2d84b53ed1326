import { AgentHarness, sensitive } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { defineTool, type JsonValue, ToolPolicy, ToolResult } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { handleAgUiRequest } from '../ag-ui/handle-ag-ui-request.js';
import { toAgUiEvents } from '../ag-ui/to-ag-ui-events.js';
import type { ApprovalStateStore } from '../chat/approval-store.js';
import { handleChatRequest } from '../chat/handle-chat-request.js';
import { toUIMessageStream } from './to-ui-message-stream.js';
import { toUIMessageStreamResponse } from './ui-message-stream-response.js';

const PIN = 'pinVAL-55aa77bb';
const KEY = 'hostKEY-7f3a91c2';

async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream as unknown as AsyncIterable<T>) out.push(item);
  return out;
}

/** The events of an SSE body (AI SDK or AG-UI), `[DONE]` left out. */
async function sse(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((frame) => frame !== '' && frame !== 'data: [DONE]')
    .map((frame) => JSON.parse(frame.slice('data: '.length)) as Record<string, unknown>);
}

const chatBody = { messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'go' }] }] };
const agUiBody = { threadId: 't', runId: 'r', messages: [{ id: 'u1', role: 'user', content: 'go' }] };

/** Every text a client assembles from the text deltas, and the whole wire. */
function seen(items: readonly Record<string, unknown>[]): string {
  const text = items.map((item) => (typeof item.delta === 'string' ? item.delta : '')).join('');
  return `${JSON.stringify(items)}\n${text}`;
}

describe('what the streams show of a run', () => {
  // Breaker #C (ui-stream side): a prompt-guided call cut off inside its arguments.
  it('never shows the markup or values of a text call cut off inside its arguments', async () => {
    const login = defineTool({
      name: 'login',
      description: 'Logs in.',
      parameters: Type.Object({ user: Type.String(), password: sensitive(Type.String()) }),
      policy: ToolPolicy.readOnly(),
      execute: () => 'welcome',
    });
    for (const finishReason of ['length', 'stop'] as const) {
      const steps = [
        {
          content: `Logging in. <tool_call>{"name":"login","arguments":{"user":"ada","password":"${PIN}`,
          finishReason,
        },
        { content: 'end' },
      ];
      const make = () =>
        new AgentHarness({
          model: new ScriptedModel({ steps, chunkSize: 7, profile: { toolCalling: false } }),
          tools: [login],
        });
      const ui = await collect(toUIMessageStream(make().stream('go'), { tools: [login] }));
      const agUi = await collect(toAgUiEvents(make().stream('go'), { tools: [login] }));
      for (const items of [ui, agUi] as Record<string, unknown>[][]) {
        expect(seen(items)).not.toMatch(/tool_call|"arguments"|pinVAL/);
      }
      expect(agUi.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: 'end' });
      expect(ui.some((chunk) => chunk.type === 'tool-input-error' || chunk.type === 'tool-output-error')).toBe(true);
    }
  });

  // Breakers #A and #D: numeric host values leak; protocol fields equal to a host value were rewritten.
  it('redacts numbers equal to a host value, and never rewrites protocol fields or a tool name', async () => {
    const balance = defineTool({
      name: 'weather',
      description: 'Reads a balance.',
      parameters: Type.Object({ account: Type.Number() }),
      injected: [{ name: 'account', source: 'host' }],
      policy: ToolPolicy.readOnly(),
      execute: ({ account }, context) => {
        context.reportProgress({ message: 'reading', partial: { account } });
        context.emit({ account });
        return ToolResult.success(`balance of ${account}: 12 EUR`).withStateUpdate({ account });
      },
    });
    const make = () =>
      new AgentHarness({
        model: new ScriptedModel({
          steps: [{ toolCalls: [scriptedToolCall('weather', {}, 'c1')] }, { content: 'done' }],
        }),
        tools: [balance],
      });
    // Host values equal to a chunk type, an AG-UI role and the tool's own name.
    const context = { hostValues: { account: 40012345678, plan: 'finish', persona: 'assistant', city: 'weather' } };
    const chat = await sse(await handleChatRequest(make(), chatBody, { context }));
    const agUi = await sse(await handleAgUiRequest(make(), agUiBody, { context }));
    for (const items of [chat, agUi]) expect(JSON.stringify(items)).not.toContain('40012345678');
    expect(chat.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
    expect(chat).toContainEqual(expect.objectContaining({ type: 'tool-input-available', toolName: 'weather' }));
    expect(chat.filter((chunk) => chunk.type === 'finish-step')).toHaveLength(2);
    expect(agUi).toContainEqual(expect.objectContaining({ type: 'TEXT_MESSAGE_START', role: 'assistant' }));
    expect(agUi).toContainEqual(expect.objectContaining({ type: 'TOOL_CALL_START', toolCallName: 'weather' }));
  });

  // Breaker #B: a host value, and a sensitive argument the model sent, repeated in text split across deltas.
  it('scrubs secrets split across text deltas: host values and the sensitive arguments of the run', async () => {
    const echo = defineTool({
      name: 'echo',
      description: 'Echoes.',
      parameters: Type.Object({ q: Type.String(), pin: sensitive(Type.String()), apiKey: Type.String() }),
      injected: [{ name: 'apiKey', source: 'host' }],
      policy: ToolPolicy.readOnly(),
      execute: () => 'ok',
    });
    const context = { hostValues: { apiKey: KEY } };
    for (const chunkSize of [1, 3, 5]) {
      const steps = [
        { toolCalls: [scriptedToolCall('echo', { q: 'hi', pin: PIN }, 'c1')] },
        { content: `I used the pin ${PIN} and the key ${KEY}.` },
      ];
      const make = () => new AgentHarness({ model: new ScriptedModel({ steps, chunkSize }), tools: [echo] });
      const chat = await sse(await handleChatRequest(make(), chatBody, { context }));
      const agUi = await sse(await handleAgUiRequest(make(), agUiBody, { context }));
      for (const items of [chat, agUi]) {
        expect(seen(items)).not.toContain(PIN);
        expect(seen(items)).not.toContain(KEY);
        expect(seen(items)).toContain('I used the pin [redacted] and the key [redacted].');
      }
    }
  });

  // ui-r2 a3/a2: a host value written with JSON escapes (or split) in raw argument text passes any
  // per-delta scrub; with a secret in the run no raw delta streams, the input arrives whole and scrubbed.
  it('with any secret in the run, streams no raw argument deltas: the input arrives decoded and scrubbed', async () => {
    const note = defineTool({
      name: 'note',
      description: 'Notes.',
      parameters: Type.Object({ text: Type.String() }),
      policy: ToolPolicy.readOnly(),
      execute: () => 'noted',
    });
    const escaped = [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const raw = `{"text":"${escaped}"}`;
    for (const chunkSize of [3, 1000]) {
      const call = { ...scriptedToolCall('note', JSON.parse(raw), 'c1'), rawArguments: raw };
      const make = () =>
        new AgentHarness({
          model: new ScriptedModel({ steps: [{ toolCalls: [call] }, { content: 'end' }], chunkSize }),
          tools: [note],
        });
      const chat = await sse(await handleChatRequest(make(), chatBody, { context: { hostValues: { key: KEY } } }));
      expect(chat.filter((chunk) => chunk.type === 'tool-input-delta')).toEqual([]);
      expect(chat.find((chunk) => chunk.type === 'tool-input-available')).toMatchObject({
        input: { text: '[redacted]' },
      });
      expect(JSON.stringify(chat)).not.toContain(escaped);
      // Without secrets the argument text still streams.
      const open = await sse(await handleChatRequest(make(), chatBody));
      expect(open.filter((chunk) => chunk.type === 'tool-input-delta').length).toBeGreaterThan(0);
    }
  });

  // Breaker #E: unserializable values in progress, emit and state updates.
  it('streams unserializable tool values as plain data and ends every stream well-formed', async () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const getter = Object.defineProperty({}, 'boom', {
      enumerable: true,
      get() {
        throw new Error('getter boom');
      },
    });
    let deep: unknown = 'leaf';
    for (let index = 0; index < 5000; index += 1) deep = { deep };
    for (const value of [
      10n,
      cycle,
      getter,
      {
        toJSON: () => {
          throw new Error('toJSON boom');
        },
      },
      deep,
    ]) {
      const tool = defineTool({
        name: 'odd',
        description: 'Reports odd values.',
        parameters: Type.Object({}),
        policy: ToolPolicy.readOnly(),
        execute: (_, context) => {
          // Host code can hand any value here (a plain-JSON type in its signature does not stop it).
          const odd = value as JsonValue;
          context.reportProgress({ message: 'odd', partial: odd });
          context.emit(odd);
          return ToolResult.success('ok').withStateUpdate(odd);
        },
      });
      const make = () =>
        new AgentHarness({
          model: new ScriptedModel({
            steps: [{ toolCalls: [scriptedToolCall('odd', {}, 'c1')] }, { content: 'done' }],
          }),
          tools: [tool],
        });
      const chat = await sse(toUIMessageStreamResponse(make().stream('go')));
      expect(chat.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
      const agUi = await sse(await handleAgUiRequest(make(), agUiBody));
      expect(agUi.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    }
  });

  // Breaker #G: an error without a run_failed event (the approval store threw, its message holding the state).
  it('describes an error the run did not report generically and hands it to onError', async () => {
    const pay = defineTool({
      name: 'pay',
      description: 'Pays.',
      parameters: Type.Object({ to: Type.String(), memo: sensitive(Type.String()) }),
      policy: ToolPolicy.classified().withSideEffects({ payment: true }).requiringApproval(),
      execute: () => 'paid',
    });
    const store: ApprovalStateStore = {
      save: (paused) => {
        throw new Error(`value too large to store: ${JSON.stringify(paused.state)}`);
      },
      get: () => undefined,
      take: () => undefined,
    };
    const logged: unknown[] = [];
    const make = () =>
      new AgentHarness({
        model: new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall('pay', { to: 'bob', memo: PIN }, 'c1')] }] }),
        tools: [pay],
        approvalSecret: 'ui-stream-tests-approval-secret-0123456789',
      });
    const onError = (error: unknown) => logged.push(error);
    const chat = await sse(await handleChatRequest(make(), chatBody, { approvalStore: store, onError }));
    const agUi = await sse(await handleAgUiRequest(make(), agUiBody, { approvalStore: store, onError }));
    expect(chat.slice(-2)).toEqual([
      { type: 'error', errorText: 'Error: the run failed (the server logged the details).' },
      { type: 'finish', finishReason: 'error' },
    ]);
    expect(agUi.at(-1)).toEqual({
      type: 'RUN_ERROR',
      message: 'Error: the run failed (the server logged the details).',
    });
    for (const items of [chat, agUi]) expect(JSON.stringify(items)).not.toContain('too large');
    expect(logged.map((error) => (error as Error).message)).toEqual([
      expect.stringContaining('value too large to store'),
      expect.stringContaining('value too large to store'),
    ]);
  });
});
