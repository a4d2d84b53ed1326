import {
  AgentHarness,
  type AgentHarnessOptions,
  ApprovalRequiredToolSet,
  HumanApprovalMiddleware,
  ToolPolicyMiddleware,
  toolSetFromTools,
} from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { codeModeTool } from './code-mode-tool.js';

function setup(gate: (raw: ReturnType<typeof rawRefund>) => Partial<AgentHarnessOptions>) {
  const refunded: number[] = [];
  const raw = rawRefund(refunded);
  const code = `try { return await refund({ cents: 100000 }); } catch (error) { return 'refused: ' + String(error); }`;
  const model = new ScriptedModel({
    steps: [{ toolCalls: [scriptedToolCall('run_code', { code }, 'c1')] }, { content: 'done' }],
  });
  const options = gate(raw);
  const harness = new AgentHarness({
    model,
    ...options,
    tools: [codeModeTool({ tools: [raw] }), ...((options.tools as never[] | undefined) ?? [])],
  });
  return { refunded, harness };
}

function rawRefund(refunded: number[]) {
  return defineTool({
    name: 'refund',
    description: 'Refund an order.',
    parameters: Type.Object({ cents: Type.Integer({ minimum: 1 }) }),
    policy: ToolPolicy.classified().withSideEffects({ payment: true }),
    execute: ({ cents }) => {
      refunded.push(cents);
      return 'refunded';
    },
  });
}

describe('code mode given the raw tool cannot pass the harness gates on it', () => {
  it.each([
    [
      'ApprovalRequiredToolSet',
      (raw: ReturnType<typeof rawRefund>) => ({ toolSets: [new ApprovalRequiredToolSet(toolSetFromTools([raw]))] }),
    ],
    [
      'a gated registration',
      (raw: ReturnType<typeof rawRefund>) => ({
        tools: [
          defineTool({
            ...raw,
            policy: ToolPolicy.classified().withSideEffects({ payment: true }).requiringApproval(),
          }),
        ],
      }),
    ],
    ['HumanApprovalMiddleware', () => ({ middleware: [new HumanApprovalMiddleware({ requireFor: ['refund'] })] })],
    [
      'ToolPolicyMiddleware.requireApproval',
      () => ({ middleware: [new ToolPolicyMiddleware({ requireApproval: ['refund'] })] }),
    ],
  ])('%s', async (_gate, gate) => {
    const { refunded, harness } = setup(gate);
    const run = await harness.invoke({ runId: 'r' }, [{ role: 'user', content: 'refund' }]);
    expect(refunded).toEqual([]);
    const answer = run.messages.find((message) => message.role === 'tool' && message.toolCallId === 'c1');
    expect(JSON.stringify(answer?.role === 'tool' ? answer.content : '')).toMatch(/refused: .*approval_required/);
  });
});
