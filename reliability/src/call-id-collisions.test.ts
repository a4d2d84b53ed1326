import { codeModeTool } from '@tiny/code-mode';
import {
  AgentHarness,
  type AgentHarnessOptions,
  type AgentRun,
  ApprovalRequiredToolSet,
  ContextualToolSelectionMiddleware,
  DeferredToolResults,
  FilteredToolSet,
  HumanApprovalMiddleware,
  InMemoryToolEffectLedger,
  PrefixedToolSet,
  RenamedToolSet,
  type RunState,
  ToolPolicyMiddleware,
  toolSetFromTools,
} from '@tiny/harness';
import { ScriptedModel, type ScriptedStep, scriptedToolCall } from '@tiny/harness/testkit';
import { type AnyTool, defineTool, ToolPolicy } from '@tiny/tools';
import fc from 'fast-check';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from './property-runs.js';

const RUNS = Number(process.env.CALL_ID_RUNS ?? propertyRuns(300));

/** Provider ids: short strings over `/`, `#`, digits and the pieces of the ids the harness mints. */
const providerId = fc.oneof(
  fc
    .array(fc.constantFrom('x', '/', '#', '1', '2', '-', "'", 'r', '-m0', '-m1', '-tool-0', '-tool-1'), {
      minLength: 1,
      maxLength: 5,
    })
    .map((parts) => parts.join('')),
  fc.constantFrom('x', 'x/1', 'x/2', 'x/1/1', 'r-m0-tool-0', 'r-m1-tool-0', 'r-m0-tool-1', "r-m0-tool-0'", '#1'),
);

/** One call of a batch: a direct refund (needs approval) or a program that refunds and notes. */
const call = fc.oneof(
  fc.record({ kind: fc.constant('refund' as const), id: providerId, cents: fc.integer({ min: 1, max: 999 }) }),
  fc.record({
    kind: fc.constant('code' as const),
    id: providerId,
    refunds: fc.array(fc.integer({ min: 100_000, max: 999_999 }), { maxLength: 2 }),
    notes: fc.integer({ min: 0, max: 2 }),
  }),
);

type Call = typeof call extends fc.Arbitrary<infer T> ? T : never;

function program(spec: Extract<Call, { kind: 'code' }>): string {
  const lines = [
    'const out = [];',
    ...spec.refunds.map(
      (cents) => `try { out.push(await refund({ cents: ${cents} })); } catch (error) { out.push('refused'); }`,
    ),
    ...Array.from({ length: spec.notes }, (_, n) => `out.push(await note({ text: 'n${n}' }));`),
    'return out;',
  ];
  return lines.join('\n');
}

describe(`call ids: no call runs without its own approval, every effect has its own ledger row (${RUNS} runs)`, () => {
  it('provider ids of every shape, mixed with code-mode calls, approvals and a toolset gate', async () => {
    let bypasses = 0;
    let shared = 0;
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(call, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 2 }),
        fc.boolean(),
        async (turns, gateByToolSet) => {
          cases += 1;
          /** Each refund that ran: its call id and cents. */
          const refunds: { callId: string; cents: number }[] = [];
          let effects = 0;
          const refundSpec = {
            name: 'refund',
            description: 'Refund an order.',
            parameters: Type.Object({ cents: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
            execute: ({ cents }: { cents: number }, context: { callId: string }) => {
              refunds.push({ callId: context.callId, cents });
              effects += 1;
              return `refunded ${cents}`;
            },
          };
          const raw = defineTool({ ...refundSpec, policy: ToolPolicy.classified().withSideEffects({ payment: true }) });
          const gated = defineTool({
            ...refundSpec,
            policy: ToolPolicy.classified().withSideEffects({ payment: true }).requiringApproval(),
          });
          const note = defineTool({
            name: 'note',
            description: 'Write a note.',
            parameters: Type.Object({ text: Type.String() }),
            policy: ToolPolicy.classified().withSideEffects({ writesFiles: true }),
            execute: ({ text }) => {
              effects += 1;
              return text;
            },
          });
          // The README idiom: code mode is given the raw tool; the harness gates it (toolset or policy).
          const code = codeModeTool({ tools: [raw, note] });
          const steps: ScriptedStep[] = turns.map((batch) => ({
            toolCalls: batch.map((spec) =>
              spec.kind === 'refund'
                ? scriptedToolCall('refund', { cents: spec.cents }, spec.id)
                : scriptedToolCall('run_code', { code: program(spec) }, spec.id),
            ),
          }));
          steps.push({ content: 'done' });
          const ledger = new InMemoryToolEffectLedger();
          const harness = new AgentHarness({
            model: new ScriptedModel({ steps }),
            tools: gateByToolSet ? [code] : [code, gated],
            ...(gateByToolSet ? { toolSets: [new ApprovalRequiredToolSet(toolSetFromTools([raw]))] } : {}),
            ledger,
          });
          /** What the host approved: call id → cents. */
          const approved = new Map<string, number>();
          let run: AgentRun = await harness.invoke({ runId: 'r' }, [{ role: 'user', content: 'go' }]);
          while (run.outcome === 'deferred') {
            for (const pending of run.deferred.approvals) {
              expect(approved.has(pending.callId)).toBe(false);
              approved.set(pending.callId, (pending.arguments as { cents: number }).cents);
            }
            const decisions = new DeferredToolResults().approveAll(run.deferred);
            run = await harness.resumeDeferred({}, run.state as RunState, decisions);
          }
          const used = new Set<string>();
          let bypassed = false;
          for (const refund of refunds) {
            if (approved.get(refund.callId) !== refund.cents || used.has(refund.callId)) bypassed = true;
            used.add(refund.callId);
          }
          const rows = ledger.rows('r');
          const effectRows = rows.filter((row) => row.tool !== 'run_code');
          const sharedRow =
            new Set(rows.map((row) => row.callId)).size !== rows.length || effectRows.length !== effects;
          if (bypassed) bypasses += 1;
          if (sharedRow) shared += 1;
          expect(refunds.filter((refund) => refund.cents >= 100_000)).toEqual([]);
          expect(bypassed).toBe(false);
          expect(sharedRow).toBe(false);
        },
      ),
      { numRuns: RUNS },
    );
    console.log(`call-id collisions: bypasses ${bypasses} of ${cases}, shared ledger rows ${shared} of ${cases}`);
  }, 120_000);
});

