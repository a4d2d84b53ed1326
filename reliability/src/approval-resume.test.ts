import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AgentHarness,
  type AgentRun,
  type CheckpointStore,
  DeferredResolutionError,
  DeferredToolResults,
  InMemoryCheckpointStore,
  InMemoryToolEffectLedger,
  type ResumeClaimStore,
  type RunState,
  type ToolEffectLedger,
} from '@tiny/harness';
import { createFileCheckpointStore } from '@tiny/harness/node';
import { ScriptedModel, type ScriptedStep, scriptedToolCall } from '@tiny/harness/testkit';
import { SqliteCheckpointStore, SqliteToolEffectLedger } from '@tiny/ledger-sqlite';
import { defineTool, ToolPolicy } from '@tiny/tools';
import fc from 'fast-check';
import { Type } from 'typebox';
import { afterAll, describe, expect, it } from 'vitest';
import { propertyRuns } from './property-runs.js';

const RUNS = Number(process.env.APPROVAL_RESUME_RUNS ?? propertyRuns(300));
const root = mkdtempSync(join(tmpdir(), 'tiny-approval-resume-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

type Kind = 'memory' | 'file' | 'sqlite';
type Store = CheckpointStore & ResumeClaimStore;

/** Two handles on one durable store, as two processes would open it. */
function storesOf(kind: Kind, dir: string): [Store, Store, () => Promise<void>] {
  if (kind === 'memory') {
    const store = new InMemoryCheckpointStore();
    return [store, store, async () => undefined];
  }
  if (kind === 'file') return [createFileCheckpointStore(dir), createFileCheckpointStore(dir), async () => undefined];
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'agent.db');
  const first = new SqliteCheckpointStore({ path });
  const second = new SqliteCheckpointStore({ path });
  return [first, second, async () => Promise.all([first.close(), second.close()]).then(() => undefined)];
}

function smsHarness(sent: string[], steps: ScriptedStep[], claims: Store, description: string) {
  const sendSms = defineTool({
    name: 'send_sms',
    description,
    parameters: Type.Object({ to: Type.String() }),
    policy: ToolPolicy.classified().withSideEffects({ network: true }).requiringApproval(),
    execute: ({ to }) => {
      sent.push(to);
      return 'sent';
    },
  });
  return new AgentHarness({ model: new ScriptedModel({ steps }), tools: [sendSms], resumeClaims: claims });
}

describe(`approval resume: once across processes, asked again under a changed policy (${RUNS} runs)`, () => {
  it('two resumes of one saved state (memory, file, SQLite) run each approved call at most once', async () => {
    let doubleRuns = 0;
    let changedRan = 0;
    let reasked = 0;
    let cases = 0;
    let index = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Kind>('memory', 'file', 'sqlite'),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 3 }),
        fc.constantFrom('concurrent', 'sequential'),
        fc.constantFrom('same', 'first_changed', 'second_changed'),
        async (kind, approveEach, order, policy) => {
          cases += 1;
          index += 1;
          const dir = join(root, `case-${index}`);
          const [one, two, close] = storesOf(kind, dir);
          try {
            const sent: string[] = [];
            const calls = approveEach.map((_, n) => scriptedToolCall('send_sms', { to: `+${n}` }, `c${n}`));
            const origin = smsHarness(sent, [{ toolCalls: calls }], one, 'Send a text message.');
            const paused = await origin.invoke({ runId: 'run-1' }, [{ role: 'user', content: 'text them' }]);
            expect(paused.outcome).toBe('deferred');
            await one.save(paused.state as RunState);
            const decisions = new DeferredToolResults();
            for (const [n, call] of (paused.deferred?.approvals ?? []).entries()) {
              if (approveEach[n]) decisions.approve(call);
              else decisions.deny(call, 'no');
            }
            const approvedTargets = approveEach.flatMap((approve, n) => (approve ? [`+${n}`] : []));
            const descriptionOf = (which: 'first' | 'second') =>
              policy === `${which}_changed` ? 'Send a text message to anyone, at any cost.' : 'Send a text message.';
            const resumeWith = async (store: Store, which: 'first' | 'second') => {
              const mine: string[] = [];
              const saved = (await store.load('run-1')) as RunState;
              const harness = smsHarness(mine, [{ content: 'done' }], store, descriptionOf(which));
              try {
                return { which, run: await harness.resumeDeferred({}, saved, decisions) };
              } finally {
                sent.push(...mine);
                if (policy === `${which}_changed` && mine.length > 0) changedRan += 1;
              }
            };
            const outcomes: PromiseSettledResult<{ which: string; run: AgentRun }>[] =
              order === 'concurrent'
                ? await Promise.allSettled([resumeWith(one, 'first'), resumeWith(two, 'second')])
                : [
                    ...(await Promise.allSettled([resumeWith(one, 'first')])),
                    ...(await Promise.allSettled([resumeWith(two, 'second')])),
                  ];
            const fulfilled = outcomes.filter((outcome) => outcome.status === 'fulfilled');
            const rejected = outcomes.filter((outcome) => outcome.status === 'rejected');
            expect(fulfilled).toHaveLength(1);
            expect(rejected).toHaveLength(1);
            const reason = rejected[0]?.status === 'rejected' ? rejected[0].reason : undefined;
            expect(DeferredResolutionError.isInstance(reason) && reason.problem).toBe('already_resumed');
            if (new Set(sent).size !== sent.length) doubleRuns += 1;
            expect(new Set(sent).size).toBe(sent.length);
            const winner = fulfilled[0]?.status === 'fulfilled' ? fulfilled[0].value : undefined;
            if (policy === `${winner?.which}_changed` && approvedTargets.length > 0) {
              reasked += 1;
              expect(sent).toEqual([]);
              expect(winner?.run.outcome).toBe('deferred');
              expect(winner?.run.deferred?.approvals.every((call) => call.reason === 'needs_reapproval')).toBe(true);
              expect(winner?.run.deferred?.approvals).toHaveLength(approvedTargets.length);
            } else {
              expect(sent.sort()).toEqual(approvedTargets.sort());
            }
          } finally {
            await close();
          }
        },
      ),
      { numRuns: RUNS },
    );
    expect(changedRan).toBe(0);
    console.log(
      `approval resume: double runs ${doubleRuns} of ${cases}, ran under a changed policy ${changedRan} of ${cases}, needs_reapproval ${reasked}`,
    );
  }, 120_000);
});

