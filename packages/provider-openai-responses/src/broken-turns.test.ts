import { readFileSync } from 'node:fs';
import { AgentHarness } from '@tiny/harness';
import { collectStreamSettled, type LanguageModelV1StreamPart, ModelCallError } from '@tiny/llm';
import { type ReplayExchange, replayParts, useReplayServer } from '@tiny/provider-tests';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { openaiResponses } from './presets/openai.js';

const replay = useReplayServer(new URL('./__fixtures__/', import.meta.url));
const fixtures = new URL('./__fixtures__/responses/', import.meta.url);

type Event = { type: string; response?: Record<string, unknown> } & Record<string, unknown>;

/** The events of a recorded stream (step 2 of the recorded run: one `calculator` call, then `response.completed`). */
function recorded(name: string): Event[] {
  return readFileSync(new URL(name, fixtures), 'utf8')
    .split('\n\n')
    .filter((block) => block.includes('data: '))
    .map((block) => JSON.parse(block.slice(block.indexOf('data: ') + 6)) as Event);
}

function sse(events: readonly Event[]): string {
  return events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join('');
}

/** Step 2 with its terminal event rewritten (`undefined`: dropped, the body just ends). */
function endedBy(rewrite: ((completed: Event) => Event) | undefined): string {
  const events = recorded('reasoning-agent-run.2.sse');
  const last = events.pop() as Event;
  return sse(rewrite === undefined ? events : [...events, rewrite(last)]);
}

const incomplete = (reason: string) => (completed: Event) => ({
  ...completed,
  type: 'response.incomplete',
  response: { ...completed.response, status: 'incomplete', incomplete_details: { reason } },
});
const withStatus = (status: unknown) => (completed: Event) => ({
  ...completed,
  response: { ...completed.response, status },
});
const failed = (completed: Event) => ({
  ...completed,
  type: 'response.failed',
  response: { ...completed.response, status: 'failed', error: { code: 'server_error', message: 'The model failed.' } },
});

function streamed(text: string): ReplayExchange {
  return { response: { headers: { 'content-type': 'text/event-stream' }, text, chunking: 'events' } };
}

function load(exchanges: readonly ReplayExchange[]): string {
  replay.server().load({ fixture: { exchanges }, baseDir: fixtures.pathname });
  return `${replay.server().url}/v1`;
}

async function parts(text: string): Promise<LanguageModelV1StreamPart[]> {
  const model = openaiResponses({ baseURL: load([streamed(text)]), apiKey: 'sk-test' })('gpt-5.1-codex-max');
  const result = await model.doStream({ messages: [{ role: 'user', content: 'Compute 19 * 3.' }] });
  const all: LanguageModelV1StreamPart[] = [];
  for await (const part of result.stream) all.push(part);
  return all;
}

describe('broken turns: no call of them is runnable', () => {
  it.each([
    ['incomplete: max_output_tokens', 'length', endedBy(incomplete('max_output_tokens'))],
    ['incomplete: content_filter', 'content_filter', endedBy(incomplete('content_filter'))],
    ['incomplete: a reason not known', 'error', endedBy(incomplete('tool_budget'))],
    [
      'response.cancelled',
      'error',
      endedBy((completed) => ({
        ...completed,
        type: 'response.cancelled',
        response: { ...completed.response, status: 'cancelled' },
      })),
    ],
  ])('%s: the call ends invalid, finish %s', async (_name, finishReason, text) => {
    const all = await parts(text);
    const settled = await collectStreamSettled(replayParts(all));
    expect(settled.error).toBeUndefined();
    expect(settled.response.finishReason).toBe(finishReason);
    expect(settled.response.toolCalls).toHaveLength(1);
    expect(settled.response.toolCalls[0]?.invalid).toMatch(/no call of it may run|not completed/);
    expect(settled.response.toolCalls[0]?.arguments).toBe('{"a":19,"b":3,"op":"multiply"}');
  });

  it.each([
    ['response.failed', 'server_error', true, endedBy(failed)],
    // The terminal event type decides; a body status that contradicts it is a protocol violation.
    ['completed event with status queued', 'protocol_violation', false, endedBy(withStatus('queued'))],
    ['completed event with a status that is not a string', 'protocol_violation', false, endedBy(withStatus(7))],
    [
      'response.cancelled whose body says completed',
      'protocol_violation',
      false,
      endedBy((completed) => ({ ...completed, type: 'response.cancelled' })),
    ],
    [
      'response.incomplete whose body says completed',
      'protocol_violation',
      false,
      endedBy((completed) => ({ ...completed, type: 'response.incomplete' })),
    ],
    ['the body ends with no terminal event', 'incomplete_stream', true, endedBy(undefined)],
  ])('%s: an error part (%s) after the call, which is invalid', async (_name, kind, retryable, text) => {
    const all = await parts(text);
    const settled = await collectStreamSettled(replayParts(all));
    expect(ModelCallError.isInstance(settled.error)).toBe(true);
    expect((settled.error as ModelCallError).isRetryable).toBe(retryable);
    expect([(settled.error as ModelCallError).kind, (settled.error as ModelCallError).providerKind]).toContain(kind);
    expect(settled.response.toolCalls.every((call) => call.invalid !== undefined)).toBe(true);
  });

  it('a whole body with status incomplete: the call is invalid and the finish is length', async () => {
    const events = recorded('reasoning-agent-run.2.sse');
    const body = incomplete('max_output_tokens')(events[events.length - 1] as Event).response;
    const model = openaiResponses({ baseURL: load([{ response: { json: body } }]), apiKey: 'sk-test' })('m');
    const response = await model.doGenerate({ messages: [{ role: 'user', content: 'Compute 19 * 3.' }] });
    expect(response.finishReason).toBe('length');
    expect(response.rawFinishReason).toBe('incomplete:max_output_tokens');
    expect(response.toolCalls[0]?.invalid).toContain('incomplete (max_output_tokens)');
  });

  it('the harness refuses the call of an incomplete turn and the model reads why; nothing runs', async () => {
    const ran: string[] = [];
    const calculator = defineTool({
      name: 'calculator',
      description: 'A minimal calculator.',
      parameters: Type.Object({ a: Type.Number(), b: Type.Number(), op: Type.String() }),
      policy: ToolPolicy.readOnly(),
      execute: ({ a, b, op }) => {
        ran.push(`${a} ${op} ${b}`);
        return '57';
      },
    });
    const baseURL = load([
      streamed(endedBy(incomplete('max_output_tokens'))),
      {
        request: {
          body: {
            input: [
              { role: 'user' },
              { type: 'function_call' },
              { type: 'function_call_output', output: { $contains: 'length' } },
            ],
          },
        },
        response: {
          headers: { 'content-type': 'text/event-stream' },
          file: 'reasoning-agent-run.4.sse',
          chunking: 'events',
        },
      },
    ]);
    const harness = new AgentHarness({
      model: openaiResponses({ baseURL, apiKey: 'sk-test' })('gpt-5.1-codex-max'),
      tools: [calculator],
    });
    const stream = harness.stream({}, [{ role: 'user', content: 'Compute 19 * 3.' }]);
    for await (const _event of stream);
    const run = await stream.result;
    expect(ran).toEqual([]);
    expect(run.executedTools).toEqual([]);
    expect(run.events.filter((event) => event.type === 'tool_call_refused')).toEqual([
      expect.objectContaining({ toolName: 'calculator', reason: 'length' }),
    ]);
    expect(run.text).toBe('The final result is **570**.');
  });
});

