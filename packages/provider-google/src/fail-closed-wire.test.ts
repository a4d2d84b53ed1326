// Wire shapes a tester sent (providers3-google breakers, December 2026) that ran calls or lost
// arguments; each is served from 127.0.0.1 in Gemini's own wire form and must fail closed.
import { AgentHarness } from '@tiny/harness';
import { collectStreamSettled, type LanguageModelV1Request, type LanguageModelV1Response } from '@tiny/llm';
import { useLoopbackServer } from '@tiny/provider-tests';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { createGoogle } from './create-google.js';
import { GoogleCallError } from './errors/google-call-error.js';

const KEY = 'AIzaSyTESTKEY-0123456789abcdefSECRET';
const server = useLoopbackServer();
const model = () => createGoogle({ baseURL: `${server.url()}/v1beta`, apiKey: KEY })('gemini-2.5-flash');
const ask: LanguageModelV1Request = { messages: [{ role: 'user', content: 'go' }] };

const call = { functionCall: { name: 'delete_files', args: { path: '/' } } };
const candidate = (parts: unknown[], finishReason?: unknown, extra: Record<string, unknown> = {}) => ({
  candidates: [
    { content: { role: 'model', parts }, ...(finishReason === undefined ? {} : { finishReason }), ...extra },
  ],
});

/** Answers every request with `json` (a whole body) or `events` (an SSE stream). */
function serve(answer: { json?: unknown; events?: unknown[]; status?: number; type?: string }): void {
  server.handle((_request, response) => {
    if (answer.events !== undefined) {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(answer.events.map((event) => `data: ${JSON.stringify(event)}\r\n\r\n`).join(''));
      return;
    }
    response.writeHead(answer.status ?? 200, { 'content-type': answer.type ?? 'application/json' });
    response.end(JSON.stringify(answer.json));
  });
}

async function streamed(): Promise<{ response: LanguageModelV1Response; error: unknown }> {
  const settled = await collectStreamSettled(await model().doStream(ask));
  return { response: settled.response, error: settled.error };
}