const EDIT_RUNS = Number(process.env.APPROVAL_EDIT_RUNS ?? propertyRuns(150));

type Guard = 'claims-memory' | 'claims-file' | 'claims-sqlite' | 'ledger-memory' | 'ledger-no-rows' | 'ledger-sqlite';
type Edit = 'none' | 'prepend' | 'append' | 'drop-digest' | 'drop-message';

/** An edit of a saved state that keeps every approval valid (the harness signs nothing here). */
function edited(state: RunState, edit: Edit): RunState {
  const extra = { role: 'user' as const, content: 'one more thing' };
  const pending = state.pending as NonNullable<RunState['pending']>;
  switch (edit) {
    case 'prepend':
      return { ...state, messages: [extra, ...state.messages] };
    case 'append':
      return { ...state, messages: [...state.messages, extra] };
    case 'drop-message':
      return { ...state, messages: state.messages.slice(1) };
    case 'drop-digest':
      return { ...state, pending: { ...pending, approvals: pending.approvals.map(({ digest: _d, ...call }) => call) } };
    default:
      return state;
  }
}

describe(`approval resume: state edits and ledger-only replays never run a call twice (${EDIT_RUNS} runs)`, () => {
  it('a second resume of an edited copy of the state, through claims or a ledger alone, runs nothing again', async () => {
    let doubleRuns = 0;
    let cases = 0;
    let index = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Guard>(
          'claims-memory',
          'claims-file',
          'claims-sqlite',
          'ledger-memory',
          'ledger-no-rows',
          'ledger-sqlite',
        ),
        fc.constantFrom<Edit>('none', 'prepend', 'append', 'drop-digest', 'drop-message'),
        fc.integer({ min: 1, max: 3 }),
        fc.constantFrom('concurrent', 'sequential'),
        async (guard, edit, count, order) => {
          cases += 1;
          index += 1;
          const dir = join(root, `edit-${index}`);
          const closers: (() => Promise<unknown> | unknown)[] = [];
          /** What each "process" is given: claims, or a ledger handle of its own on shared rows. */
          const guardOptions = (): { resumeClaims?: Store; ledger?: ToolEffectLedger } => {
            if (guard.startsWith('claims-')) return {};
            if (guard === 'ledger-sqlite') {
              mkdirSync(dir, { recursive: true });
              const ledger = new SqliteToolEffectLedger({ path: join(dir, 'ledger.db') });
              closers.push(() => ledger.close());
              return { ledger };
            }
            return { ledger: sharedLedger as ToolEffectLedger };
          };
          const inner = new InMemoryToolEffectLedger();
          const sharedLedger: ToolEffectLedger =
            guard === 'ledger-no-rows'
              ? {
                  started: (row) => inner.started(row),
                  settled: (row) => inner.settled(row),
                  unresolved: (id) => inner.unresolved(id),
                }
              : inner;
          let claimStores: [Store, Store] | undefined;
          if (guard.startsWith('claims-')) {
            const [one, two, close] = storesOf(guard.slice('claims-'.length) as Kind, dir);
            claimStores = [one, two];
            closers.push(close);
          }
          try {
            const sent: string[] = [];
            const make = (steps: ScriptedStep[], which: 0 | 1) => {
              const sendSms = defineTool({
                name: 'send_sms',
                description: 'Send a text message.',
                parameters: Type.Object({ to: Type.String() }),
                policy: ToolPolicy.classified().withSideEffects({ network: true }).requiringApproval(),
                execute: ({ to }) => {
                  sent.push(to);
                  return 'sent';
                },
              });
              return new AgentHarness({
                model: new ScriptedModel({ steps, repeatLast: true }),
                tools: [sendSms],
                ...guardOptions(),
                ...(claimStores ? { resumeClaims: claimStores[which] } : {}),
              });
            };
            const calls = Array.from({ length: count }, (_, n) =>
              scriptedToolCall('send_sms', { to: `+${n}` }, `c${n}`),
            );
            const paused = await make([{ toolCalls: calls }], 0).invoke({ runId: 'run-1' }, [
              { role: 'user', content: 'text them' },
            ]);
            const state = JSON.parse(JSON.stringify(paused.state)) as RunState;
            const decisions = new DeferredToolResults().approveAll(paused.deferred ?? { approvals: [] });
            const first = () => make([{ content: 'done' }], 0).resumeDeferred({}, state, decisions);
            const second = () => make([{ content: 'done' }], 1).resumeDeferred({}, edited(state, edit), decisions);
            if (order === 'concurrent') await Promise.allSettled([first(), second()]);
            else {
              await Promise.allSettled([first()]);
              await Promise.allSettled([second()]);
            }
            if (new Set(sent).size !== sent.length) doubleRuns += 1;
            expect(new Set(sent).size).toBe(sent.length);
            expect(sent.length).toBeLessThanOrEqual(count);
          } finally {
            for (const close of closers) await close();
          }
        },
      ),
      { numRuns: EDIT_RUNS },
    );
    console.log(`approval resume, edited states and ledger-only replays: double runs ${doubleRuns} of ${cases}`);
  }, 120_000);
});

