import { describe, expect, it } from 'vitest';
import { createNativeDialect } from '../dialects/create-native-dialect.js';
import { createModelProfile } from '../spec/model-profile.js';
import { createStreamScrubber } from './create-stream-scrubber.js';
import { parseToolCalls } from './parse-tool-calls.js';

const tools = ['get_weather', 'search'].map((name) => ({ name, description: '', parameters: { type: 'object' } }));
const hermes = '<tool_call>{"name": "search", "arguments": {"q": "x"}}</tool_call>';
const harmony = '<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city":"Oslo"}<|call|>';
const mistral = '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}';

describe('toolCallFormats', () => {
  it('reads every grammar by default', () => {
    expect(parseToolCalls(`${hermes}\n${mistral}`, { tools }).calls.map((call) => call.source)).toEqual([
      'tagged_json',
      'mistral',
    ]);
  });

  it('leaves another family’s markup as text', () => {
    const text = `A Hermes model would write ${hermes} here.\n${harmony}`;
    const parsed = parseToolCalls(text, { tools, toolCallFormats: ['harmony'] });
    expect(parsed.calls).toEqual([{ name: 'get_weather', arguments: { city: 'Oslo' }, source: 'harmony' }]);
    expect(parsed.text).toBe(`A Hermes model would write ${hermes} here.`);
    const mistralOnly = parseToolCalls(`${hermes}\n${mistral}`, { tools, toolCallFormats: ['mistral'] });
    expect(mistralOnly.calls.map((call) => call.name)).toEqual(['get_weather']);
    expect(mistralOnly.text).toBe(hermes);
  });

  it('restricts whole-response readings too (bare JSON, pythonic lists)', () => {
    const bare = '{"name": "search", "arguments": {"q": "x"}}';
    expect(parseToolCalls(bare, { tools, toolCallFormats: ['harmony'] }).calls).toEqual([]);
    expect(parseToolCalls(bare, { tools, toolCallFormats: ['bare_json'] }).calls).toHaveLength(1);
    const pythonic = "[get_weather(city='Oslo')]";
    expect(parseToolCalls(pythonic, { tools, toolCallFormats: ['tagged_json'] }).calls).toEqual([]);
    expect(parseToolCalls(pythonic, { tools, toolCallFormats: ['pythonic'] }).calls).toHaveLength(1);
  });

  it('makes the scrubber hold back only the allowed openers', () => {
    const restricted = createStreamScrubber({ tools, toolCallFormats: ['harmony'], leadingReasoning: false });
    expect(restricted.feed('see <tool_ca').text).toBe('see <tool_ca');
    expect(restricted.feed('ll> and <|chan').text).toBe('ll> and');
    const rest = restricted.feed('nel|>commentary to=functions.get_weather<|message|>{"city":"Oslo"}<|call|>');
    expect(rest.calls.map((call) => call.name)).toEqual(['get_weather']);
    const open = createStreamScrubber({ tools, leadingReasoning: false });
    expect(open.feed('see <tool_ca').text).toBe('see');
  });

  it('streams to the batch reading under a restriction', () => {
    const text = `${hermes} then ${mistral}`;
    const batch = parseToolCalls(text, { tools, toolCallFormats: ['mistral'], allowBareJson: false });
    for (const size of [1, 4, 9]) {
      const scrubber = createStreamScrubber({ tools, toolCallFormats: ['mistral'] });
      let streamed = '';
      const calls = [];
      for (let index = 0; index < text.length; index += size) {
        const step = scrubber.feed(text.slice(index, index + size));
        streamed += step.text;
        calls.push(...step.calls);
      }
      const last = scrubber.flush();
      streamed += last.text;
      calls.push(...last.calls);
      expect(streamed).toBe(batch.text);
      expect(calls).toEqual(batch.calls);
    }
  });

  it('is carried by the model profile and honoured by the native dialect', () => {
    const profile = createModelProfile({ toolCallFormats: ['mistral'] });
    expect(profile.toolCallFormats).toEqual(['mistral']);
    expect(createModelProfile().toolCallFormats).toBeUndefined();
    const dialect = createNativeDialect();
    const response = { content: `${hermes}\n${mistral}` };
    const restricted = dialect.parseResponse(response, tools, { toolCallFormats: profile.toolCallFormats });
    expect(restricted.calls.map((call) => call.name)).toEqual(['get_weather']);
    expect(dialect.parseResponse(response, tools).calls.map((call) => call.name)).toEqual(['search', 'get_weather']);
  });
});
