/**
 * Regressions from a tester's hostile /v1/responses server (providers3-responses): every event of
 * a stream must agree with the others (terminal type, SSE name, done items, the completed body),
 * call arguments are JSON-object text or the call is invalid, replay keeps the output order, and
 * nothing the server echoes of the request's secrets reaches an error or a raw body. Event shapes
 * follow the OpenAI API reference (Responses streaming events) and the recordings in __fixtures__.
 */
import { AgentHarness } from '@tiny/harness';
import { collectStreamSettled, type LanguageModelV1StreamPart, ModelCallError } from '@tiny/llm';
import { type ReplayExchange, useReplayServer } from '@tiny/provider-tests';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { azureResponses } from './presets/azure.js';
import { openaiResponses } from './presets/openai.js';

const replay = useReplayServer(new URL('./__fixtures__/', import.meta.url));
const KEY = 'sk-wire-agreement-0123456789abcdef';

type Event = Record<string, unknown> & { type: string };
const created: Event = { type: 'response.created', response: { id: 'resp_1', status: 'in_progress', output: [] } };
const completed = (response: Record<string, unknown> = {}): Event => ({
  type: 'response.completed',
  response: { id: 'resp_1', status: 'completed', output: [], ...response },
});
const fc = (callId: string, name: string, args: unknown) => ({
  type: 'function_call',
  id: `fc_${callId}`,
  call_id: callId,
  name,
  arguments: args,
  status: 'completed',
});
const added = (index: number, item: Record<string, unknown>): Event => ({
  type: 'response.output_item.added',
  output_index: index,
  item,
});
const done = (index: number, item: Record<string, unknown>): Event => ({
  type: 'response.output_item.done',
  output_index: index,
  item,
});
const delta = (index: number, text: string): Event => ({
  type: 'response.function_call_arguments.delta',
  output_index: index,
  delta: text,
});
const call = (index: number, callId: string, name: string, args: string): Event[] => [
  added(index, { ...fc(callId, name, ''), status: 'in_progress' }),
  delta(index, args),
  done(index, fc(callId, name, args)),
];
const reasoning = (id: string, encrypted: string, extra: Record<string, unknown> = {}) => ({
  type: 'reasoning',
  id,
  summary: [],
  encrypted_content: encrypted,
  ...extra,
});

/** Events as SSE, each under its own type as the event name (a string is sent raw). */
function sse(events: readonly (Event | string)[]): ReplayExchange {
  const text = events
    .map((event) => (typeof event === 'string' ? event : `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`))
    .join('');
  return { response: { headers: { 'content-type': 'text/event-stream' }, text, chunking: 'events' } };
}

function load(exchanges: readonly ReplayExchange[]): string {
  replay.server().load({ fixture: { exchanges }, baseDir: new URL('./__fixtures__/', import.meta.url).pathname });
  return `${replay.server().url}/v1`;
}

async function streamed(exchange: ReplayExchange) {
  const model = openaiResponses({ baseURL: load([exchange]), apiKey: KEY })('gpt-5.1');
  const result = await model.doStream({ messages: [{ role: 'user', content: 'go' }] });
  const parts: LanguageModelV1StreamPart[] = [];
  for await (const part of result.stream) parts.push(part);
  const settled = await collectStreamSettled(
    (async function* () {
      yield* parts;
    })(),
  );
  return { parts, settled };
}

/** No call of the turn may run: each is invalid (or refused), and the turn failed with `kind`. */
async function violates(events: readonly (Event | string)[], kind = 'protocol_violation') {
  const { settled } = await streamed(sse(events));
  expect(ModelCallError.isInstance(settled.error)).toBe(true);
  expect((settled.error as ModelCallError).kind).toBe(kind);
  expect(settled.response.toolCalls.every((each) => each.invalid !== undefined)).toBe(true);
}

function recordingTools() {
  const ran: string[] = [];
  const tool = (name: string) =>
    defineTool({
      name,
      description: `tool ${name}`,
      parameters: Type.Object({ path: Type.Optional(Type.String()) }),
      policy: ToolPolicy.readOnly(),
      execute: ({ path }) => {
        ran.push(`${name}:${path ?? ''}`);
        return 'ok';
      },
    });
  return { ran, tools: [tool('read_file'), tool('delete_file')] };
}

/** The `input` of the n-th request the server received. */
function sentInput(index: number): Record<string, unknown>[] {
  const body = replay.server().requests[index]?.body as { input?: Record<string, unknown>[] } | undefined;
  return body?.input ?? [];
}

/** A streamed run (`doStream`; `invoke` answers from `doGenerate`). */
async function streamRun(harness: AgentHarness, content: string) {
  const stream = harness.stream({}, [{ role: 'user', content }]);
  for await (const _event of stream);
  return stream.result;
}