const DECIDE_RUNS = Number(process.env.APPROVAL_DECIDE_RUNS ?? propertyRuns(90));
type DecideGuard = 'none' | 'ledger-memory' | 'ledger-sqlite' | 'claims-memory' | 'claims-file' | 'claims-sqlite';
type Decision = 'deny' | 'approve' | 'approve_edited';

describe(`approval resume: a decision is single-use (${DECIDE_RUNS} runs)`, () => {
  it('a state resumed again with another decision is refused (one instance always; any instance with claims)', async () => {
    let redecided = 0;
    let cases = 0;
    let index = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<DecideGuard>(
          'none',
          'ledger-memory',
          'ledger-sqlite',
          'claims-memory',
          'claims-file',
          'claims-sqlite',
        ),
        fc.constantFrom<Decision>('deny', 'approve', 'approve_edited'),
        fc.constantFrom<Decision>('deny', 'approve', 'approve_edited'),
        fc.constantFrom('same-instance', 'other-instance'),
        async (guard, firstDecision, secondDecision, where) => {
          cases += 1;
          index += 1;
          const dir = join(root, `decide-${index}`);
          const closers: (() => Promise<unknown> | unknown)[] = [];
          let ledger: ToolEffectLedger | undefined;
          let claims: [Store, Store] | undefined;
          if (guard === 'ledger-memory') ledger = new InMemoryToolEffectLedger();
          if (guard === 'ledger-sqlite') {
            mkdirSync(dir, { recursive: true });
            const sqlite = new SqliteToolEffectLedger({ path: join(dir, 'ledger.db') });
            closers.push(() => sqlite.close());
            ledger = sqlite;
          }
          if (guard.startsWith('claims-')) {
            const [one, two, close] = storesOf(guard.slice('claims-'.length) as Kind, dir);
            claims = [one, two];
            closers.push(close);
          }
          try {
            const sent: string[] = [];
            const make = (which: 0 | 1) => {
              const sendSms = defineTool({
                name: 'send_sms',
                description: 'Send a text message.',
                parameters: Type.Object({ to: Type.String() }),
                policy: ToolPolicy.classified().withSideEffects({ network: true }).requiringApproval(),
                execute: ({ to }) => {
                  sent.push(to);
                  return 'sent';
                },
              });
              return new AgentHarness({
                model: new ScriptedModel({
                  steps: [{ toolCalls: [scriptedToolCall('send_sms', { to: '+1' }, 'c1')] }, { content: 'done' }],
                  repeatLast: true,
                }),
                tools: [sendSms],
                ...(ledger ? { ledger } : {}),
                ...(claims ? { resumeClaims: claims[which] } : {}),
              });
            };
            const origin = make(0);
            const paused = await origin.invoke({ runId: 'run-1' }, [{ role: 'user', content: 'text them' }]);
            const call = paused.deferred?.approvals[0];
            if (call === undefined) throw new Error('expected a pending approval');
            const saved = JSON.stringify(paused.state);
            const decide = (decision: Decision) =>
              decision === 'deny'
                ? new DeferredToolResults().deny(call, 'no')
                : decision === 'approve'
                  ? new DeferredToolResults().approve(call)
                  : new DeferredToolResults().approveWithArgs(call, { to: '+2' });
            await origin.resumeDeferred({}, saved, decide(firstDecision));
            const afterFirst = [...sent];
            const second = where === 'same-instance' ? origin : make(1);
            const again = await second.resumeDeferred({}, saved, decide(secondDecision)).then(
              () => undefined,
              (error: unknown) => error,
            );
            // Single-use: within one instance always; across instances only through resumeClaims.
            const mustRefuse = where === 'same-instance' || claims !== undefined;
            if (mustRefuse) {
              const refused = DeferredResolutionError.isInstance(again) && again.problem === 'already_resumed';
              if (!refused || sent.length !== afterFirst.length) redecided += 1;
              expect(refused).toBe(true);
              expect(sent).toEqual(afterFirst);
            }
            // With any guard (or in one instance) a call never runs twice; two instances with
            // neither a ledger nor claims share nothing, which the docs say.
            if (mustRefuse || ledger !== undefined) expect(sent.length).toBeLessThanOrEqual(1);
          } finally {
            for (const close of closers) await close();
          }
        },
      ),
      { numRuns: DECIDE_RUNS },
    );
    console.log(`approval resume: a second decision accepted where it must be refused ${redecided} of ${cases}`);
  }, 120_000);
});

