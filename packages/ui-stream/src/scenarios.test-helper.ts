import { AgentHarness, ModelCallError, sensitive } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';

/** The host value injected into `pay` (never shown to the model, never on the wire). */
export const API_KEY = 'sk-host-injected-4242';
/** A sensitive argument value the model sends (`memo` is marked sensitive). */
export const MEMO = 'account-pin-9137';
export const APPROVAL_SECRET = 'ui-stream-tests-approval-secret-0123456789';

/** Tools of the scenarios: a read-only lookup that reports progress, a payment needing approval, a failing tool. */
export function createTools(log: string[] = []) {
  const lookup = defineTool({
    name: 'lookup',
    description: 'Look up an account.',
    parameters: Type.Object({ id: Type.String() }, { additionalProperties: false }),
    policy: ToolPolicy.readOnly(),
    execute: ({ id }, context) => {
      context.reportProgress({ message: 'searching', fraction: 0.5 });
      context.reportProgress({ message: 'found', fraction: 1 });
      log.push(`lookup:${id}`);
      return `account ${id}: 120 EUR`;
    },
  });
  const pay = defineTool({
    name: 'pay',
    description: 'Pay someone.',
    parameters: Type.Object(
      { to: Type.String(), cents: Type.Integer({ minimum: 1 }), memo: sensitive(Type.String()), apiKey: Type.String() },
      { additionalProperties: false },
    ),
    injected: [{ name: 'apiKey', source: 'host' }],
    policy: ToolPolicy.classified().withSideEffects({ payment: true }).requiringApproval(),
    execute: ({ to, cents, apiKey }) => {
      log.push(`pay:${to}:${cents}:${apiKey === API_KEY}`);
      return `paid ${cents} to ${to}`;
    },
  });
  const broken = defineTool({
    name: 'broken',
    description: 'Always fails.',
    parameters: Type.Object({}),
    policy: ToolPolicy.readOnly(),
    execute: () => {
      throw new Error('the disk is full');
    },
  });
  return { log, tools: [lookup, pay, broken] };
}

export type Scenario = 'native' | 'prompt_guided' | 'approval' | 'tool_error' | 'model_error';

/** A harness on a scripted model for one scenario (fresh each call). */
export function createScenario(scenario: Scenario) {
  const { log, tools } = createTools();
  const text = scenario === 'prompt_guided';
  const call = (name: string, args: unknown, id: string) =>
    text
      ? { content: `Let me check. <tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>` }
      : { content: 'Let me check.', toolCalls: [scriptedToolCall(name, args, id)] };
  const steps = {
    native: [call('lookup', { id: 'a1' }, 'c1'), { content: 'Account a1 holds 120 EUR.' }],
    prompt_guided: [call('lookup', { id: 'a1' }, 'c1'), { content: 'Account a1 holds 120 EUR.' }],
    approval: [call('pay', { to: 'ada', cents: 500, memo: MEMO }, 'c2'), { content: 'Done: paid ada.' }],
    tool_error: [call('broken', {}, 'c3'), { content: 'The tool failed.' }],
    model_error: [
      () => {
        throw new ModelCallError({ message: `bad key ${'x'.repeat(3)}`, kind: 'auth', statusCode: 401 });
      },
    ],
  }[scenario];
  const model = new ScriptedModel({ steps, chunkSize: 4, ...(text ? { profile: { toolCalling: false } } : {}) });
  const harness = new AgentHarness({
    model,
    tools,
    approvalSecret: APPROVAL_SECRET,
    ...(scenario === 'tool_error' ? { policy: { toolErrors: { kind: 'return_error' } } } : {}),
  });
  return { harness, log, model, context: { hostValues: { apiKey: API_KEY } } };
}