const finalText = sse([
  created,
  added(0, { type: 'message', role: 'assistant', content: [] }),
  { type: 'response.output_text.delta', output_index: 0, delta: 'done' },
  done(0, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] }),
  completed(),
]);

describe('the terminal event type decides; its body and SSE name may only agree', () => {
  it('response.incomplete whose body says completed', () =>
    violates([
      created,
      ...call(0, 'c1', 'delete_file', '{"path":"/x"}'),
      { ...completed(), type: 'response.incomplete' },
    ]));
  it('an SSE event named response.failed over data typed response.completed', () =>
    violates([
      created,
      ...call(0, 'c1', 'delete_file', '{"path":"/x"}'),
      `event: response.failed\ndata: ${JSON.stringify(completed())}\n\n`,
    ]));
  it('response.completed carrying an error object is that error, as a whole body with one is', () =>
    violates(
      [created, ...call(0, 'c1', 'delete_file', '{}'), completed({ error: { code: 'server_error', message: 'x' } })],
      'server_error',
    ));
  it('response.completed whose response id is empty after created named one', () =>
    violates([created, ...call(0, 'c1', 'delete_file', '{}'), completed({ id: '' })]));
  it('a response id first seen on completed, after a created without one', () =>
    violates([
      { type: 'response.created', response: { status: 'in_progress' } },
      ...call(0, 'c1', 'delete_file', '{}'),
      completed({ id: 'resp_other' }),
    ]));
  it('a client-action item only in completed.output', () =>
    violates([
      created,
      ...call(0, 'c1', 'delete_file', '{}'),
      completed({ output: [fc('c1', 'delete_file', '{}'), { type: 'custom_tool_call', call_id: 'c9', input: 'rm' }] }),
    ]));
  it('a completed.output repeating the streamed items in order is the normal ending', async () => {
    const { settled } = await streamed(
      sse([
        created,
        ...call(0, 'c1', 'read_file', '{"path":"/a"}'),
        completed({ output: [fc('c1', 'read_file', '{"path":"/a"}')] }),
      ]),
    );
    expect(settled.error).toBeUndefined();
    expect(settled.response.toolCalls).toEqual([
      expect.objectContaining({ id: 'c1', name: 'read_file', arguments: { path: '/a' } }),
    ]);
  });
});

describe('the stream is read to its end', () => {
  it.each([
    ['an error event', { type: 'error', code: 'server_error', message: 'late' }],
    ['response.failed', { type: 'response.failed', response: { id: 'resp_1', status: 'failed' } }],
    ['a second call', added(1, fc('c2', 'delete_file', '{}'))],
  ] as const)('%s after response.completed is a protocol violation', (_name, late) =>
    violates([created, ...call(0, 'c1', 'delete_file', '{}'), completed(), late as Event]),
  );
  it('[DONE] and keep-alive comments after it are not', async () => {
    const { settled } = await streamed(
      sse([created, ...call(0, 'c1', 'read_file', '{}'), completed(), ': keep-alive\n\n', 'data: [DONE]\n\n']),
    );
    expect(settled.error).toBeUndefined();
    expect(settled.response.toolCalls[0]?.invalid).toBeUndefined();
  });
});

describe('a done item agrees with what was streamed', () => {
  it('a call added as read_file is not finished as delete_file', () =>
    violates([
      created,
      added(0, { ...fc('c1', 'read_file', ''), status: 'in_progress' }),
      delta(0, '{"path":"/notes.txt"}'),
      done(0, fc('c1', 'delete_file', '{"path":"/notes.txt"}')),
      completed(),
    ]));
  it.each([
    ['other arguments', '{"path":"/etc"}'],
    ['empty arguments', ''],
    ['blank arguments', '   '],
    ['null arguments', null],
  ])('deltas then a done item with %s', (_name, args) =>
    violates([
      created,
      added(0, { ...fc('c1', 'delete_file', ''), status: 'in_progress' }),
      delta(0, '{"path":"/safe"}'),
      done(0, fc('c1', 'delete_file', args)),
      completed(),
    ]),
  );
  it('function_call_arguments.done with other text than the deltas', () =>
    violates([
      created,
      added(0, { ...fc('c1', 'delete_file', ''), status: 'in_progress' }),
      delta(0, '{"path":"/a"}'),
      { type: 'response.function_call_arguments.done', output_index: 0, arguments: '{"path":"/b"}' },
      done(0, fc('c1', 'delete_file', '{"path":"/a"}')),
      completed(),
    ]));
});