const NESTED_RUNS = Number(process.env.APPROVAL_NESTED_RUNS ?? propertyRuns(120));
type HelperSpec = { name: string; description: string; readOnly: boolean; children: HelperSpec[] };
/** A helper tree at most `depth` levels deep. */
function helperTree(depth: number): fc.Arbitrary<HelperSpec> {
  return fc.record({
    name: fc.constantFrom('h1', 'h2', 'h3'),
    description: fc.constantFrom('Looks up.', 'Reads.'),
    readOnly: fc.boolean(),
    children: depth <= 1 ? fc.constant([]) : fc.array(helperTree(depth - 1), { maxLength: 2 }),
  });
}
const helperSpec = helperTree(3);
type Mutation = 'none' | 'reorder' | 'description' | 'policy' | 'add' | 'remove' | 'deep';

/** Unique by name (the last one wins, as the harness looks nested tools up). */
function byName(list: HelperSpec[]): HelperSpec[] {
  return [...new Map(list.map((spec) => [spec.name, spec])).values()];
}

function mutate(list: HelperSpec[], mutation: Mutation): { list: HelperSpec[]; changed: boolean } {
  const unique = byName(list);
  const [head] = unique;
  switch (mutation) {
    case 'reorder':
      return { list: [...unique].reverse(), changed: false };
    case 'description':
      return head
        ? { list: [{ ...head, description: `${head.description} Now also pays.` }, ...unique.slice(1)], changed: true }
        : { list: unique, changed: false };
    case 'policy':
      return head
        ? { list: [{ ...head, readOnly: !head.readOnly }, ...unique.slice(1)], changed: true }
        : { list: unique, changed: false };
    case 'add':
      return { list: [...unique, { name: 'added', description: 'New.', readOnly: true, children: [] }], changed: true };
    case 'remove':
      return head ? { list: unique.slice(1), changed: true } : { list: unique, changed: false };
    case 'deep': {
      const withChild = unique.find((spec) => byName(spec.children).length > 0);
      if (withChild === undefined) return { list: unique, changed: false };
      const children = byName(withChild.children);
      const first = children[0] as HelperSpec;
      const changedChild = { ...first, description: `${first.description} Deep change.` };
      return {
        list: unique.map((spec) =>
          spec === withChild ? { ...spec, children: [changedChild, ...children.slice(1)] } : spec,
        ),
        changed: true,
      };
    }
    default:
      return { list: unique, changed: false };
  }
}

