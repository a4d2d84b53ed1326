import { readFileSync } from 'node:fs';
import { AgentHarness, DeferredToolResults, parseRunState, serializeRunState } from '@tiny/harness';
import { useReplayServer } from '@tiny/provider-tests';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { openaiResponses } from './presets/openai.js';

const replay = useReplayServer(new URL('./__fixtures__/', import.meta.url));

/** The `encrypted_content` of the reasoning item in the recorded step 1, as `added` and as `done` sent it. */
function recordedEncryptedContent(): { added: string; done: string } {
  const text = readFileSync(new URL('./__fixtures__/responses/reasoning-agent-run.1.sse', import.meta.url), 'utf8');
  const events = text
    .split('\n\n')
    .filter((block) => block.includes('data: '))
    .map(
      (block) =>
        JSON.parse(block.slice(block.indexOf('data: ') + 6)) as { type: string; item?: Record<string, unknown> },
    );
  const of = (type: string) =>
    String(events.find((event) => event.type === type && event.item?.type === 'reasoning')?.item?.encrypted_content);
  return { added: of('response.output_item.added'), done: of('response.output_item.done') };
}

describe('an agent run with reasoning, approval and resume (recorded gpt-5.1-codex-max traffic)', () => {
  it('pauses every calculator call, resumes in a new harness from saved text, and replays the encrypted reasoning byte for byte', async () => {
    const baseURL = replay.load('responses/reasoning-approval-resume.json');
    const ran: string[] = [];
    const calculator = defineTool({
      name: 'calculator',
      description: 'A minimal calculator for basic arithmetic. Call it once per step.',
      parameters: Type.Object(
        {
          a: Type.Number({ description: 'First operand.' }),
          b: Type.Number({ description: 'Second operand.' }),
          op: Type.Union(
            [Type.Literal('add'), Type.Literal('subtract'), Type.Literal('multiply'), Type.Literal('divide')],
            {
              description: 'Arithmetic operation to perform.',
            },
          ),
        },
        { additionalProperties: false },
      ),
      policy: ToolPolicy.classified().requiringApproval(),
      execute: ({ a, b, op }) => {
        ran.push(`${a} ${op} ${b}`);
        const value = op === 'add' ? a + b : op === 'subtract' ? a - b : op === 'multiply' ? a * b : a / b;
        return String(value);
      },
    });
    const model = openaiResponses({ baseURL, apiKey: 'sk-test-responses' })('gpt-5.1-codex-max', {
      providerOptions: { reasoningEffort: 'high', reasoningSummary: 'detailed' },
    });
    const harness = () => new AgentHarness({ model, tools: [calculator] });
    const stream = harness().stream({ runId: 'responses-run' }, [
      { role: 'system', content: 'Use the calculator for every step.' },
      { role: 'user', content: 'Compute (12 + 7) * 3 * 10 with the calculator, one step per call.' },
    ]);
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    let run = await stream.result;
    expect(types).toContain('tool_deferred');
    let pauses = 0;
    while (run.outcome === 'deferred') {
      pauses += 1;
      const { deferred, state: saved } = run;
      expect(deferred.approvalsFor(calculator).map((call) => call.toolName)).toEqual(['calculator']);
      // another process: the state goes through text, a new harness resumes it
      const state = parseRunState(serializeRunState(saved));
      const resumed = harness().streamResumeDeferred({}, state, new DeferredToolResults().approveAll(deferred));
      for await (const _event of resumed);
      run = await resumed.result;
    }
    expect(pauses).toBe(3);
    expect(ran).toEqual(['12 add 7', '19 multiply 3', '57 multiply 10']);
    expect(run.outcome).toBe('final');
    expect(run.text).toBe('The final result is **570**.');

    // Every later request carried step 1's reasoning item with the `done` encrypted_content, unchanged.
    const { added, done } = recordedEncryptedContent();
    expect(added).not.toBe(done);
    const requests = replay.server().requests;
    expect(requests).toHaveLength(4);
    for (const request of requests.slice(1)) {
      const input = (request.body as { input: Record<string, unknown>[] }).input;
      const reasoning = input.filter((item) => item.type === 'reasoning');
      expect(reasoning).toHaveLength(1);
      expect(reasoning[0]?.encrypted_content).toBe(done);
    }
  });
});
