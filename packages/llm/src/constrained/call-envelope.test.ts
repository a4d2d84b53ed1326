import { createValidator, InvalidInputError, type JsonSchema } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import type { ToolSchema } from '../spec/tool-schema.js';
import { callEnvelopeSchema, readCallEnvelope, shouldConstrainCalls } from './call-envelope.js';

const weather: ToolSchema = {
  name: 'weather',
  parameters: {
    type: 'object',
    properties: { city: { $ref: '#/$defs/city' }, secret: { type: 'string', 'x-tiny-sensitive': true } },
    required: ['city'],
    additionalProperties: false,
    $defs: { city: { type: 'string', minLength: 1 } },
  },
};
const add: ToolSchema = {
  name: 'add',
  parameters: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    additionalProperties: false,
  },
};

const accepts = (schema: JsonSchema, value: unknown) => createValidator(schema).validate(value).ok;

describe('callEnvelopeSchema', () => {
  it('auto: one branch per tool plus the plain answer, each checked against its own parameters', () => {
    const schema = callEnvelopeSchema([weather, add]);
    expect(accepts(schema, { name: 'weather', arguments: { city: 'Paris' } })).toBe(true);
    expect(accepts(schema, { name: 'add', arguments: { a: 1, b: 2 } })).toBe(true);
    expect(accepts(schema, { answer: 'hello' })).toBe(true);
    // The arguments of one tool under another's name, an unknown name, a bad value, extra keys.
    expect(accepts(schema, { name: 'add', arguments: { city: 'Paris' } })).toBe(false);
    expect(accepts(schema, { name: 'delete_all', arguments: {} })).toBe(false);
    expect(accepts(schema, { name: 'weather', arguments: { city: '' } })).toBe(false);
    expect(accepts(schema, { name: 'add', arguments: { a: 1, b: 2 }, answer: 'x' })).toBe(false);
  });

  it('required and a named tool leave no plain-answer branch', () => {
    expect(accepts(callEnvelopeSchema([weather, add], { type: 'required' }), { answer: 'prose' })).toBe(false);
    const named = callEnvelopeSchema([weather, add], { type: 'tool', toolName: 'add' });
    expect(accepts(named, { answer: 'prose' })).toBe(false);
    expect(accepts(named, { name: 'weather', arguments: { city: 'Paris' } })).toBe(false);
    expect(accepts(named, { name: 'add', arguments: { a: 1, b: 2 } })).toBe(true);
    expect((named.oneOf as unknown[]).length).toBe(1);
  });

  it('nests each schema self-contained: refs inlined, host annotations and $defs gone', () => {
    const text = JSON.stringify(callEnvelopeSchema([weather]));
    expect(text).not.toContain('$ref');
    expect(text).not.toContain('$defs');
    expect(text).not.toContain('x-tiny-');
    expect(text).toContain('"minLength":1');
  });

  it('refuses none, no tools and a forced tool that is not offered', () => {
    expect(() => callEnvelopeSchema([weather], { type: 'none' })).toThrow(InvalidInputError);
    expect(() => callEnvelopeSchema([])).toThrow(/no tools/);
    expect(() => callEnvelopeSchema([weather], { type: 'tool', toolName: 'add' })).toThrow(/"add"/);
  });
});

describe('readCallEnvelope', () => {
  it('reads a call with its arguments as written and a plain answer', () => {
    expect(readCallEnvelope(' {"name":"add","arguments":{"a":1,"b":2}}\n')).toEqual({
      kind: 'call',
      name: 'add',
      arguments: { a: 1, b: 2 },
    });
    // Malformed arguments are kept for admission to refuse, never replaced.
    expect(readCallEnvelope('{"name":"add","arguments":"oops"}')).toEqual({
      kind: 'call',
      name: 'add',
      arguments: 'oops',
    });
    expect(readCallEnvelope('{"answer":"It is sunny."}')).toEqual({ kind: 'answer', text: 'It is sunny.' });
  });

  it('is undefined for anything that is not exactly an envelope', () => {
    for (const text of [
      'It is sunny.',
      '```json\n{"name":"add","arguments":{}}\n```',
      '{"name":"add"}',
      '{"name":"add","arguments":{},"extra":1}',
      '{"answer":5}',
      '{"name":"","arguments":{}}',
      '{"name":"add","arguments":',
      '[{"name":"add","arguments":{}}]',
    ])
      expect(readCallEnvelope(text), text).toBeUndefined();
  });
});

describe('shouldConstrainCalls', () => {
  const server = { structuredOutput: 'json_schema' as const };
  it('defaults to forced choices on schema-enforcing servers', () => {
    expect(shouldConstrainCalls(server, { type: 'required' }, 2)).toBe(true);
    expect(shouldConstrainCalls(server, { type: 'tool', toolName: 'add' }, 2)).toBe(true);
    expect(shouldConstrainCalls(server, { type: 'auto' }, 2)).toBe(false);
    expect(shouldConstrainCalls(server, undefined, 2)).toBe(false);
    expect(shouldConstrainCalls({ structuredOutput: 'none' }, { type: 'required' }, 2)).toBe(false);
  });
  it('follows the profile flag, but never under none or without tools', () => {
    expect(shouldConstrainCalls({ ...server, constrainedCalls: true }, { type: 'auto' }, 1)).toBe(true);
    expect(shouldConstrainCalls({ ...server, constrainedCalls: false }, { type: 'required' }, 1)).toBe(false);
    expect(shouldConstrainCalls({ ...server, constrainedCalls: true }, { type: 'none' }, 1)).toBe(false);
    expect(shouldConstrainCalls({ ...server, constrainedCalls: true }, { type: 'auto' }, 0)).toBe(false);
  });
});