describe(`approval resume: the approval binds the declared nestedTools (${NESTED_RUNS} runs)`, () => {
  it('a changed nested helper tree asks again; the same tree in any order keeps the approval', async () => {
    let wrong = 0;
    let cases = 0;
    let reasked = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(helperSpec, { minLength: 1, maxLength: 3 }),
        fc.constantFrom<Mutation>('none', 'reorder', 'description', 'policy', 'add', 'remove', 'deep'),
        async (helpers, mutation) => {
          cases += 1;
          const ran: string[] = [];
          const build = (spec: HelperSpec): ReturnType<typeof defineTool> =>
            defineTool({
              name: spec.name,
              description: spec.description,
              parameters: Type.Object({}),
              policy: spec.readOnly
                ? ToolPolicy.readOnly()
                : ToolPolicy.classified().withSideEffects({ network: true }),
              nestedTools: spec.children.map(build) as never,
              execute: () => 'ok',
            });
          const parent = (list: HelperSpec[]) =>
            defineTool({
              name: 'parent',
              description: 'Calls helpers.',
              parameters: Type.Object({}),
              policy: ToolPolicy.classified().requiringApproval(),
              nestedTools: list.map(build) as never,
              execute: () => {
                ran.push('parent');
                return 'ok';
              },
            });
          const { list, changed } = mutate(helpers, mutation);
          const paused = await new AgentHarness({
            model: new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall('parent', {}, 'c1')] }] }),
            tools: [parent(byName(helpers))],
          }).invoke({ runId: 'r' }, [{ role: 'user', content: 'go' }]);
          const resumed = await new AgentHarness({
            model: new ScriptedModel({ steps: [{ content: 'done' }], repeatLast: true }),
            tools: [parent(list)],
          }).resumeDeferred(
            {},
            JSON.stringify(paused.state),
            new DeferredToolResults().approveAll(paused.deferred ?? { approvals: [] }),
          );
          const asked = resumed.deferred?.approvals[0]?.reason === 'needs_reapproval';
          if (asked) reasked += 1;
          if (asked !== changed || (changed ? ran.length !== 0 : ran.length !== 1)) wrong += 1;
          expect(asked).toBe(changed);
          expect(ran).toEqual(changed ? [] : ['parent']);
        },
      ),
      { numRuns: NESTED_RUNS },
    );
    console.log(`approval resume, nestedTools: wrong outcomes ${wrong} of ${cases} (needs_reapproval ${reasked})`);
  }, 120_000);
});
