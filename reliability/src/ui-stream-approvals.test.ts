// @tiny/ui-stream approvals from the browser: random sequences of approval responses sent back to
// handleChatRequest (the real ids, made-up ids, ids swapped between calls, wrong tool call ids,
// partial answers, replays, edited inputs) never run a call the client did not approve with the id
// issued for THAT call, never run a call twice, and always run the server-kept arguments.
// Sized by a run count (FUZZ_RUNS / 100, at least 40), never by time.
import { AgentHarness, sensitive } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { handleChatRequest, InMemoryApprovalStore } from '@tiny/ui-stream';
import fc from 'fast-check';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { FUZZ_RUNS } from './arbitraries.js';

const runs = { numRuns: Math.max(40, Math.ceil(FUZZ_RUNS / 100)) };

function setup() {
  const executed: string[] = [];
  const pay = defineTool({
    name: 'pay',
    description: 'Pay.',
    parameters: Type.Object({ to: Type.String(), cents: Type.Integer(), memo: sensitive(Type.String()) }),
    policy: ToolPolicy.classified().withSideEffects({ payment: true }).requiringApproval(),
    execute: ({ to, cents }) => {
      executed.push(`${to}:${cents}`);
      return `paid ${to}`;
    },
  });
  const model = new ScriptedModel({
    repeatLast: true,
    steps: [
      {
        toolCalls: [
          scriptedToolCall('pay', { to: 'ada', cents: 1, memo: 'm' }, 'p1'),
          scriptedToolCall('pay', { to: 'bob', cents: 2, memo: 'm' }, 'p2'),
        ],
      },
      { content: 'Done.' },
    ],
  });
  const harness = new AgentHarness({ model, tools: [pay], approvalSecret: 'reliability-ui-approvals-secret-00000000' });
  return { harness, executed, store: new InMemoryApprovalStore() };
}

/** The UI message stream's chunks from an SSE response body. */
async function chunks(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: {'))
    .map((frame) => JSON.parse(frame.slice('data: '.length)) as Record<string, unknown>);
}

type IdChoice = 'own' | 'other' | 'forged' | 'none';
interface Answer {
  readonly call: 'p1' | 'p2';
  readonly id: IdChoice;
  readonly toolCallId: 'own' | 'other' | 'unknown';
  readonly approved: boolean;
  readonly editInput: boolean;
}
const answer: fc.Arbitrary<Answer> = fc.record({
  call: fc.constantFrom<'p1' | 'p2'>('p1', 'p2'),
  id: fc.constantFrom<IdChoice>('own', 'own', 'other', 'forged', 'none'),
  toolCallId: fc.constantFrom<'own' | 'other' | 'unknown'>('own', 'own', 'own', 'other', 'unknown'),
  approved: fc.boolean(),
  editInput: fc.boolean(),
});

describe(`ui-stream approval responses (${runs.numRuns} sequences)`, () => {
  it('only an approval with the id issued for that call runs it, once, with the kept arguments', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(answer, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 }),
        async (requests) => {
          const { harness, executed, store } = setup();
          const user = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'pay both' }] };
          const first = await chunks(await handleChatRequest(harness, { messages: [user] }, { approvalStore: store }));
          const issued = new Map<string, string>();
          for (const chunk of first)
            if (chunk.type === 'tool-approval-request')
              issued.set(chunk.toolCallId as string, chunk.approvalId as string);
          expect([...issued.keys()]).toEqual(['p1', 'p2']);
          const allowed = new Set<string>();
          let resumed = false;
          for (const request of requests) {
            const parts = request.map((item) => {
              const other = item.call === 'p1' ? 'p2' : 'p1';
              const id =
                item.id === 'own'
                  ? issued.get(item.call)
                  : item.id === 'other'
                    ? issued.get(other)
                    : item.id === 'forged'
                      ? 'f0rged'
                      : undefined;
              const toolCallId = item.toolCallId === 'own' ? item.call : item.toolCallId === 'other' ? other : 'p9';
              return {
                type: 'tool-pay',
                toolCallId,
                state: 'approval-responded',
                input: item.editInput ? { to: 'mallory', cents: 10_000 } : { to: 'ada', cents: 1 },
                approval: { id, approved: item.approved },
              };
            });
            const response = await handleChatRequest(
              harness,
              { messages: [user, { id: 'a1', role: 'assistant', parts }] },
              { approvalStore: store },
            );
            // Exactly-right answers: each pending call answered once, with the id issued for it.
            const effective = parts.map((part) => ({ callId: part.toolCallId, id: part.approval.id }));
            const valid =
              !resumed &&
              effective.length === 2 &&
              new Set(effective.map((part) => part.callId)).size === 2 &&
              effective.every((part) => part.id !== undefined && part.id === issued.get(part.callId));
            if (response.status === 200) {
              expect(valid, JSON.stringify(request)).toBe(true);
              await response.text();
              resumed = true;
              request.forEach((item, index) => {
                if (item.approved) allowed.add(parts[index]?.toolCallId === 'p1' ? 'ada:1' : 'bob:2');
              });
            } else {
              expect([400, 409]).toContain(response.status);
              expect(valid && !resumed, JSON.stringify(request)).toBe(false);
            }
          }
          // Nothing but the approved calls ran, each once, with the arguments the server kept.
          expect([...executed].sort()).toEqual([...allowed].sort());
        },
      ),
      runs,
    );
  });
});
