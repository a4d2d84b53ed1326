import {
  type AgentEvent,
  AgentHarness,
  DeferredToolResults,
  REDACTED,
  sensitive,
  serializeRunState,
} from '@tiny/harness';
import { ScriptedModel, scriptedInvalidToolCall, scriptedToolCall } from '@tiny/harness/testkit';
import { defineTool, ToolPolicy } from '@tiny/tools';
import fc from 'fast-check';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from './property-runs.js';

const RUNS = Number(process.env.LOOP_RUNS ?? propertyRuns(400));

describe(`secrets never leave the host (${RUNS} random runs)`, () => {
  it('keeps injected values out of requests, events (capture on or off), errors and run state', async () => {
    const secretArb = fc.string({ minLength: 6, maxLength: 24 }).map((body) => `sk-${body}-\u2063`);
    await fc.assert(
      fc.asyncProperty(
        secretArb,
        fc.boolean(),
        fc.constantFrom('native', 'xml', 'pformat', 'python') as fc.Arbitrary<'native' | 'xml' | 'pformat' | 'python'>,
        fc.array(
          fc.oneof(
            fc.record({ to: fc.string({ maxLength: 5 }), apiKey: fc.string({ maxLength: 5 }) }),
            fc.record({ to: fc.constant('x'), apiKey: fc.integer() }),
            fc.jsonValue({ maxDepth: 2 }),
          ),
          { minLength: 1, maxLength: 3 },
        ),
        fc.boolean(),
        async (secret, capture, dialect, argsList, pause) => {
          const failing = defineTool({
            name: 'leaky',
            description: 'Throws with its key in the message on purpose.',
            parameters: Type.Object({ apiKey: Type.String() }),
            injected: [{ name: 'apiKey', source: 'host' }],
            execute: ({ apiKey }) => {
              throw new Error(`upstream rejected ${apiKey.length}-char key`);
            },
          });
          const send = defineTool({
            name: 'send',
            description: 'Send.',
            parameters: Type.Object({ to: Type.String(), apiKey: Type.String() }, { additionalProperties: false }),
            injected: [{ name: 'apiKey', source: 'host' }],
            policy: ToolPolicy.classified().withSideEffects({ network: true }).requiringApproval(),
            execute: ({ to }) => `sent to ${to}`,
          });
          const steps = [
            { toolCalls: argsList.map((args, n) => scriptedToolCall('send', args, `s${n}`)) },
            {
              toolCalls: [
                scriptedToolCall('leaky', {}, 'l1'),
                scriptedInvalidToolCall('send', '{"apiKey": "guess"', 'bad', 'l2'),
              ],
            },
            { content: 'done' },
          ];
          const model = new ScriptedModel({ steps, profile: { toolCalling: dialect === 'native' } });
          const harness = new AgentHarness({
            model,
            tools: [send, failing],
            policy: { captureToolIo: capture, toolDialect: dialect, toolErrors: { kind: 'return_error' } },
          });
          const seen: string[] = [];
          const run = await harness
            .invoke({ hostValues: { apiKey: secret } }, [{ role: 'user', content: 'go' }], {
              onEvent: (event) => seen.push(JSON.stringify(event)),
              onCheckpoint: (state) => {
                seen.push(serializeRunState(state));
              },
              deferredToolHandler: pause
                ? undefined
                : (pending) => {
                    const results = new DeferredToolResults();
                    for (const call of pending.approvals) results.approve(call.callId);
                    return results;
                  },
            })
            .catch((error: unknown) => ({ error }));
          const everything = [JSON.stringify(model.requests), ...seen, JSON.stringify(run)];
          if ('state' in run && run.state) everything.push(serializeRunState(run.state));
          if ('error' in run) everything.push(String(run.error), JSON.stringify(run.error));
          for (const text of everything) expect(text.includes(secret)).toBe(false);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('keeps model-chosen sensitive fields [redacted] in every event and error, while the tool gets them', async () => {
    const valueArb = fc.string({ minLength: 6, maxLength: 24 }).map((body) => `pw-${body}-\u2064`);
    await fc.assert(
      fc.asyncProperty(
        valueArb,
        fc.boolean(),
        fc.constantFrom('echo', 'throw', 'fail', 'ok') as fc.Arbitrary<'echo' | 'throw' | 'fail' | 'ok'>,
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom('schema', 'typebox', 'policy') as fc.Arbitrary<'schema' | 'typebox' | 'policy'>,
        async (value, capture, behaviour, invalid, approval, marking) => {
          const received: string[] = [];
          const field =
            marking === 'schema'
              ? Type.Unsafe<string>({ type: 'string', 'x-tiny-sensitive': true })
              : marking === 'typebox'
                ? sensitive(Type.String())
                : Type.String();
          let policy = ToolPolicy.classified().withSideEffects({ network: true });
          if (marking === 'policy') policy = policy.withAccess({ redact: ['password'] });
          if (approval) policy = policy.requiringApproval();
          const login = defineTool({
            name: 'login',
            description: 'Log in.',
            parameters: Type.Object({ user: Type.String(), password: field, tags: Type.Array(Type.String()) }),
            policy,
            execute: ({ user, password }) => {
              received.push(password);
              if (behaviour === 'throw') throw new Error(`bad password ${password} for ${user}`);
              if (behaviour === 'echo') return `logged in ${user} with ${password}`;
              return `logged in ${user}`;
            },
          });
          const args = { user: 'ada', password: value, tags: invalid ? 'not-an-array' : [] };
          const model = new ScriptedModel({
            steps: [
              { toolCalls: [scriptedToolCall('login', args, 'c1')] },
              { toolCalls: [scriptedToolCall('login', { ...args, tags: [] }, 'c2')] },
              { content: 'done' },
            ],
          });
          const harness = new AgentHarness({
            model,
            tools: [login],
            policy: {
              captureToolIo: capture,
              toolErrors: behaviour === 'fail' ? { kind: 'fail' } : { kind: 'return_error' },
            },
          });
          const recorded: AgentEvent[] = [];
          const errors: string[] = [];
          const options = { onEvent: (event: AgentEvent) => recorded.push(event) };
          let run = await harness.invoke({}, [{ role: 'user', content: 'go' }], options).catch((error: unknown) => {
            errors.push(String(error), JSON.stringify(error));
            return undefined;
          });
          while (run?.outcome === 'deferred' && run.state && run.deferred) {
            const decisions = new DeferredToolResults().approveAll(run.deferred);
            run = await harness.resumeDeferred({}, run.state, decisions, options).catch((error: unknown) => {
              errors.push(String(error), JSON.stringify(error));
              return undefined;
            });
          }
          const behaviourThrows = behaviour === 'throw';
          const artifacts = [JSON.stringify(recorded), JSON.stringify(run?.events ?? []), ...errors];
          for (const text of artifacts) expect(text.includes(value)).toBe(false);
          // The tool still got the real value (once per valid call that ran).
          expect(received.every((got) => got === value)).toBe(true);
          expect(received.length).toBeGreaterThan(0);
          if (capture && !behaviourThrows) {
            const started = recorded.find((event) => event.type === 'tool_started' && event.input !== undefined);
            expect(started?.type === 'tool_started' && (started.input as { password?: unknown }).password).toBe(
              REDACTED,
            );
          }
        },
      ),
      { numRuns: RUNS },
    );
  });
});
