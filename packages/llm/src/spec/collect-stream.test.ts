import { describe, expect, it } from 'vitest';
import { ModelCallError } from '../errors/model-call-error.js';
import { collectStream, collectStreamSettled } from './collect-stream.js';
import type { LanguageModelV1StreamPart } from './stream-part.js';

async function* parts(...list: LanguageModelV1StreamPart[]): AsyncIterable<LanguageModelV1StreamPart> {
  for (const part of list) yield part;
}

describe('collectStream', () => {
  it('concatenates text, reasoning and per-id argument pieces, keeping call order', async () => {
    const response = await collectStream(
      parts(
        { type: 'response_metadata', id: 'resp-1', modelId: 'm-2024' },
        { type: 'reasoning_delta', delta: 'think ' },
        { type: 'reasoning_delta', delta: 'hard', signature: 'sig' },
        { type: 'text_delta', delta: 'Hel' },
        { type: 'tool_call_start', id: 'a', name: 'weather' },
        { type: 'tool_call_start', id: 'b', name: 'search', extraContent: { thought: 'x' } },
        { type: 'tool_call_delta', id: 'a', argumentsDelta: '{"city":' },
        { type: 'tool_call_delta', id: 'b', argumentsDelta: '{"q":"x"}' },
        { type: 'text_delta', delta: 'lo' },
        { type: 'tool_call_delta', id: 'a', argumentsDelta: '"Oslo"}' },
        { type: 'tool_call_end', id: 'b' },
        { type: 'tool_call_end', id: 'a' },
        {
          type: 'finish',
          finishReason: 'tool_calls',
          rawFinishReason: 'tool_calls',
          usage: { inputTokens: 3, outputTokens: 4 },
        },
      ),
    );
    expect(response).toEqual({
      id: 'resp-1',
      modelId: 'm-2024',
      content: 'Hello',
      reasoning: 'think hard',
      reasoningSignature: 'sig',
      toolCalls: [
        { id: 'a', name: 'weather', arguments: { city: 'Oslo' }, rawArguments: '{"city":"Oslo"}' },
        { id: 'b', name: 'search', arguments: { q: 'x' }, rawArguments: '{"q":"x"}', extraContent: { thought: 'x' } },
      ],
      finishReason: 'tool_calls',
      rawFinishReason: 'tool_calls',
      usage: { inputTokens: 3, outputTokens: 4 },
      warnings: [],
    });
  });

  it('turns unparseable or non-object arguments into invalid calls with the raw text and a reason', async () => {
    const response = await collectStream(
      parts(
        { type: 'tool_call_start', id: 'x', name: 'write' },
        { type: 'tool_call_delta', id: 'x', argumentsDelta: '{"path": "a", ' },
        { type: 'tool_call_end', id: 'x' },
        { type: 'tool_call_start', id: 'y', name: 'list' },
        { type: 'tool_call_delta', id: 'y', argumentsDelta: '[1]' },
        { type: 'tool_call_end', id: 'y' },
        { type: 'finish', finishReason: 'tool_calls', usage: {} },
      ),
    );
    const [first, second] = response.toolCalls;
    expect(first).toMatchObject({
      id: 'x',
      name: 'write',
      arguments: '{"path": "a", ',
      rawArguments: '{"path": "a", ',
    });
    expect(first?.invalid).toMatch(
      /^stream contained invalid JSON arguments for tool call `x` \(`write`\): .+; raw arguments: \{"path": "a", $/,
    );
    expect(second).toMatchObject({ arguments: '[1]' });
    expect(second?.invalid).toContain('not a JSON object');
  });

  it('reads blank arguments as no arguments at tool_call_end', async () => {
    const response = await collectStream(
      parts(
        { type: 'tool_call_start', id: 'x', name: 'now' },
        { type: 'tool_call_delta', id: 'x', argumentsDelta: '  ' },
        { type: 'tool_call_end', id: 'x' },
        { type: 'finish', finishReason: 'tool_calls', usage: {} },
      ),
    );
    expect(response.toolCalls).toEqual([{ id: 'x', name: 'now', arguments: {}, rawArguments: '  ' }]);
  });

  it('makes a call never ended by tool_call_end invalid, even with whole JSON and a finish', async () => {
    const response = await collectStream(
      parts(
        { type: 'tool_call_start', id: 'x', name: 'now' },
        { type: 'tool_call_delta', id: 'x', argumentsDelta: '  ' },
        { type: 'tool_call_start', id: 'y', name: 'echo' },
        { type: 'tool_call_delta', id: 'y', argumentsDelta: '{"a":1}' },
        { type: 'finish', finishReason: 'tool_calls', usage: {} },
      ),
    );
    expect(response.toolCalls.map((c) => [c.id, c.arguments, c.rawArguments])).toEqual([
      ['x', '  ', '  '],
      ['y', '{"a":1}', '{"a":1}'],
    ]);
    for (const call of response.toolCalls) expect(call.invalid).toMatch(/no tool_call_end/);
  });

  it('makes every call invalid when one id names two calls', async () => {
    const started = await collectStream(
      parts(
        { type: 'tool_call_start', id: 'a', name: 'bash' },
        { type: 'tool_call_delta', id: 'a', argumentsDelta: '{"cmd":"ls"}' },
        { type: 'tool_call_end', id: 'a' },
        { type: 'tool_call_start', id: 'a', name: 'bash' },
        { type: 'tool_call_delta', id: 'a', argumentsDelta: '{"cmd":"rm"}' },
        { type: 'tool_call_end', id: 'a' },
        { type: 'finish', finishReason: 'tool_calls', usage: {} },
      ),
    );
    expect(started.finishReason).toBe('error');
    expect(started.rawFinishReason).toMatch(/^protocol_violation: tool call id `a`/);
    expect(started.toolCalls).toHaveLength(1);
    expect(started.toolCalls[0]?.invalid).toMatch(/names two calls/);
    const ended = await collectStream(
      parts(
        { type: 'tool_call_start', id: 'b', name: 'ok' },
        { type: 'tool_call_end', id: 'b', call: { id: 'b', name: 'ok', arguments: {} } },
        { type: 'tool_call_start', id: 'a', name: 'bash' },
        { type: 'tool_call_end', id: 'a', call: { id: 'a', name: 'bash', arguments: { cmd: 'ls' } } },
        { type: 'tool_call_end', id: 'a', call: { id: 'a', name: 'bash', arguments: { cmd: 'rm' } } },
        { type: 'finish', finishReason: 'tool_calls', usage: {} },
      ),
    );
    expect(ended.toolCalls.map((c) => c.invalid !== undefined)).toEqual([true, true]);
    const repeated = await collectStream(
      parts(
        { type: 'tool_call_start', id: 'a', name: 'bash' },
        { type: 'tool_call_end', id: 'a', call: { id: 'a', name: 'bash', arguments: { cmd: 'ls' } } },
        { type: 'tool_call_end', id: 'a', call: { id: 'a', name: 'bash', arguments: { cmd: 'ls' } } },
        { type: 'finish', finishReason: 'tool_calls', usage: {} },
      ),
    );
    expect(repeated.toolCalls).toEqual([{ id: 'a', name: 'bash', arguments: { cmd: 'ls' } }]);
    expect(repeated.finishReason).toBe('tool_calls');
  });

  it('refuses every call when argument text for a call arrives after its tool_call_end', async () => {
    // Found by the refused-call tester: the late piece was dropped and the call ran with the
    // arguments it had before.
    const late = await collectStream(
      parts(
        { type: 'tool_call_start', id: 'x', name: 'run' },
        { type: 'tool_call_delta', id: 'x', argumentsDelta: '{"cmd":"a"}' },
        { type: 'tool_call_end', id: 'x' },
        { type: 'tool_call_start', id: 'y', name: 'run' },
        { type: 'tool_call_delta', id: 'y', argumentsDelta: '{"cmd":"c"}' },
        { type: 'tool_call_end', id: 'y' },
        { type: 'tool_call_delta', id: 'x', argumentsDelta: '{"cmd":"b"}' },
        { type: 'finish', finishReason: 'tool_calls', usage: {} },
      ),
    );
    expect(late.finishReason).toBe('error');
    expect(late.rawFinishReason).toMatch(/after its tool_call_end/);
    expect(late.toolCalls.map((call) => [call.id, call.refused])).toEqual([
      ['x', true],
      ['y', true],
    ]);
    // An empty piece after the end changes nothing and is no violation.
    const empty = await collectStream(
      parts(
        { type: 'tool_call_start', id: 'x', name: 'run' },
        { type: 'tool_call_delta', id: 'x', argumentsDelta: '{"cmd":"a"}' },
        { type: 'tool_call_end', id: 'x' },
        { type: 'tool_call_delta', id: 'x', argumentsDelta: '' },
        { type: 'finish', finishReason: 'tool_calls', usage: {} },
      ),
    );
    expect(empty.toolCalls).toMatchObject([{ id: 'x', name: 'run', arguments: { cmd: 'a' } }]);
    expect(empty.toolCalls[0]?.refused).toBeUndefined();
  });

  it('ends a stream without a finish as an error', async () => {
    const response = await collectStream(parts({ type: 'text_delta', delta: 'x' }));
    // No `finish` part: the stream broke off, which is not a normal end.
    expect(response.finishReason).toBe('error');
    expect(response.rawFinishReason).toBe('missing');
    expect(response.usage).toEqual({});
  });

  it('uses a call carried by tool_call_end as is', async () => {
    const repaired = { id: 'x', name: 'echo', arguments: { a: 1 }, rawArguments: "{'a': 1}" };
    const response = await collectStream(
      parts(
        { type: 'tool_call_start', id: 'x', name: 'echo' },
        { type: 'tool_call_delta', id: 'x', argumentsDelta: "{'a': 1}" },
        { type: 'tool_call_end', id: 'x', call: repaired },
      ),
    );
    expect(response.toolCalls).toEqual([repaired]);
  });

  it('keeps warnings, request and response details of a stream result', async () => {
    const response = await collectStream({
      stream: parts(
        { type: 'text_delta', delta: 'hi' },
        { type: 'finish', finishReason: 'stop', usage: {}, body: { done: true } },
      ),
      warnings: [{ type: 'unsupported_setting', setting: 'seed' }],
      request: { body: { model: 'm' } },
      response: { statusCode: 200 },
    });
    expect(response).toMatchObject({
      content: 'hi',
      warnings: [{ type: 'unsupported_setting', setting: 'seed' }],
      request: { body: { model: 'm' } },
      response: { statusCode: 200, body: { done: true } },
    });
  });

  it('throws a ModelCallError at an error part', async () => {
    const stream = parts({ type: 'text_delta', delta: 'a' }, { type: 'error', error: new Error('connection reset') });
    const error = await collectStream(stream).catch((caught: unknown) => caught);
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect((error as ModelCallError).message).toContain('connection reset');
    expect((error as ModelCallError).isRetryable).toBe(false);

    const typed = new ModelCallError({ message: 'overloaded', statusCode: 529 });
    await expect(collectStream(parts({ type: 'error', error: typed }))).rejects.toBe(typed);
  });

  it('lets errors thrown by the iteration itself through', async () => {
    const abort = new DOMException('aborted', 'AbortError');
    async function* failing(): AsyncIterable<LanguageModelV1StreamPart> {
      yield { type: 'text_delta', delta: 'a' };
      throw abort;
    }
    await expect(collectStream(failing())).rejects.toBe(abort);
  });
});

describe('collectStream: refusals, choices and settled streams', () => {
  it('concatenates refusal pieces and keeps the choices of the finish part', async () => {
    const choices = [
      { index: 0, content: '', refusal: 'No.', toolCalls: [], finishReason: 'content_filter' as const },
      { index: 1, content: 'Yes', toolCalls: [], finishReason: 'stop' as const },
    ];
    const response = await collectStream(
      parts(
        { type: 'refusal_delta', delta: 'No' },
        { type: 'refusal_delta', delta: '.' },
        { type: 'finish', finishReason: 'content_filter', usage: {}, choices },
      ),
    );
    expect(response).toMatchObject({ content: '', refusal: 'No.', finishReason: 'content_filter', choices });
  });

  it('collectStreamSettled returns the partial response with the error instead of discarding it', async () => {
    const typed = new ModelCallError({ message: 'engine crashed', statusCode: 500 });
    const settled = await collectStreamSettled(
      parts(
        { type: 'text_delta', delta: 'Counting: 1, 2' },
        { type: 'tool_call_start', id: 'a', name: 'count' },
        { type: 'tool_call_delta', id: 'a', argumentsDelta: '{"n":' },
        { type: 'error', error: typed },
        { type: 'text_delta', delta: 'never read' },
      ),
    );
    expect(settled.error).toBe(typed);
    expect(settled.response.content).toBe('Counting: 1, 2');
    expect(settled.response.finishReason).toBe('error');
    expect(settled.response.toolCalls[0]?.invalid).toContain('raw arguments: {"n":');
    const finished = await collectStreamSettled(parts({ type: 'text_delta', delta: 'ok' }));
    expect(finished.error).toBeUndefined();
    expect(finished.response.content).toBe('ok');
  });
});

describe('collectStream: the first finish is final', () => {
  const usage = { inputTokens: 1, outputTokens: 1 };
  const finish = (finishReason: 'stop' | 'length' | 'content_filter' | 'tool_calls'): LanguageModelV1StreamPart => ({
    type: 'finish',
    finishReason,
    usage,
  });
  const call = (id: string): LanguageModelV1StreamPart[] => [
    { type: 'tool_call_start', id, name: 'pay' },
    { type: 'tool_call_delta', id, argumentsDelta: '{"cents":5}' },
    { type: 'tool_call_end', id },
  ];

  it.each([
    ['length then stop', [...call('a'), finish('length'), finish('stop')], 'second finish `stop`'],
    ['content_filter then tool_calls', [...call('a'), finish('content_filter'), finish('tool_calls')], 'second finish'],
    ['stop then a tool call', [finish('stop'), ...call('late')], '`tool_call_start` part after the `stop` finish'],
    ['tool_calls then text', [...call('a'), finish('tool_calls'), { type: 'text_delta', delta: 'x' }], '`text_delta`'],
    [
      'stop then a call end',
      [...call('a').slice(0, 2), finish('stop'), { type: 'tool_call_end', id: 'a' }],
      'tool_call_end',
    ],
  ] as const)('%s: the turn is broken (error) and a late call is not folded in', async (_what, list, why) => {
    const response = await collectStream(parts(...list));
    expect(response.finishReason).toBe('error');
    expect(response.rawFinishReason).toContain('protocol_violation');
    expect(response.rawFinishReason).toContain(why);
    expect(response.toolCalls.map((toolCall) => toolCall.id)).not.toContain('late');
  });

  it('keeps a non-normal first finish (never upgraded) and ignores a repeat of the same finish', async () => {
    const cut = await collectStream(parts(...call('a'), finish('length'), finish('length')));
    expect(cut.finishReason).toBe('length');
    const fine = await collectStream(
      parts(...call('a'), finish('tool_calls'), { type: 'response_metadata', id: 'r' }, finish('tool_calls')),
    );
    expect(fine.finishReason).toBe('tool_calls');
    expect(fine.id).toBe('r');
    expect(fine.toolCalls).toHaveLength(1);
  });
});
