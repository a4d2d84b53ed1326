import { collectStream, type LanguageModelV1StreamPart } from '@tiny/llm';
import { describe, expect, it } from 'vitest';
import { ToolCallAssembler } from './tool-call-assembler.js';

function assemble(fragments: unknown[]): LanguageModelV1StreamPart[] {
  const assembler = new ToolCallAssembler();
  return [...fragments.flatMap((fragment) => assembler.push(fragment)), ...assembler.finish()];
}

async function calls(fragments: unknown[]) {
  async function* parts() {
    yield* assemble(fragments);
  }
  return (await collectStream(parts())).toolCalls;
}

describe('ToolCallAssembler (P2)', () => {
  it('joins OpenAI fragments by index and emits start, deltas and an end carrying the call', () => {
    const parts = assemble([
      { index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } },
      { index: 0, function: { arguments: '{"city":' } },
      { index: 0, function: { arguments: '"Paris"}' } },
    ]);
    expect(parts.map((part) => part.type)).toEqual([
      'tool_call_start',
      'tool_call_delta',
      'tool_call_delta',
      'tool_call_end',
    ]);
    expect(parts[3]).toMatchObject({
      id: 'call_a',
      call: { arguments: { city: 'Paris' }, rawArguments: '{"city":"Paris"}' },
    });
  });

  it('opens a new call when Ollama reuses an index with a new id', async () => {
    expect(
      await calls([
        { id: 'call_x1', index: 0, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        { id: 'call_x2', index: 0, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
      ]),
    ).toEqual([
      { id: 'call_x1', name: 'get_weather', arguments: { city: 'Paris' }, rawArguments: '{"city":"Paris"}' },
      { id: 'call_x2', name: 'get_weather', arguments: { city: 'Oslo' }, rawArguments: '{"city":"Oslo"}' },
    ]);
  });

  it('matches index-less fragments by id, and continues the latest call when they carry neither', async () => {
    expect(
      await calls([
        { id: 'a', function: { name: 'one', arguments: '{"x":' } },
        { id: 'b', function: { name: 'two', arguments: '{"y":' } },
        { id: 'a', function: { arguments: '1}' } },
        { id: 'b', function: { arguments: '2' } },
        { function: { arguments: '}' } },
      ]),
    ).toMatchObject([
      { id: 'a', name: 'one', arguments: { x: 1 } },
      { id: 'b', name: 'two', arguments: { y: 2 } },
    ]);
  });

  it('never lets an empty name overwrite a known one, and waits for a name before starting', () => {
    const parts = assemble([
      { index: 0, id: 'c', function: { arguments: '{"a"' } },
      { index: 0, function: { name: 'echo', arguments: ':1' } },
      { index: 0, function: { name: '', arguments: '}' } },
    ]);
    expect(parts[0]).toEqual({ type: 'tool_call_start', id: 'c', name: 'echo' });
    expect(parts[1]).toEqual({ type: 'tool_call_delta', id: 'c', argumentsDelta: '{"a":1' });
    expect(parts.at(-1)).toMatchObject({ type: 'tool_call_end', call: { name: 'echo', arguments: { a: 1 } } });
  });

  it('mints tool-{index} for missing ids and keeps ids unique', async () => {
    const minted = await calls([
      { index: 0, function: { name: 'a', arguments: '{}' } },
      { index: 1, function: { name: 'b', arguments: '' } },
      { index: 2, id: 'tool-0', function: { name: 'c', arguments: '{}' } },
    ]);
    expect(minted.map((call) => call.id)).toEqual(['tool-0', 'tool-1', 'tool-0-2']);
    expect(minted[1]?.arguments).toEqual({});
  });

  it('accepts object arguments, ends unnamed calls, and returns broken ones invalid', async () => {
    const [object, unnamed] = await calls([
      { index: 0, id: 'o', function: { name: 'get', arguments: { key: 'v' } } },
      { index: 1, id: 'u', function: { arguments: '{"a": tru' } },
    ]);
    expect(object).toEqual({ id: 'o', name: 'get', arguments: { key: 'v' } });
    expect(unnamed).toMatchObject({ id: 'u', name: '', arguments: '{"a": tru' });
    expect(unnamed?.invalid).toMatch(/^stream contained invalid JSON arguments for tool call `u` \(``\)/);
  });

  it.each([
    [
      'a second index reusing an id',
      [
        { index: 0, id: 'call_1', function: { name: 'bash', arguments: '{"cmd":"ls' } },
        { index: 1, id: 'call_1', function: { name: 'bash', arguments: ' -la; rm -rf ~"}' } },
      ],
    ],
    [
      'an index-only call that later names a taken id',
      [
        { index: 0, id: 'call_1', function: { name: 'bash', arguments: '{"cmd":"ls"}' } },
        { index: 1, function: { name: 'bash', arguments: '{"cmd":"rm"}' } },
        { index: 1, id: 'call_1', function: { arguments: '' } },
      ],
    ],
    [
      'an index-less call whose id then appears at an index another call holds',
      [
        { id: 'call_1', function: { name: 'bash', arguments: '{"cmd":' } },
        { index: 1, id: 'call_2', function: { name: 'bash', arguments: '{"cmd":"rm"}' } },
        { index: 1, id: 'call_1', function: { arguments: '"ls"}' } },
      ],
    ],
  ])('refuses one id at two indexes: %s', (_name, fragments) => {
    const assembler = new ToolCallAssembler();
    for (const fragment of fragments) assembler.push(fragment);
    expect(assembler.violation).toMatch(/^sent tool call id call_1 at indexes \d+ and 1$/);
  });

  it('keeps one id at one index, and an index-less call that names its index, as one call', async () => {
    const assembler = new ToolCallAssembler();
    for (const fragment of [
      { index: 0, id: 'call_1', function: { name: 'bash', arguments: '{"cmd":' } },
      { index: 0, id: 'call_1', function: { arguments: '"ls"}' } },
      { id: 'call_2', function: { name: 'echo', arguments: '{"t":' } },
      { index: 1, id: 'call_2', function: { arguments: '1' } },
      { index: 1, function: { arguments: '}' } },
    ])
      assembler.push(fragment);
    expect(assembler.violation).toBeUndefined();
    expect(
      await calls([
        { index: 0, id: 'call_1', function: { name: 'bash', arguments: '{"cmd":' } },
        { index: 0, id: 'call_1', function: { arguments: '"ls"}' } },
        { id: 'call_2', function: { name: 'echo', arguments: '{"t":' } },
        { index: 1, id: 'call_2', function: { arguments: '1' } },
        { index: 1, function: { arguments: '}' } },
      ]),
    ).toMatchObject([
      { id: 'call_1', arguments: { cmd: 'ls' } },
      { id: 'call_2', arguments: { t: 1 } },
    ]);
  });

  it('keeps extra content (Gemini thought signatures)', async () => {
    const [call] = await calls([
      {
        index: 0,
        id: 'g',
        function: { name: 'f', arguments: '{}' },
        extra_content: { google: { thought_signature: 'sig' } },
      },
    ]);
    expect(call?.extraContent).toEqual({ google: { thought_signature: 'sig' } });
  });
});
