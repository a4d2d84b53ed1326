import { type Message, messageText } from '@tiny/llm';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { ScriptedModel, scriptedToolCall } from '../testkit/index.js';
import { DeferredToolResults } from './deferred-tool-results.js';

// A call the host approved with edited arguments: what the model reads on the next turn, natively
// and through a prompt-guided dialect (whose provider messages are what a chat template renders).

const NOTE =
  '[The host approved this call with edited arguments; the tool ran with {"to":"ada","cents":250}, not with the arguments in your call.]';

function world(dialect: 'native' | 'xml') {
  const paid: string[] = [];
  const seen: (readonly Message[])[] = [];
  const pay = defineTool({
    name: 'pay',
    description: 'Pay someone.',
    parameters: Type.Object({ to: Type.String(), cents: Type.Integer({ minimum: 1 }) }),
    policy: ToolPolicy.classified().withSideEffects({ payment: true }).requiringApproval(),
    execute: ({ to, cents }) => {
      paid.push(`${to}:${cents}`);
      return `paid ${cents} to ${to}`;
    },
  });
  const first =
    dialect === 'native'
      ? { toolCalls: [scriptedToolCall('pay', { to: 'ada', cents: 500 }, 'c1')] }
      : { content: 'Paying.\n<tool_call>{"name":"pay","arguments":{"to":"ada","cents":500}}</tool_call>' };
  const model = new ScriptedModel({
    steps: [
      first,
      (request) => {
        seen.push(request.messages);
        return { content: 'Paid 2.50 EUR.' };
      },
    ],
  });
  const harness = new AgentHarness({ model, tools: [pay], policy: { toolDialect: dialect } });
  return { harness, paid, seen, pay };
}

describe.each(['native', 'xml'] as const)('host-edited arguments in the transcript (%s)', (dialect) => {
  it("keeps the model's call and tells the model what ran", async () => {
    const { harness, paid, seen, pay } = world(dialect);
    const run = await harness.invoke('pay ada');
    if (run.outcome !== 'deferred') throw new Error(`expected a pause, got ${run.outcome}`);
    const [call] = run.deferred.approvalsFor(pay);
    if (call === undefined) throw new Error('no approval');
    const done = await harness.resumeDeferred(
      {},
      run.state,
      new DeferredToolResults().approveWithArgs(call, { ...call.arguments, cents: 250 }),
    );
    expect(paid).toEqual(['ada:250']);
    expect(done.text).toBe('Paid 2.50 EUR.');
    // The transcript: the assistant call as the model made it, the answer opening with the note.
    const assistant = done.messages.find((message) => message.role === 'assistant');
    expect(assistant?.role === 'assistant' && JSON.parse(assistant.toolCalls?.[0]?.arguments ?? '')).toEqual({
      to: 'ada',
      cents: 500,
    });
    const answer = done.messages.find((message) => message.role === 'tool');
    expect(answer && messageText(answer)).toBe(`${NOTE}\npaid 250 to ada`);
    // What the model was sent next: the note reaches it in whatever shape the dialect gives results.
    const sent = seen[0] ?? [];
    const text = sent.map((message) => messageText(message)).join('\n');
    expect(text).toContain(NOTE);
    expect(text).toContain('paid 250 to ada');
    if (dialect === 'xml') {
      // Prompt-guided: the model's own call text is replayed unchanged, and no message needs a
      // template's tool-call support (no `toolCalls`), so any chat template renders it.
      expect(text).toContain('"cents":500');
      expect(sent.some((message) => message.role === 'assistant' && message.toolCalls !== undefined)).toBe(false);
    } else {
      const tool = sent.find((message) => message.role === 'tool');
      expect(tool?.role === 'tool' && tool.toolCallId).toBe(call.callId);
    }
  });
});