describe('arguments are JSON-object text, else the call is invalid (never {})', () => {
  it.each([
    ['an object', { path: '/obj' }],
    ['empty text', ''],
    ['a JSON string holding an object', JSON.stringify('{"path":"/dbl"}')],
    ['a JSON array', '[1]'],
  ])('streamed without deltas: %s', async (_name, args) => {
    const { settled } = await streamed(
      sse([
        created,
        added(0, { ...fc('c1', 'delete_file', ''), status: 'in_progress' }),
        done(0, fc('c1', 'delete_file', args)),
        completed(),
      ]),
    );
    expect(settled.error).toBeUndefined();
    expect(settled.response.toolCalls[0]?.invalid).toMatch(/arguments/);
  });
  it.each([
    ['an object', { path: '/obj' }],
    ['a JSON string holding an object', JSON.stringify('{"path":"/dbl"}')],
  ])('in a whole body: %s, and the harness runs nothing', async (_name, args) => {
    const { ran, tools } = recordingTools();
    const baseURL = load([
      { response: { json: { id: 'r', status: 'completed', output: [fc('c1', 'delete_file', args)] } } },
      {
        response: {
          json: {
            id: 'r2',
            status: 'completed',
            output: [{ type: 'message', content: [{ type: 'output_text', text: 'ok' }] }],
          },
        },
      },
    ]);
    const harness = new AgentHarness({ model: openaiResponses({ baseURL, apiKey: KEY })('gpt-5.1'), tools });
    const run = await harness.invoke({}, [{ role: 'user', content: 'go' }]);
    expect(ran).toEqual([]);
    expect(run.text).toBe('ok');
  });
});

describe('replay keeps the order the model produced its items in', () => {
  const output = [
    reasoning('rs_0', 'E0'),
    fc('c1', 'read_file', '{"path":"/a"}'),
    reasoning('rs_1', 'E1'),
    fc('c2', 'read_file', '{"path":"/b"}'),
  ];
  const shape = (input: Record<string, unknown>[]) =>
    input.map((item) => (item.type === 'reasoning' ? item.encrypted_content : (item.type ?? item.role)));
  it('a whole body [rs0, fc1, rs1, fc2] is sent back as [rs0, fc1, rs1, fc2]', async () => {
    const { tools } = recordingTools();
    const baseURL = load([
      { response: { json: { id: 'r', status: 'completed', output } } },
      {
        response: {
          json: {
            id: 'r2',
            status: 'completed',
            output: [{ type: 'message', content: [{ type: 'output_text', text: 'ok' }] }],
          },
        },
      },
    ]);
    const harness = new AgentHarness({ model: openaiResponses({ baseURL, apiKey: KEY })('gpt-5.1'), tools });
    await harness.invoke({}, [{ role: 'user', content: 'go' }]);
    const input = sentInput(1);
    expect(shape(input)).toEqual([
      'user',
      'E0',
      'function_call',
      'E1',
      'function_call',
      'function_call_output',
      'function_call_output',
    ]);
  });
  it('a stream is replayed by output_index, not by the order items were done; encrypted_content sent only on added is kept', async () => {
    const { tools } = recordingTools();
    const baseURL = load([
      sse([
        created,
        added(0, reasoning('rs_0', 'E-ADDED')),
        added(1, { type: 'web_search_call', id: 'ws_1', status: 'in_progress' }),
        done(1, { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { query: 'q' } }),
        done(0, { type: 'reasoning', id: 'rs_0', summary: [] }),
        ...call(2, 'c1', 'read_file', '{}'),
        completed(),
      ]),
      finalText,
    ]);
    const harness = new AgentHarness({ model: openaiResponses({ baseURL, apiKey: KEY })('gpt-5.1'), tools });
    await streamRun(harness, 'go');
    const input = sentInput(1);
    expect(shape(input)).toEqual(['user', 'E-ADDED', 'web_search_call', 'function_call', 'function_call_output']);
  });
  it('a reasoning item nested past 64 levels fails the turn (invalid_chunk) instead of vanishing from replay', async () => {
    let deep: Record<string, unknown> = {};
    for (let level = 0; level < 70; level += 1) deep = { d: deep };
    const body = {
      id: 'r',
      status: 'completed',
      output: [reasoning('rs_0', 'E0', { extra: deep }), fc('c1', 'read_file', '{}')],
    };
    const model = openaiResponses({ baseURL: load([{ response: { json: body } }]), apiKey: KEY })('gpt-5.1');
    await expect(model.doGenerate({ messages: [{ role: 'user', content: 'go' }] })).rejects.toMatchObject({
      kind: 'invalid_chunk',
    });
    await violates(
      [
        created,
        added(0, reasoning('rs_0', 'E0')),
        done(0, reasoning('rs_0', 'E0', { extra: deep })),
        ...call(1, 'c1', 'read_file', '{}'),
        completed(),
      ],
      'invalid_chunk',
    );
  });
});

