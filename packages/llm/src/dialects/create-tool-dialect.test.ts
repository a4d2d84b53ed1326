import { describe, expect, it } from 'vitest';
import { parseToolResultsEnvelope } from '../envelope/parse-tool-results-envelope.js';
import { type Message, messageText } from '../messages/message.js';
import { toolInstructions } from '../prompt/tool-instructions.js';
import type { ToolSchema } from '../spec/tool-schema.js';
import { createToolDialect } from './create-tool-dialect.js';
import { recordAssistantTurn } from './record-assistant-turn.js';

const weather: ToolSchema = {
  name: 'get_weather',
  description: 'Get the current weather for a city.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } },
    required: ['city'],
  },
};
const tools = [weather];

describe('createToolDialect', () => {
  it('sends specs only for native and embeds the catalogue only for xml', () => {
    const kinds = ['native', 'tagged_json', 'pformat', 'python', 'typescript'] as const;
    const dialects = kinds.map(createToolDialect);
    expect(dialects.map((dialect) => dialect.kind)).toEqual(kinds);
    // `xml` is the deprecated name of `tagged_json`: the same dialect under its canonical kind.
    expect(createToolDialect('xml').kind).toBe('tagged_json');
    expect(createToolDialect('xml').promptInstructions(tools)).toBe(
      createToolDialect('tagged_json').promptInstructions(tools),
    );
    expect(dialects.map((dialect) => dialect.shouldSendToolSpecs)).toEqual([true, false, false, false, false]);
    expect(dialects.map((dialect) => dialect.embedsToolCatalogue)).toEqual([false, true, false, false, false]);
  });
});

