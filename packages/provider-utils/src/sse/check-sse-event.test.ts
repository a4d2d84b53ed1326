import { describe, expect, it } from 'vitest';
import { checkSseEvent } from './check-sse-event.js';

const anthropic = { names: ['message_start', 'message_stop'], keepAlive: ['ping'], selfNamed: true };
const gemini = {};

describe('checkSseEvent', () => {
  it('reads unnamed events, `message` events and whole bodies in every protocol', () => {
    expect(checkSseEvent({ event: undefined, data: '{}' }, gemini)).toEqual({ verdict: 'read' });
    expect(checkSseEvent({ event: 'message', data: '{}' }, gemini)).toEqual({ verdict: 'read' });
    expect(checkSseEvent({ event: undefined, data: '{"error":{}}', whole: true }, gemini)).toEqual({
      verdict: 'read',
    });
  });

  it('makes an event named error an error with data, without data and in any case', () => {
    for (const event of [
      { event: 'error', data: '' },
      { event: 'ERROR', data: '{"error":{"message":"x"}}' },
      { event: 'Error', data: '  ' },
    ]) {
      expect(checkSseEvent(event, gemini)).toEqual({ verdict: 'error' });
      expect(checkSseEvent(event, anthropic)).toEqual({ verdict: 'error' });
    }
  });

  it('breaks the stream on a name the protocol does not have, with or without data', () => {
    expect(checkSseEvent({ event: 'done', data: '{"candidates":[]}' }, gemini)).toMatchObject({
      verdict: 'violation',
      reason: expect.stringContaining('"done"'),
    });
    expect(checkSseEvent({ event: 'done', data: '' }, gemini)).toMatchObject({
      verdict: 'violation',
      reason: expect.stringContaining('without data'),
    });
  });

  it('breaks the stream on a known name without data, and skips keep-alives either way', () => {
    expect(checkSseEvent({ event: 'message_stop', data: '' }, anthropic)).toMatchObject({ verdict: 'violation' });
    expect(checkSseEvent({ event: 'MESSAGE_STOP', data: '{"type":"message_stop"}' }, anthropic)).toEqual({
      verdict: 'read',
    });
    expect(checkSseEvent({ event: 'ping', data: '' }, anthropic)).toEqual({ verdict: 'keep_alive' });
    // a tester's find: `event: message_stop` over `{"type":"ping"}` was read by its data and skipped
    expect(checkSseEvent({ event: 'message_stop', data: '{"type":"ping"}' }, anthropic)).toMatchObject({
      verdict: 'violation',
      reason: expect.stringContaining('"ping"'),
    });
    expect(checkSseEvent({ event: 'message_stop', data: '{"no_type":1}' }, anthropic)).toEqual({ verdict: 'read' });
    expect(checkSseEvent({ event: 'ping', data: '{"type":"ping"}' }, anthropic)).toEqual({ verdict: 'keep_alive' });
  });

  it('reads an unknown name of a self-named protocol only when its data says the same type', () => {
    // Anthropic's streaming guide: new event types may be added; a reader should skip them.
    expect(checkSseEvent({ event: 'some_future_event', data: '{"type":"some_future_event"}' }, anthropic)).toEqual({
      verdict: 'read',
    });
    for (const data of ['{"type":"message_stop"}', '', '[]', 'not json', '{"type":1}']) {
      expect(checkSseEvent({ event: 'some_future_event', data }, anthropic).verdict).toBe('violation');
    }
    expect(checkSseEvent({ event: 'some_future_event', data: '{"type":"some_future_event"}' }, gemini).verdict).toBe(
      'violation',
    );
  });

  it('makes an error payload under a keep-alive or unknown name an error, and reads names trimmed', () => {
    // Found by a tester: `event: ping` carrying `{"type":"error"}` was skipped and the turn's calls ran.
    for (const data of [
      '{"type":"error","error":{"message":"x"}}',
      '{"error":{"message":"x"}}',
      '{"type":" Error "}',
    ]) {
      expect(checkSseEvent({ event: 'ping', data }, anthropic)).toEqual({ verdict: 'error' });
      expect(checkSseEvent({ event: 'PING', data }, anthropic)).toEqual({ verdict: 'error' });
      expect(checkSseEvent({ event: 'relay_note', data }, anthropic)).toEqual({ verdict: 'error' });
      expect(checkSseEvent({ event: 'relay_note', data }, gemini)).toEqual({ verdict: 'error' });
    }
    expect(checkSseEvent({ event: 'ping', data: '{"error":null}' }, anthropic)).toEqual({ verdict: 'keep_alive' });
    expect(checkSseEvent({ event: 'error ', data: '{"type":"error "}' }, anthropic)).toEqual({ verdict: 'error' });
    expect(checkSseEvent({ event: ' Error', data: '' }, gemini)).toEqual({ verdict: 'error' });
  });

  it('after the terminal event, breaks the stream on every event, an error included', () => {
    const after = 'message_stop';
    for (const event of [
      { event: 'message_stop', data: '{"type":"message_stop"}' },
      { event: 'message_delta', data: '{"type":"message_delta","delta":{"stop_reason":"end_turn"}}' },
      { event: 'ping', data: '' },
      { event: undefined, data: '[DONE]' },
      { event: undefined, data: '{}' },
      { event: 'some_future_event', data: '{"type":"some_future_event"}' },
      { event: 'error', data: '' },
      { event: undefined, data: '{"error":{"message":"x"}}' },
    ]) {
      expect(checkSseEvent(event, anthropic, after)).toMatchObject({
        verdict: 'violation',
        reason: expect.stringContaining(after),
      });
    }
    expect(checkSseEvent({ event: undefined, data: ' [DONE] ' }, { doneAfterEnd: true }, after)).toEqual({
      verdict: 'keep_alive',
    });
    expect(checkSseEvent({ event: undefined, data: '{}' }, { doneAfterEnd: true }, after).verdict).toBe('violation');
  });
});
