import { describe, expect, it } from 'vitest';
import { type Message, messageText } from '../messages/message.js';
import type { ToolSchema } from '../spec/tool-schema.js';
import { createNativeDialect, nativeDeclaredTools, nativeToolChoice } from './create-native-dialect.js';
import { recordAssistantTurn } from './record-assistant-turn.js';

const lookup: ToolSchema = {
  name: 'lookup',
  parameters: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
};
const weather: ToolSchema = {
  name: 'weather',
  description: 'Weather for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  format: { type: 'xml' },
};
const search: ToolSchema = {
  name: 'search',
  parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  format: { type: 'ptype', parameters: ['query'] },
};
const tools = [lookup, weather, search];

describe('a native request with tools in their own format', () => {
  it('declares only json tools on the wire and keeps a forced choice off the wire when it names a text tool', () => {
    expect(nativeDeclaredTools(tools)).toEqual([lookup]);
    expect(nativeDeclaredTools([lookup])).toEqual([lookup]);
    expect(nativeToolChoice({ type: 'tool', toolName: 'lookup' }, tools)).toEqual({ type: 'tool', toolName: 'lookup' });
    expect(nativeToolChoice({ type: 'tool', toolName: 'weather' }, tools)).toEqual({ type: 'auto' });
    expect(nativeToolChoice({ type: 'required' }, tools)).toEqual({ type: 'auto' });
    expect(nativeToolChoice({ type: 'required' }, [lookup])).toEqual({ type: 'required' });
    expect(nativeToolChoice({ type: 'required' }, [weather])).toBeUndefined();
    const prompt = createNativeDialect().promptInstructions(tools, { type: 'tool', toolName: 'weather' });
    expect(prompt).toContain('<city>string</city>');
    expect(prompt).toContain('search(query: string)');
    expect(prompt).not.toContain('never by writing a call as text');
    expect(prompt.endsWith('You must call the `weather` tool.')).toBe(true);
    expect(createNativeDialect().promptInstructions(tools, { type: 'none' })).toBe('');
  });

  it('replays text calls as text (an invalid one as the model wrote it) and their results in the envelope', () => {
    const history: Message[] = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: 'On it.',
        toolCalls: [
          { id: 'n1', name: 'lookup', arguments: '{"key":"a"}' },
          { id: 't1', name: 'weather', arguments: '<weather><city>Paris</weather>', grammar: 'xml_element' },
          { id: 't2', name: 'search', arguments: '{"query":"a \\"quoted\\" ) word"}', grammar: 'ptype' },
        ],
      },
      { role: 'tool', toolCallId: 'n1', toolName: 'lookup', content: 'A' },
      { role: 'tool', toolCallId: 't1', toolName: 'weather', content: 'bad xml', isError: true },
      { role: 'tool', toolCallId: 't2', toolName: 'search', content: 'found' },
    ];
    const out = createNativeDialect().toProviderMessages(history, tools);
    expect(out.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user']);
    const assistant = out[2];
    expect(assistant?.role === 'assistant' && assistant.toolCalls).toEqual([
      { id: 'n1', name: 'lookup', arguments: '{"key":"a"}' },
    ]);
    expect(messageText(assistant as Message)).toBe(
      'On it.\n<weather><city>Paris</weather>\nsearch("a \\"quoted\\" ) word")',
    );
    const envelope = messageText(out[4] as Message);
    expect(envelope).toContain('<tool_result name="weather" status="error">');
    expect(envelope).toContain('<tool_result name="search" status="ok">');
    // The replayed text reads back as the same calls.
    const reread = createNativeDialect().parseResponse({ content: messageText(assistant as Message) }, tools);
    expect(reread.calls.map((call) => [call.name, call.invalid !== undefined])).toEqual([
      ['weather', true],
      ['search', false],
    ]);
    expect(reread.calls[1]?.arguments).toEqual({ query: 'a "quoted" ) word' });
  });
  // Breaker B3 (issue 31): replay follows the grammar that read each call, not the tool's format.
  it('replays each call in the syntax it was made in: a native call to an xml tool stays native, a tagged JSON call stays tagged JSON', () => {
    const history: Message[] = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'n1', name: 'weather', arguments: '{"city":"NAT"}' },
          { id: 't1', name: 'weather', arguments: '{"city":"TJ"}', grammar: 'tagged_json' },
          { id: 'x1', name: 'weather', arguments: '{"city":"XE"}', grammar: 'xml_element' },
          { id: 'p1', name: 'lookup', arguments: '{"key":"k"}', grammar: 'ptype' },
        ],
      },
      { role: 'tool', toolCallId: 'n1', toolName: 'weather', content: 'N' },
      { role: 'tool', toolCallId: 't1', toolName: 'weather', content: 'T' },
      { role: 'tool', toolCallId: 'x1', toolName: 'weather', content: 'X' },
      { role: 'tool', toolCallId: 'p1', toolName: 'lookup', content: 'P' },
    ];
    const out = createNativeDialect().toProviderMessages(history, tools);
    expect(out.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user']);
    const assistant = out[2];
    expect(assistant?.role === 'assistant' && assistant.toolCalls).toEqual([
      { id: 'n1', name: 'weather', arguments: '{"city":"NAT"}' },
    ]);
    expect(out[3]).toMatchObject({ role: 'tool', toolCallId: 'n1', content: 'N' });
    expect(messageText(assistant as Message)).toBe(
      '<tool_call>{"name":"weather","arguments":{"city":"TJ"}}</tool_call>\n<weather><city>XE</city></weather>\nlookup("k")',
    );
    const envelope = messageText(out[4] as Message);
    // The three text calls' results come back in the envelope; the native one's stays a tool message.
    expect(envelope.split('<tool_result ').length - 1).toBe(3);
    expect(envelope).toContain('<tool_result name="lookup" status="ok">');
  });

  it('records the grammar of a text call on the assistant turn, and none for a structured call', () => {
    const parsed = createNativeDialect().parseResponse(
      {
        content: '<weather><city>Oslo</city></weather>',
        toolCalls: [{ id: 'a', name: 'lookup', arguments: '{"key":"k"}' }],
      },
      tools,
    );
    const message = recordAssistantTurn(
      { content: '' },
      parsed,
      parsed.calls.map((call, index) => ({ ...call, id: `c${index}` })),
    );
    expect(message.toolCalls?.map((call) => call.grammar)).toEqual([undefined, 'xml_element']);
  });
});
