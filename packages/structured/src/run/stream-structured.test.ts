import { scriptedToolCall } from '@tiny/harness/testkit';
import { describe, expect, it } from 'vitest';
import { StructuredOutputError } from '../errors/structured-output-error.js';
import { ResponseFormat } from '../format/response-format.js';
import { ask, Person, profiles, setup } from './scripted-setup.test-helpers.js';
import { type StructuredStreamPart, streamStructured } from './stream-structured.js';

const ada = { name: 'Ada Lovelace', age: 36, nickname: 'The Enchantress of Numbers' };
const person = ResponseFormat.auto({ name: 'person', schema: Person });

async function collect<T>(stream: AsyncIterable<StructuredStreamPart<T>>) {
  const parts: { type: string; value: unknown; modelCallId?: string }[] = [];
  for await (const part of stream) {
    parts.push({
      type: part.type,
      value: structuredClone(part.value),
      ...(part.type === 'partial' ? { modelCallId: part.modelCallId } : {}),
    });
  }
  return parts;
}

describe('streamStructured', () => {
  it('yields progressively more complete partial values, then the validated value', async () => {
    const { harness } = setup([{ content: `\`\`\`json\n${JSON.stringify(ada)}\n\`\`\`` }], profiles.native);
    const stream = streamStructured(harness, {}, ask, person);
    const parts = await collect(stream);
    const partials = parts.filter((part) => part.type === 'partial').map((part) => part.value);
    expect(partials.length).toBeGreaterThan(3);
    const growing = partials.filter((partial) => {
      const nickname = (partial as { nickname?: string }).nickname;
      return nickname !== undefined && nickname !== ada.nickname && ada.nickname.startsWith(nickname);
    });
    expect(growing.length).toBeGreaterThan(1);
    for (let index = 1; index < partials.length; index += 1) {
      expect(JSON.stringify(partials[index]).length).toBeGreaterThanOrEqual(JSON.stringify(partials[index - 1]).length);
    }
    expect(parts.at(-1)).toEqual({ type: 'final', value: ada });
    const run = await stream.result;
    expect(run.parsed).toEqual(ada);
    expect(run.validation.repair).toBe('code_fence');
  });

  it('starts over on a retry (a new model call id)', async () => {
    const { harness } = setup([{ content: '{"name":"Ada"}' }, { content: JSON.stringify(ada) }], profiles.native);
    const parts = await collect(streamStructured(harness, {}, ask, person));
    const ids = new Set(parts.filter((part) => part.type === 'partial').map((part) => part.modelCallId));
    expect(ids.size).toBe(2);
    expect(parts.at(-1)?.value).toEqual(ada);
  });

  it('streams partial values from the output tool call arguments for the tool strategy', async () => {
    const { harness } = setup([{ toolCalls: [scriptedToolCall('person', ada)] }], profiles.toolsOnly);
    const parts = await collect(streamStructured(harness, {}, ask, person));
    const partials = parts.filter((part) => part.type === 'partial').map((part) => part.value as { nickname?: string });
    expect(partials.length).toBeGreaterThan(3);
    expect(partials.some((partial) => partial.nickname !== undefined && partial.nickname !== ada.nickname)).toBe(true);
    expect(parts.at(-1)).toEqual({ type: 'final', value: ada });
  });

  it('throws the run error from the iteration and rejects result', async () => {
    const { harness } = setup([{ content: 'nope' }, { content: 'still nope' }], profiles.native);
    const stream = streamStructured(harness, {}, ask, person);
    await expect(collect(stream)).rejects.toSatisfy((error: unknown) => StructuredOutputError.isInstance(error));
    await expect(stream.result).rejects.toSatisfy((error: unknown) => StructuredOutputError.isInstance(error));
  });
});