const GATE_RUNS = Number(process.env.CALL_GATE_RUNS ?? propertyRuns(120));

/** How the harness offers `pay`: each gate either needs an approval or hides the tool. */
type Gate = {
  readonly kind: 'approval' | 'hidden';
  readonly options: (pay: AnyTool) => Omit<AgentHarnessOptions, 'model'>;
};
const wrap = (pay: AnyTool, layers: readonly string[]) => {
  let set = toolSetFromTools([pay]);
  for (const layer of layers) {
    if (layer === 'prefix') set = new PrefixedToolSet(set, 'bank_');
    else if (layer === 'rename') set = new RenamedToolSet(set, { pay: 'send_money' });
    else set = new ApprovalRequiredToolSet(set);
  }
  return set;
};
/** The harness's name for `pay` after the wrapper layers. */
const nameAfter = (layers: readonly string[]) =>
  layers.reduce(
    (name, layer) => (layer === 'prefix' ? `bank_${name}` : layer === 'rename' && name === 'pay' ? 'send_money' : name),
    'pay',
  );
const gateArb: fc.Arbitrary<Gate> = fc.oneof(
  // Wrapped toolsets with an approval layer somewhere.
  fc.tuple(fc.array(fc.constantFrom('prefix', 'rename'), { maxLength: 2 }), fc.nat({ max: 2 })).map(([layers, at]) => {
    const all = [...layers.slice(0, at), 'approval', ...layers.slice(at)];
    return { kind: 'approval' as const, options: (pay: AnyTool) => ({ toolSets: [wrap(pay, all)] }) };
  }),
  // Renamed toolsets gated by middleware on the harness's name.
  fc
    .tuple(fc.array(fc.constantFrom('prefix', 'rename'), { maxLength: 2 }), fc.constantFrom('human', 'policy'))
    .map(([layers, mw]) => ({
      kind: 'approval' as const,
      options: (pay: AnyTool) => ({
        toolSets: [wrap(pay, layers)],
        middleware: [
          mw === 'human'
            ? new HumanApprovalMiddleware({ requireFor: [nameAfter(layers)] })
            : new ToolPolicyMiddleware().requireApproval([nameAfter(layers)]),
        ],
      }),
    })),
  // Hidden: a filtered toolset, or a per-turn selection denying it (registered or from a toolset).
  fc.constantFrom<Gate>(
    { kind: 'hidden', options: (pay) => ({ toolSets: [new FilteredToolSet(toolSetFromTools([pay]), () => false)] }) },
    {
      kind: 'hidden',
      options: (pay) => ({
        tools: [pay],
        middleware: [ContextualToolSelectionMiddleware.fromLists({ deny: ['pay'] })],
      }),
    },
    {
      kind: 'hidden',
      options: (pay) => ({
        toolSets: [toolSetFromTools([pay])],
        middleware: [ContextualToolSelectionMiddleware.fromLists({ deny: ['pay'] })],
      }),
    },
  ),
);

describe(`gates hold for nested and code-mode calls of a wrapped, renamed or hidden tool (${GATE_RUNS} runs)`, () => {
  it('a program or a nested call reaching raw `pay` never runs it when the harness gates or hides it', async () => {
    let bypasses = 0;
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(gateArb, fc.constantFrom('code', 'nested'), async (gate, path) => {
        cases += 1;
        const paid: string[] = [];
        const pay = defineTool({
          name: 'pay',
          description: 'Pay someone.',
          parameters: Type.Object({ to: Type.String(), cents: Type.Integer() }),
          policy: ToolPolicy.classified().withSideEffects({ payment: true }),
          execute: ({ to, cents }) => {
            paid.push(`${to}:${cents}`);
            return 'paid';
          },
        });
        const caller =
          path === 'code'
            ? codeModeTool({ tools: [pay] })
            : defineTool({
                name: 'run_code',
                description: 'Calls pay.',
                parameters: Type.Object({ code: Type.String() }),
                policy: ToolPolicy.readOnly(),
                nestedTools: [pay],
                execute: async (_args, context) => {
                  try {
                    await context.callTool?.('pay', { to: 'mallory', cents: 99_999 });
                    return 'ran';
                  } catch {
                    return 'refused';
                  }
                },
              });
        const code = "try { return await pay({ to: 'mallory', cents: 99999 }); } catch (e) { return 'refused'; }";
        const options = gate.options(pay);
        const harness = new AgentHarness({
          model: new ScriptedModel({
            steps: [{ toolCalls: [scriptedToolCall('run_code', { code }, 'c1')] }, { content: 'done' }],
          }),
          ...options,
          tools: [caller, ...((options.tools as readonly AnyTool[] | undefined) ?? [])],
        });
        await harness.invoke({ runId: 'r' }, [{ role: 'user', content: 'pay' }]);
        if (paid.length > 0) bypasses += 1;
        expect(paid).toEqual([]);
      }),
      { numRuns: GATE_RUNS },
    );
    console.log(`gates: nested or code-mode calls that ran a gated or hidden tool ${bypasses} of ${cases}`);
  }, 120_000);
});