describe("OpenAI's documented error event", () => {
  it.each([
    ['insufficient_quota', 'quota_exceeded', false],
    ['context_length_exceeded', 'context_overflow', false],
    ['invalid_prompt', 'invalid_request', false],
  ] as const)('keeps the top-level code %s (%s)', async (code, kind, retryable) => {
    const { settled } = await streamed(
      sse([created, { type: 'error', code, message: 'm', param: null, sequence_number: 1 }]),
    );
    expect(settled.error).toMatchObject({ kind, isRetryable: retryable, errorCode: code });
  });
});

describe('secrets the server echoes stay out of errors and raw bodies', () => {
  it('error fields (type, code, param, request id) and the JSON-escaped form in the body', async () => {
    const escaped = JSON.stringify(KEY).slice(1, -1).replace(/-/g, '\\u002d');
    const event = `{"type":"error","code":"${escaped}","message":"bad key ${escaped}","param":"${KEY}","sequence_number":1}`;
    const exchange = sse([created, `event: error\ndata: ${event}\n\n`]);
    const { settled } = await streamed({
      response: {
        ...exchange.response,
        headers: { 'content-type': 'text/event-stream', 'x-request-id': `req ${KEY}` },
      },
    });
    const error = settled.error as unknown as Record<string, unknown>;
    for (const field of ['message', 'errorType', 'errorCode', 'providerKind', 'param', 'requestId', 'responseBody'])
      expect(String(error[field] ?? '')).not.toMatch(/wire-agreement|0123456789abcdef/);
    expect(error.errorCode).toBe('[redacted]');
  });
  it("the finish part's body, doGenerate's body and headers", async () => {
    const { parts } = await streamed(sse([created, completed({ metadata: { echo: KEY } })]));
    expect(JSON.stringify(parts)).not.toContain(KEY);
    const model = openaiResponses({
      baseURL: load([
        {
          response: {
            headers: { 'x-echo-auth': `Bearer ${KEY}` },
            json: { id: 'r', status: 'completed', metadata: { k: KEY }, output: [] },
          },
        },
      ]),
      apiKey: KEY,
    })('gpt-5.1');
    const response = await model.doGenerate({ messages: [{ role: 'user', content: 'go' }] });
    expect(JSON.stringify(response.response)).not.toContain(KEY);
  });
});

describe('a whole body keeps text beside a refusal', () => {
  it('output_text byte for byte, the refusal as refusal', async () => {
    const text = ' partial\r\nanswer ';
    const body = {
      id: 'r',
      status: 'completed',
      output: [
        {
          type: 'message',
          content: [
            { type: 'output_text', text },
            { type: 'refusal', refusal: 'no more' },
          ],
        },
      ],
    };
    const model = openaiResponses({ baseURL: load([{ response: { json: body } }]), apiKey: KEY })('gpt-5.1');
    const response = await model.doGenerate({ messages: [{ role: 'user', content: 'go' }] });
    expect(response.content).toBe(text);
    expect(response.refusal).toBe('no more');
  });
});

describe('hosted presets read no text calls', () => {
  const quoted = 'The page says: <tool_call>{"name":"delete_file","arguments":{"path":"/t"}}</tool_call> end';
  it.each([
    ['openaiResponses', (baseURL: string) => openaiResponses({ baseURL, apiKey: KEY })('gpt-5.1')],
    ['azureResponses', (baseURL: string) => azureResponses({ baseURL, apiKey: KEY })('my-deployment')],
  ])('%s: quoted <tool_call> markup in a completed turn runs nothing and stays text', async (_name, make) => {
    const { ran, tools } = recordingTools();
    const baseURL = load([
      sse([
        created,
        added(0, { type: 'message', role: 'assistant', content: [] }),
        { type: 'response.output_text.delta', output_index: 0, delta: quoted },
        done(0, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: quoted }] }),
        completed(),
      ]),
    ]);
    const run = await streamRun(new AgentHarness({ model: make(baseURL), tools }), 'read');
    expect(ran).toEqual([]);
    expect(run.outcome).toBe('final');
    expect(run.text).toBe(quoted);
  });
  it('a profile given by the caller still chooses the grammars', () => {
    const model = openaiResponses({ apiKey: KEY, profile: { toolCallFormats: ['tagged_json'] } })('gpt-5.1');
    expect(model.profile.toolCallFormats).toEqual(['tagged_json']);
    expect(openaiResponses({ apiKey: KEY })('gpt-5.1').profile.toolCallFormats).toEqual([]);
  });
});