async function failure(run: () => Promise<unknown>): Promise<GoogleCallError> {
  try {
    await run();
  } catch (error) {
    if (GoogleCallError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a GoogleCallError');
}

describe('finishReason: only Gemini values are read, anything else is error and no call runs', () => {
  // other providers' words (Anthropic, Cohere, Mistral, Bedrock) and STOP in another spelling
  const foreign = ['TOOL_USE', 'TOOL_CALLS', 'FUNCTION_CALL', 'END_TURN', 'STOP_SEQUENCE', 'EOS', 'COMPLETE'];
  const misspelled = ['PAUSE_TURN', 'stop', ' STOP ', 'Stop'];
  it.each([...foreign, ...misspelled])('%s, whole and streamed', async (reason) => {
    serve({ json: candidate([call], reason) });
    const whole = await model().doGenerate(ask);
    expect(whole.finishReason).toBe('error');
    expect(whole.rawFinishReason).toBe(reason);
    expect(whole.toolCalls[0]?.invalid).toContain(reason);
    serve({ events: [candidate([call], reason)] });
    const { response } = await streamed();
    expect(response.finishReason).toBe('error');
    expect(response.toolCalls[0]?.invalid).toContain(reason);
  });

  it.each([
    ['IMAGE_PROHIBITED_CONTENT', 'content_filter'],
    ['IMAGE_RECITATION', 'content_filter'],
    ['MISSING_THOUGHT_SIGNATURE', 'error'],
    ['MALFORMED_RESPONSE', 'error'],
  ])('the Gemini value %s is %s', async (reason, mapped) => {
    serve({ json: candidate([call], reason) });
    const whole = await model().doGenerate(ask);
    expect(whole.finishReason).toBe(mapped);
    expect(whole.toolCalls[0]?.invalid).toBeDefined();
  });
});

describe('a blocked prompt (promptFeedback.blockReason) anywhere is a content filter finish, no call runs', () => {
  it('beside a STOP candidate, whole and streamed', async () => {
    serve({ json: { ...candidate([call], 'STOP'), promptFeedback: { blockReason: 'SAFETY' } } });
    const whole = await model().doGenerate(ask);
    expect(whole).toMatchObject({ finishReason: 'content_filter', rawFinishReason: 'SAFETY' });
    expect(whole.toolCalls[0]?.invalid).toContain('blocked');
    serve({ events: [{ ...candidate([call], 'STOP'), promptFeedback: { blockReason: 'PROHIBITED_CONTENT' } }] });
    const { response } = await streamed();
    expect(response).toMatchObject({ finishReason: 'content_filter', rawFinishReason: 'PROHIBITED_CONTENT' });
    expect(response.toolCalls[0]?.invalid).toContain('blocked');
  });

  it('in a chunk after STOP', async () => {
    serve({ events: [candidate([call], 'STOP'), { promptFeedback: { blockReason: 'BLOCKLIST' } }] });
    const { response } = await streamed();
    expect(response.finishReason).toBe('content_filter');
    expect(response.toolCalls[0]?.invalid).toContain('BLOCKLIST');
  });
});

describe('only candidate 0 is read: any other index is a protocol violation', () => {
  it.each([
    ['index 1', candidate([call], 'STOP', { index: 1 })],
    ['index "1"', candidate([call], 'STOP', { index: '1' })],
    ['index "0" (a string)', candidate([call], 'STOP', { index: '0' })],
    [
      'two candidates',
      {
        candidates: [
          ...candidate([call], 'STOP', { index: 0 }).candidates,
          ...candidate([], 'SAFETY', { index: 1 }).candidates,
        ],
      },
    ],
  ])('%s, whole and streamed', async (_name, body) => {
    serve({ json: body });
    expect((await failure(() => model().doGenerate(ask))).providerKind).toBe('protocol_violation');
    serve({ events: [body] });
    const { response, error } = await streamed();
    expect(error).toMatchObject({ providerKind: 'protocol_violation' });
    for (const made of response.toolCalls) expect(made.invalid).toBeDefined();
  });
});

describe('streamed arguments (partialArgs) are read exactly or the call is refused', () => {
  const open = (name: string) => candidate([{ functionCall: { name, willContinue: true } }]);
  const args = (entries: unknown[]) => candidate([{ functionCall: { partialArgs: entries, willContinue: true } }]);
  const close = candidate([{ functionCall: {} }], 'STOP');

  it('proto3 JSON string forms of numbers and booleans are read as their values', async () => {
    serve({
      events: [
        open('purge'),
        args([
          { jsonPath: '$.keep_last', numberValue: '5' },
          { jsonPath: '$.ratio', numberValue: '-2.5e-3' },
          { jsonPath: '$.dry_run', boolValue: 'true' },
          { jsonPath: '$.force', boolValue: 'false' },
          { jsonPath: '$.note', nullValue: 'NULL_VALUE' },
        ]),
        close,
      ],
    });
    const { response } = await streamed();
    expect(response.finishReason).toBe('tool_calls');
    expect(response.toolCalls[0]).toMatchObject({
      arguments: { keep_last: 5, ratio: -0.0025, dry_run: true, force: false, note: null },
    });
    expect(response.toolCalls[0]?.invalid).toBeUndefined();
  });

  it('one part naming the call with all its partialArgs and no willContinue carries them all', async () => {
    serve({
      events: [
        candidate(
          [
            {
              functionCall: {
                name: 'purge',
                partialArgs: [
                  { jsonPath: '$.keep_last', numberValue: 5 },
                  { jsonPath: '$.dry_run', boolValue: true },
                ],
              },
            },
          ],
          'STOP',
        ),
      ],
    });
    const { response } = await streamed();
    expect(response.toolCalls[0]).toMatchObject({ name: 'purge', arguments: { keep_last: 5, dry_run: true } });
  });

  it.each([
    ['a number string with a space', { jsonPath: '$.keep_last', numberValue: '5 ' }],
    ['a hex number string', { jsonPath: '$.keep_last', numberValue: '0x5' }],
    ['a number past a double', { jsonPath: '$.keep_last', numberValue: '1e400' }],
    ['NaN', { jsonPath: '$.keep_last', numberValue: 'NaN' }],
    ['a bool "yes"', { jsonPath: '$.dry_run', boolValue: 'yes' }],
    ['a bool "True"', { jsonPath: '$.dry_run', boolValue: 'True' }],
    ['a bool 1', { jsonPath: '$.dry_run', boolValue: 1 }],
    ['a string value that is a number', { jsonPath: '$.note', stringValue: 5 }],
    ['no value', { jsonPath: '$.keep_last' }],
    ['two values', { jsonPath: '$.keep_last', numberValue: 5, stringValue: '5' }],
    ['an index far past the list', { jsonPath: '$.x[4294967294]', stringValue: 'a' }],
    ['an index leaving a hole', { jsonPath: '$.x[3]', stringValue: 'a' }],
    ['a path 20000 steps deep', { jsonPath: `$${'.a'.repeat(20000)}`, stringValue: 'a' }],
  ])('%s: the call is refused and the turn finishes error, nothing thrown', async (_name, entry) => {
    serve({ events: [open('purge'), args([{ jsonPath: '$.keep', numberValue: 1 }, entry]), close] });
    const { response, error } = await streamed();
    expect(error).toBeUndefined();
    expect(response.finishReason).toBe('error');
    expect(response.toolCalls).toHaveLength(1);
    expect(response.toolCalls[0]?.invalid).toBeDefined();
    expect(response.toolCalls[0]?.refused).toBe(true);
  });

  it('through the agent loop, an unreadable value never runs the tool with the argument missing', async () => {
    const ran: unknown[] = [];
    const purge = defineTool({
      name: 'purge',
      description: 'Purge backups, keeping the newest keep_last (all when absent).',
      parameters: Type.Object({ keep_last: Type.Optional(Type.Number()) }),
      policy: ToolPolicy.readOnly(),
      execute: (input) => {
        ran.push(input);
        return 'ok';
      },
    });
    let turn = 0;
    server.handle((_request, response) => {
      turn += 1;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const events =
        turn === 1
          ? [open('purge'), args([{ jsonPath: '$.keep_last', numberValue: 'five' }]), close]
          : [candidate([{ text: 'done' }], 'STOP')];
      response.end(events.map((event) => `data: ${JSON.stringify(event)}\r\n\r\n`).join(''));
    });
    const stream = new AgentHarness({ model: model(), tools: [purge], limits: { maxModelCalls: 2 } }).stream({}, [
      { role: 'user', content: 'purge' },
    ]);
    try {
      for await (const _event of stream);
      await stream.result;
    } catch {
      // a refused turn may end the run; what matters is that nothing ran
    }
    expect(ran).toEqual([]);
  });
});

describe('an SSE event named error', () => {
  it('is an error even when its data is a response holding a call: the call never completes', async () => {
    server.handle((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(`event: error\r\ndata: ${JSON.stringify(candidate([call], 'STOP'))}\r\n\r\n`);
    });
    const { response, error } = await streamed();
    expect(GoogleCallError.isInstance(error)).toBe(true);
    for (const made of response.toolCalls) expect(made.invalid).toBeDefined();
  });
});

describe('a stream answered as application/json (a JSON array of responses) is read whole, in order', () => {
  it('every element is a chunk', async () => {
    serve({
      json: [candidate([{ text: 'Hello, ' }]), candidate([{ text: 'world.' }]), candidate([{ text: '' }], 'STOP')],
    });
    const { response, error } = await streamed();
    expect(error).toBeUndefined();
    expect(response).toMatchObject({ content: 'Hello, world.', finishReason: 'stop' });
  });

  it('an error element is surfaced after the text before it', async () => {
    serve({ json: [candidate([{ text: 'Partial' }]), { error: { code: 500, message: 'boom', status: 'INTERNAL' } }] });
    const { response, error } = await streamed();
    expect(response.content).toBe('Partial');
    expect(error).toMatchObject({ kind: 'server_error', status: 'INTERNAL' });
  });

  it('a finish after STOP in a later element breaks the turn (the call refused), not ignored', async () => {
    serve({ json: [candidate([call], 'STOP'), candidate([], 'SAFETY')] });
    const { response } = await streamed();
    expect(response.finishReason).toBe('error');
    expect(response.toolCalls[0]?.invalid).toBeDefined();
  });
});

describe('error answers', () => {
  // the Gemini API's answer to a bad key: a 400 INVALID_ARGUMENT whose ErrorInfo reason is API_KEY_INVALID
  const badKey = (metadata: Record<string, string>) => ({
    error: {
      code: 400,
      message: 'API key not valid. Please pass a valid API key.',
      status: 'INVALID_ARGUMENT',
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'API_KEY_INVALID',
          domain: 'googleapis.com',
          metadata: { service: 'generativelanguage.googleapis.com', ...metadata },
        },
      ],
    },
  });

  it('a 400 with ErrorInfo API_KEY_INVALID is auth, not retryable', async () => {
    serve({ status: 400, json: badKey({}) });
    const error = await failure(() => model().doGenerate(ask));
    expect(error).toMatchObject({ kind: 'auth', isRetryable: false, status: 'INVALID_ARGUMENT' });
  });

  it.each([
    ['an HTTP 400', { status: 400 }],
    ['a 200 error body', { status: 200 }],
  ])('the key echoed in ErrorInfo metadata of %s is not in details', async (_name, { status }) => {
    serve({ status, json: badKey({ key: KEY, [KEY]: 'as a key' }) });
    const error = await failure(() => model().doGenerate(ask));
    expect(JSON.stringify(error.details)).not.toContain(KEY);
    expect(JSON.stringify(error.details)).toContain('[redacted]');
    expect(error.kind).toBe('auth');
  });

  it('the key echoed in an in-stream error event is not in details', async () => {
    serve({ events: [candidate([{ text: 'a' }]), badKey({ key: KEY })] });
    const { error } = await streamed();
    expect(GoogleCallError.isInstance(error)).toBe(true);
    expect(JSON.stringify((error as GoogleCallError).details)).not.toContain(KEY);
  });
});
