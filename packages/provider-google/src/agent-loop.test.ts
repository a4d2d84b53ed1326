import { AgentHarness, DeferredToolResults, parseRunState, serializeRunState } from '@tiny/harness';
import { useReplayServer } from '@tiny/provider-tests';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { createVertex } from './create-google.js';

const replay = useReplayServer(new URL('./__fixtures__/', import.meta.url));

function scenario() {
  const effects: string[] = [];
  const weather = defineTool({
    name: 'weather',
    description: 'Look up the weather for a city.',
    parameters: Type.Object({ city: Type.String() }),
    policy: ToolPolicy.readOnly(),
    execute: ({ city }) => {
      effects.push(`weather:${city}`);
      return `${city}: light snow, -3 °C`;
    },
  });
  const pay = defineTool({
    name: 'pay',
    description: 'Pay someone.',
    parameters: Type.Object({ to: Type.String(), cents: Type.Integer({ minimum: 1 }) }),
    policy: ToolPolicy.classified().withSideEffects({ payment: true }).requiringApproval(),
    execute: ({ to, cents }) => {
      effects.push(`pay:${to}:${cents}`);
      return `paid ${to} ${cents} cents`;
    },
  });
  const model = createVertex({
    project: 'tiny-test',
    location: 'us-central1',
    baseURL: `${replay.server().url}/v1`,
    accessToken: async () => 'ya29.tiny-test-token',
  })('gemini-3-flash-preview');
  return { effects, harness: () => new AgentHarness({ model, tools: [weather, pay] }) };
}

describe('an agent run on Vertex AI with approval and resume', () => {
  it('pauses the payment, resumes it in a new harness and replays every thought signature on its own part', async () => {
    replay.load('agent/approval-resume.json');
    const { effects, harness } = scenario();
    const stream = harness().stream({ runId: 'gemini-run' }, [
      { role: 'system', content: 'You are a careful assistant.' },
      { role: 'user', content: 'Pay Ada 500 cents, and tell me the weather in Oslo.' },
    ]);
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    const paused = await stream.result;
    expect(paused.outcome).toBe('deferred');
    expect(effects).toEqual(['weather:Oslo']);
    expect(paused.deferred?.approvals.map((call) => [call.callId, call.toolName])).toEqual([['call-pay-2', 'pay']]);
    expect(types).toContain('tool_completed');

    // another process: the state goes through text, a new harness resumes it
    const saved = serializeRunState(paused.state as NonNullable<typeof paused.state>);
    const state = parseRunState(saved);
    const resumed = await harness().resumeDeferred(
      {},
      state,
      new DeferredToolResults().approveAll(paused.deferred ?? { approvals: [] }),
    );
    expect(resumed.outcome).toBe('final');
    expect(effects).toEqual(['weather:Oslo', 'pay:Ada:500']);
    expect(resumed.text).toBe('Paid Ada 500 cents. Oslo has light snow, -3 °C.');
    expect(resumed.usage).toMatchObject({ cachedInputTokens: 64 });

    // a follow-up turn replays the final answer and its closing signed part
    const followUp = await harness().invoke({}, [
      ...resumed.messages,
      { role: 'user', content: 'How much did I pay?' },
    ]);
    expect(followUp.text).toBe('You paid Ada 500 cents.');

    // the fixture's request expectations hold the exact parts; check the signature bytes once more here
    const [, second, third] = replay.server().requests;
    const sent = JSON.stringify(second?.body);
    expect(sent).toContain('"thoughtSignature":"AY89a18a8/Loc2wl5oft');
    expect(JSON.stringify(third?.body)).toContain('-3 °C.","thoughtSignature":"EqsFCqgFAb4+9vvtAF5n87lB4OGD');
  });
});