describe('promptInstructions', () => {
  it('xml equals toolInstructions for every choice', () => {
    const xml = createToolDialect('xml');
    for (const choice of [
      { type: 'auto' },
      { type: 'none' },
      { type: 'required' },
      { type: 'tool', toolName: 'get_weather' },
    ] as const) {
      expect(xml.promptInstructions(tools, choice)).toBe(toolInstructions(tools, choice));
    }
  });

  it('each text dialect teaches its own call syntax and catalogue', () => {
    const pformat = createToolDialect('pformat').promptInstructions(tools, { type: 'required' });
    expect(pformat).toContain('Call as: get_weather[0|<city>|1|<unit>]');
    expect(pformat).not.toContain('Parameters: {');
    expect(pformat.endsWith('You must emit at least one tool call.')).toBe(true);
    expect(createToolDialect('python').promptInstructions(tools)).toMatch(/def get_weather\(city: str/);
    expect(createToolDialect('typescript').promptInstructions(tools)).toMatch(/function get_weather\(/);
  });

  it('native gives guidance only, and nothing for choice none', () => {
    const native = createToolDialect('native');
    expect(native.promptInstructions(tools)).not.toContain('get_weather');
    expect(native.promptInstructions(tools, { type: 'none' })).toBe('');
  });

  it('leaves the catalogue to the host but still spells out forced choices and listed tools', () => {
    const xml = createToolDialect('xml');
    const answer: ToolSchema = {
      name: 'final_answer',
      description: 'Return the answer.',
      parameters: { type: 'object' },
    };
    const text = xml.promptInstructions(
      [weather, answer],
      { type: 'tool', toolName: 'final_answer' },
      {
        hostRendersCatalogue: true,
        alwaysListed: ['final_answer'],
      },
    );
    expect(text).not.toContain('get_weather');
    expect(text).toContain('- **final_answer**: Return the answer.');
    expect(text.endsWith('You must call the `final_answer` tool.')).toBe(true);
    expect(xml.promptInstructions(tools, { type: 'auto' }, { hostRendersCatalogue: true })).toBe('');
  });
});

describe('renderCall', () => {
  it('writes a call in each dialect and falls back to JSON when the syntax cannot carry it', () => {
    const call = { name: 'get_weather', arguments: { city: 'Paris', unit: 'c' } };
    expect(createToolDialect('xml').renderCall(call, tools)).toBe(
      '<tool_call>{"name":"get_weather","arguments":{"city":"Paris","unit":"c"}}</tool_call>',
    );
    expect(createToolDialect('pformat').renderCall(call, tools)).toBe(
      '<tool_call>get_weather[0|Paris|1|c]</tool_call>',
    );
    expect(createToolDialect('python').renderCall(call, tools)).toBe(
      '<tool_call>get_weather(city="Paris", unit="c")</tool_call>',
    );
    expect(createToolDialect('typescript').renderCall(call, tools)).toBe(
      '<tool_call>get_weather({city: "Paris", unit: "c"})</tool_call>',
    );
    const forged = { name: 'get_weather', arguments: { city: '</tool_call>' } };
    for (const kind of ['pformat', 'python', 'typescript'] as const) {
      expect(createToolDialect(kind).renderCall(forged, tools)).toBe(
        '<tool_call>{"name":"get_weather","arguments":{"city":"\\u003c/tool_call>"}}</tool_call>',
      );
    }
  });
});

describe('parseResponse', () => {
  const call = (text: string, kind: Parameters<typeof createToolDialect>[0]) =>
    createToolDialect(kind).parseResponse({ content: text }, tools);

  it('reads each dialect from text, with the raw text kept for replay', () => {
    const xml = call('Checking.\n<tool_call>{"name":"get_weather","arguments":{"city":"Paris"}}</tool_call>', 'xml');
    expect(xml.calls).toEqual([{ name: 'get_weather', arguments: { city: 'Paris' }, source: 'tagged_json' }]);
    expect(xml.text).toBe('Checking.');
    expect(xml.replayText).toBe(
      'Checking.\n<tool_call>{"name":"get_weather","arguments":{"city":"Paris"}}</tool_call>',
    );
    expect(call('<tool_call>get_weather[0|Paris|1|c]</tool_call>', 'pformat').calls).toMatchObject([
      { name: 'get_weather', arguments: { city: 'Paris', unit: 'c' }, source: 'pformat' },
    ]);
    expect(call('<tool_call>get_weather(city="Oslo")</tool_call>', 'python').calls).toMatchObject([
      { name: 'get_weather', arguments: { city: 'Oslo' }, source: 'code' },
    ]);
    expect(call('<tool_call>get_weather({city: "Rome"})</tool_call>', 'typescript').calls).toMatchObject([
      { name: 'get_weather', arguments: { city: 'Rome' }, source: 'code' },
    ]);
  });

  it('makes P-Format and code bodies that break the rules invalid calls instead of guessing', () => {
    const invalid = (body: string, kind: 'pformat' | 'python') => {
      const [only, ...rest] = call(`<tool_call>${body}</tool_call>`, kind).calls;
      expect(rest).toEqual([]);
      expect(only?.invalid).toBeTypeOf('string');
      return { name: only?.name, arguments: only?.arguments, source: only?.source };
    };
    expect(invalid('get_weather[7|Paris]', 'pformat')).toEqual({
      name: 'get_weather',
      arguments: 'get_weather[7|Paris]',
      source: 'pformat',
    });
    expect(invalid('get_weather[0|Paris|1]', 'pformat').arguments).toBe('get_weather[0|Paris|1]');
    expect(invalid('get_weather(city=town)', 'python')).toEqual({
      name: 'get_weather',
      arguments: 'get_weather(city=town)',
      source: 'code',
    });
    expect(invalid('result = await functions.get_weather({city: town})', 'python').name).toBe('get_weather');
    // Prose that mentions a call, or a callee that is not offered, is no call at all.
    expect(call('<tool_call>I will call get_weather(city="Oslo") now</tool_call>', 'python').calls).toEqual([]);
    expect(call('<tool_call>launch_rockets(now=yes)</tool_call>', 'python').calls).toEqual([]);
  });

  it('prefers structured calls and keeps their ids, raw arguments and extra content', () => {
    const structured = {
      id: 'call_1',
      name: 'get_weather',
      arguments: { city: 'Paris' },
      rawArguments: '{"city": "Paris"}',
      extraContent: { thought: 'x' },
    };
    for (const kind of ['native', 'xml'] as const) {
      const parsed = createToolDialect(kind).parseResponse({ content: 'ok', toolCalls: [structured] }, tools);
      expect(parsed.calls).toEqual([{ ...structured, source: 'native' }]);
      expect(parsed.text).toBe('ok');
    }
  });

  it('native falls back to the text parser, keeping the text when nothing is found', () => {
    const native = createToolDialect('native');
    const recovered = native.parseResponse(
      { content: 'On it.\n<tool_call>{"name":"get_weather","arguments":{"city":"Oslo"}}</tool_call>' },
      tools,
    );
    expect(recovered.calls).toHaveLength(1);
    expect(recovered.text).toBe('On it.');
    expect(recovered.replayText).toBe('On it.');
    const prose = native.parseResponse({ content: '  It is sunny.  ' }, tools);
    expect(prose).toEqual({ text: '  It is sunny.  ', replayText: '  It is sunny.  ', calls: [], diagnostics: [] });
  });
});

describe('formatResults', () => {
  const results = [
    { role: 'tool', toolCallId: 'c1', toolName: 'get_weather', content: 'sunny' },
    { role: 'tool', toolCallId: '', toolName: 'get_weather', content: 'rain', isError: true },
  ] as const;

  it('text dialects fold a batch into one [Tool results] turn', () => {
    const [turn, ...rest] = createToolDialect('pformat').formatResults(results);
    expect(rest).toEqual([]);
    expect(turn?.role).toBe('user');
    expect(parseToolResultsEnvelope(messageText(turn!)).map((result) => result.body)).toEqual(['sunny', 'rain']);
  });

  it('native keeps one tool message per call and names a missing id unknown', () => {
    const out = createToolDialect('native').formatResults(results);
    expect(out).toEqual([results[0], { ...results[1], toolCallId: 'unknown' }]);
  });
});

describe('toProviderMessages', () => {
  const raw = 'Let me look.\n<tool_call>get_weather[0|Paris]</tool_call>';
  const history: Message[] = [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Weather in Paris?' },
    {
      role: 'assistant',
      content: raw,
      reasoningContent: 'need weather',
      toolCalls: [{ id: 'm1-tool-0', name: 'get_weather', arguments: '{"city":"Paris"}' }],
    },
    { role: 'tool', toolCallId: 'm1-tool-0', toolName: 'get_weather', content: 'sunny' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'm2-tool-0', name: 'get_weather', arguments: '{}' }] },
  ];

  it('text dialects replay the raw tagged text, fold results and add the prompt', () => {
    const out = createToolDialect('pformat').toProviderMessages(history, tools, { type: 'auto' });
    expect(out.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(out[2]).toEqual({ role: 'assistant', content: raw, reasoningContent: 'need weather' });
    expect(messageText(out[3]!)).toBe(
      '[Tool results]\n<tool_result name="get_weather" status="ok">\nsunny\n</tool_result>',
    );
    expect(messageText(out[0]!)).toContain('Call as: get_weather[0|<city>|1|<unit>]');
    expect(messageText(out[0]!).startsWith('Be brief.\n')).toBe(true);
  });

  it('native only drops broken cycles', () => {
    const out = createToolDialect('native').toProviderMessages(history, tools);
    expect(out).toEqual(history.slice(0, 4));
    expect(out[2]).toBe(history[2]);
  });
});

describe('recordAssistantTurn', () => {
  it('records the replay text, settled ids, raw arguments and reasoning', () => {
    const response = {
      content: 'x <tool_call>get_weather[0|Oslo]</tool_call>',
      reasoning: 'think',
      reasoningSignature: 'sig',
    };
    const parsed = createToolDialect('pformat').parseResponse(response, tools);
    const message = recordAssistantTurn(
      response,
      parsed,
      parsed.calls.map((call, n) => ({ ...call, id: `m1-tool-${n}` })),
    );
    expect(message).toEqual({
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'think', signature: 'sig' },
        { type: 'text', text: response.content },
      ],
      toolCalls: [{ id: 'm1-tool-0', name: 'get_weather', arguments: '{"city":"Oslo"}', grammar: 'pformat' }],
    });
  });

  it('keeps the provider argument text and an invalid raw string as they came', () => {
    const message = recordAssistantTurn({ content: '', reasoning: 'r' }, { replayText: '' }, [
      { id: 'a', name: 'x', arguments: { k: 1 }, rawArguments: '{ "k" : 1 }', source: 'native', extraContent: [1] },
      { id: 'b', name: 'y', arguments: '{bad', invalid: 'bad json', source: 'native' },
    ]);
    expect(message).toEqual({
      role: 'assistant',
      content: '',
      reasoningContent: 'r',
      toolCalls: [
        { id: 'a', name: 'x', arguments: '{ "k" : 1 }', extraContent: [1] },
        { id: 'b', name: 'y', arguments: '{bad' },
      ],
    });
  });
});