describe('items that ask the client to act', () => {
  it('a recorded local_shell_call: the turn ends error, nothing of it is a call, the item is kept for replay', async () => {
    const body = JSON.parse(readFileSync(new URL('local-shell-call.json', fixtures), 'utf8')) as Record<
      string,
      unknown
    >;
    const model = openaiResponses({ baseURL: load([{ response: { json: body } }]), apiKey: 'sk-test' })(
      'codex-mini-latest',
    );
    const response = await model.doGenerate({ messages: [{ role: 'user', content: 'List the files.' }] });
    expect(response.finishReason).toBe('error');
    expect(response.rawFinishReason).toBe('completed:local_shell_call');
    expect(response.toolCalls).toEqual([]);
    expect(response.reasoningSignature).toMatch(/^tiny\.openai-responses\.items\.v2:/);
  });
});

describe('hosted tools are kept for replay and never run by the harness', () => {
  it('a web search turn: no call, its items replayed unchanged in the next request, even beside a local tool of the same name', async () => {
    const searched: string[] = [];
    const webSearch = defineTool({
      name: 'web_search',
      description: 'A local tool that shares the hosted tool name.',
      parameters: Type.Object({ query: Type.String() }),
      policy: ToolPolicy.readOnly(),
      execute: ({ query }) => {
        searched.push(query);
        return 'local';
      },
    });
    const body = JSON.parse(readFileSync(new URL('web-search.json', fixtures), 'utf8')) as {
      output: Record<string, unknown>[];
    };
    const hosted = body.output.filter((item) => item.type !== 'message');
    const baseURL = load([
      { response: { json: body } },
      {
        request: { body: { input: [{ role: 'user' }, ...hosted, { role: 'assistant' }, { role: 'user' }] } },
        response: { json: body },
      },
    ]);
    const model = openaiResponses({ baseURL, apiKey: 'sk-test' })('gpt-5-mini', {
      providerOptions: { hostedTools: [{ type: 'web_search' }] },
    });
    const harness = new AgentHarness({ model, tools: [webSearch] });
    const first = await harness.invoke({}, [{ role: 'user', content: 'Any tech news today?' }]);
    expect(first.outcome).toBe('final');
    expect(first.executedTools).toEqual([]);
    expect(first.usage).toMatchObject({ cachedInputTokens: 3712, reasoningTokens: 3136 });
    expect(first.text.startsWith('Short answer first — yes.')).toBe(true);
    const second = await harness.invoke({}, [...first.messages, { role: 'user', content: 'And this week?' }]);
    expect(second.executedTools).toEqual([]);
    expect(searched).toEqual([]);
    const sent = replay.server().requests[1]?.body as { input: unknown[]; tools: unknown[] };
    expect(sent.input.slice(1, 1 + hosted.length)).toEqual(hosted);
  });
});

describe('recorded error streams', () => {
  it.each([
    ['error-then-failed.sse', 'insufficient_quota', false],
    ['failed-only.sse', 'rate_limit_exceeded', true],
  ])('%s: one typed error part', async (file, providerKind, retryable) => {
    const text = readFileSync(new URL(file, fixtures), 'utf8');
    const all = await parts(text);
    expect(all.filter((part) => part.type === 'error')).toHaveLength(1);
    const last = all[all.length - 1];
    const error = last?.type === 'error' ? (last.error as ModelCallError) : undefined;
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(error?.providerKind).toBe(providerKind);
    expect(error?.isRetryable).toBe(retryable);
  });
});
