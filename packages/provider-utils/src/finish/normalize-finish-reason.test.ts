import { describe, expect, it } from 'vitest';
import { normalizeFinishReason } from './normalize-finish-reason.js';

describe('normalizeFinishReason', () => {
  it('maps the values providers send, whatever their case', () => {
    const cases: [string, string][] = [
      ['stop', 'stop'],
      ['end_turn', 'stop'],
      ['STOP', 'stop'],
      ['eos_token', 'stop'],
      ['length', 'length'],
      ['MAX_TOKENS', 'length'],
      ['model_length', 'length'],
      ['model_context_window_exceeded', 'length'],
      ['tool_calls', 'tool_calls'],
      ['tool_use', 'tool_calls'],
      ['SAFETY', 'content_filter'],
      ['recitation', 'content_filter'],
      ['refusal', 'content_filter'],
      ['insufficient_system_resource', 'error'],
      ['abort', 'error'],
      ['MALFORMED_FUNCTION_CALL', 'error'],
      ['pause_turn', 'other'],
    ];
    for (const [raw, mapped] of cases) expect([raw, normalizeFinishReason(raw)]).toEqual([raw, mapped]);
  });

  it('maps a value it does not know to error, never to a normal end', () => {
    for (const raw of ['OTHER', 'FINISH_REASON_UNSPECIFIED', 'load', 'weird', '', 'tool_calls_partial'])
      expect(normalizeFinishReason(raw)).toBe('error');
  });

  it('maps names of object prototype members to error, not to a prototype member', () => {
    for (const raw of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'CONSTRUCTOR'])
      expect(normalizeFinishReason(raw)).toBe('error');
  });
});
