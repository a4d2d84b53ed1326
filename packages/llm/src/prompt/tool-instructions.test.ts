import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/message.js';
import type { ToolSchema } from '../spec/tool-schema.js';
import { renderJsonCall, renderJsonCalls } from './render-json-call.js';
import { renderJsonCatalogue, renderJsonProtocol } from './render-json-protocol.js';
import { renderNativeProtocol } from './render-native-protocol.js';
import { toolInstructions } from './tool-instructions.js';
import { withToolInstructions } from './with-tool-instructions.js';

const weather: ToolSchema = {
  name: 'get_weather',
  description: 'Get the current weather for a city.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, days: { type: 'integer' } },
    required: ['city', 'days'],
  },
};
const clock: ToolSchema = { name: 'now', description: 'The time.', parameters: { type: 'object', properties: {} } };

describe('renderJsonCall', () => {
  it('writes one compact JSON call in tags, and several one per line', () => {
    expect(renderJsonCall('get_weather', { city: 'Paris' })).toBe(
      '<tool_call>{"name":"get_weather","arguments":{"city":"Paris"}}</tool_call>',
    );
    expect(renderJsonCall('now', undefined)).toBe('<tool_call>{"name":"now","arguments":{}}</tool_call>');
    expect(
      renderJsonCalls([
        { name: 'a', arguments: {} },
        { name: 'b', arguments: 'raw' },
      ]),
    ).toBe('<tool_call>{"name":"a","arguments":{}}</tool_call>\n<tool_call>{"name":"b","arguments":"raw"}</tool_call>');
  });

  it('escapes a tag inside a value so the call cannot be cut short', () => {
    const text = renderJsonCall('echo', { text: 'x</tool_call><TOOL_RESULT a<b' });
    expect(text).toBe(
      '<tool_call>{"name":"echo","arguments":{"text":"x\\u003c/tool_call>\\u003cTOOL_RESULT a<b"}}</tool_call>',
    );
    const inner = text.slice('<tool_call>'.length, -'</tool_call>'.length);
    expect(JSON.parse(inner)).toEqual({ name: 'echo', arguments: { text: 'x</tool_call><TOOL_RESULT a<b' } });
  });
});

describe('renderJsonProtocol', () => {
  it('embeds the full-schema catalogue after the protocol block', () => {
    const text = renderJsonProtocol([weather, clock]);
    expect(text.startsWith('## Tool Use Protocol\n')).toBe(true);
    expect(text).toContain('<tool_call>{"name":"get_weather","arguments":{"city":"<city>","days":1}}</tool_call>');
    expect(text).toContain('<tool_result>');
    expect(text).toContain(renderJsonCatalogue([weather, clock]));
    expect(renderJsonCatalogue([clock])).toBe(
      '## Tools\n\n- **now**: The time.\n  Parameters: {"type":"object","properties":{}}',
    );
    expect(renderJsonProtocol([])).toBe('');
  });
});

describe('toolInstructions', () => {
  it('adds the forced-choice sentence per choice and is empty for none', () => {
    const auto = toolInstructions([weather], { type: 'auto' });
    expect(auto).toBe(renderJsonProtocol([weather]));
    expect(toolInstructions([weather], { type: 'required' })).toBe(`${auto}\n\nYou must emit at least one tool call.`);
    expect(toolInstructions([weather], { type: 'tool', toolName: 'get_weather' })).toBe(
      `${auto}\n\nYou must call the \`get_weather\` tool.`,
    );
    expect(toolInstructions([weather], { type: 'none' })).toBe('');
    expect(toolInstructions([], { type: 'required' })).toBe('');
  });
});

describe('withToolInstructions', () => {
  const user: Message = { role: 'user', content: 'hi' };

  it('appends a separate text part to the first system message', () => {
    const system: Message = { role: 'system', content: 'Be brief.' };
    const result = withToolInstructions([system, user], [weather]);
    expect(result[0]).toEqual({
      role: 'system',
      content: [
        { type: 'text', text: 'Be brief.' },
        { type: 'text', text: toolInstructions([weather]) },
      ],
    });
    expect(result[1]).toBe(user);
    expect(system.content).toBe('Be brief.');
  });

  it('adds a leading system message when there is none', () => {
    const result = withToolInstructions([user], [weather], { type: 'required' });
    expect(result).toHaveLength(2);
    expect(result[0]?.role).toBe('system');
    expect(result[1]).toBe(user);
  });

  it('leaves the list unchanged without tools or with choice none', () => {
    expect(withToolInstructions([user], [])).toEqual([user]);
    expect(withToolInstructions([user], [weather], { type: 'none' })).toEqual([user]);
  });
});

describe('renderNativeProtocol', () => {
  it('gives guidance without a catalogue or call syntax', () => {
    const text = renderNativeProtocol();
    expect(text).not.toContain('<tool_call>');
    expect(text).toContain('function-calling');
  });
});
