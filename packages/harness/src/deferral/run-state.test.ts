import { defineTool } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { InvalidRunStateError } from '../errors/invalid-run-state-error.js';
import { ScriptedModel } from '../testkit/index.js';
import { parseRunState } from './run-state.js';

const call = (id: string) => ({ id, name: 'append', arguments: '{"line":"x"}' });

function checkpoint(messages: unknown[]) {
  return {
    version: 1,
    runId: 'r',
    messages: [{ role: 'user', content: 'go' }, ...messages],
    budgets: { modelCalls: 1, toolCalls: 0 },
    usage: {},
  };
}

describe('parseRunState call ids', () => {
  it.each([
    [
      'twice in the batch in flight',
      [{ role: 'assistant', content: '', toolCalls: [call('a'), call('a')] }],
      /appears twice/,
    ],
    [
      'reused from an earlier turn',
      [
        { role: 'assistant', content: '', toolCalls: [call('a')] },
        { role: 'tool', toolCallId: 'a', toolName: 'append', content: 'ok' },
        { role: 'assistant', content: '', toolCalls: [call('a')] },
      ],
      /already used by an earlier assistant turn/,
    ],
    [
      'answered twice',
      [
        { role: 'assistant', content: '', toolCalls: [call('a'), call('b')] },
        { role: 'tool', toolCallId: 'a', toolName: 'append', content: 'ok' },
        { role: 'tool', toolCallId: 'a', toolName: 'append', content: 'ok' },
      ],
      /answered twice/,
    ],
    ['with tool calls that are not a list', [{ role: 'assistant', content: '', toolCalls: 'a' }], /toolCalls/],
  ])('refuses a checkpoint with a call id %s', (_name, messages, reason) => {
    expect(() => parseRunState(checkpoint(messages))).toThrow(InvalidRunStateError);
    expect(() => parseRunState(JSON.stringify(checkpoint(messages)))).toThrow(reason);
  });

  it('resume refuses a duplicated call and runs nothing', async () => {
    const lines: string[] = [];
    const append = defineTool({
      name: 'append',
      description: '',
      parameters: { type: 'object', properties: { line: { type: 'string' } } },
      execute: ({ line }) => {
        lines.push(String(line));
        return 'ok';
      },
    });
    const model = new ScriptedModel({ steps: [{ content: 'done' }] });
    const harness = new AgentHarness({ model, tools: [append] });
    const state = checkpoint([{ role: 'assistant', content: '', toolCalls: [call('a'), call('a')] }]);
    await expect(harness.resume({}, state as never)).rejects.toThrow(InvalidRunStateError);
    expect(lines).toEqual([]);
    expect(model.calls).toBe(0);
    const fine = checkpoint([{ role: 'assistant', content: '', toolCalls: [call('a'), call('b')] }]);
    const run = await harness.resume({}, fine as never);
    expect(lines).toEqual(['x', 'x']);
    expect(run.text).toBe('done');
  });
});
