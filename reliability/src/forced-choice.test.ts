import {
  AgentHarness,
  type AgentMiddleware,
  type AgentRun,
  DeferredToolResults,
  type RunState,
  serializeRunState,
  ToolChoiceIgnoredError,
  ToolChoiceUnavailableError,
} from '@tiny/harness';
import { eventsOfType, ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import type { LanguageModelV1Response, ToolChoice } from '@tiny/llm';
import { defineTool, InvalidInputError, ToolPolicy } from '@tiny/tools';
import fc from 'fast-check';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from './property-runs.js';

// Issue #32, items 3 and 4: whatever a server sends back under a forced tool choice, a forced
// choice is never silently answered with prose, calls under `none` never run, a named choice runs
// no other tool (unless the policy is `accept`), and a constrained reply runs only through
// admission (a call to an unknown name or with bad arguments never runs a tool).

const RUNS = Number(process.env.FORCED_CHOICE_RUNS ?? propertyRuns(300));

function world() {
  const ran: { name: string; args: unknown }[] = [];
  const make = (name: string) =>
    defineTool({
      name,
      description: `${name} tool.`,
      parameters: Type.Object({ city: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
      execute: (args) => {
        ran.push({ name, args });
        return `${name} ok`;
      },
    });
  return { ran, tools: [make('weather'), make('wipe')] };
}

const nameArb = fc.constantFrom('weather', 'weather', 'wipe', 'wipe', 'delete_all', 'Weather');
const argsArb = fc.oneof(
  { arbitrary: fc.constant({ city: 'Oslo' }), weight: 4 },
  fc.constant({ city: '' }),
  fc.constant({}),
  fc.constant('Oslo'),
  fc.constant(null),
);
/** One reply of a server that may ignore the choice and the schema. */
const replyArb: fc.Arbitrary<Partial<LanguageModelV1Response>> = fc.oneof(
  fc.constantFrom('It is sunny.', '', '{"answer":"sunny"}').map((content) => ({ content })),
  fc.array(fc.record({ name: nameArb, args: argsArb }), { minLength: 1, maxLength: 2 }).map((calls) => ({
    toolCalls: calls.map((call, n) => scriptedToolCall(call.name, call.args, `c${n}`)),
    finishReason: 'tool_calls' as const,
  })),
  fc.record({ name: nameArb, args: argsArb, tagged: fc.boolean() }).map(({ name, args, tagged }) => {
    const json = JSON.stringify({ name, arguments: args });
    return { content: tagged ? `<tool_call>${json}</tool_call>` : json };
  }),
);
const choiceArb: fc.Arbitrary<ToolChoice> = fc.constantFrom(
  { type: 'required' },
  { type: 'tool', toolName: 'weather' },
  { type: 'none' },
);

describe('forced tool choice against a server that ignores it', () => {
  it('never a silent prose answer, no call under none, no other tool under a named choice, only admitted calls run', async () => {
    await fc.assert(
      fc.asyncProperty(
        choiceArb,
        fc.constantFrom('retry_then_error', 'error', 'accept') as fc.Arbitrary<'retry_then_error' | 'error' | 'accept'>,
        fc.constantFrom('native', 'prompt', 'constrained'),
        fc.array(replyArb, { minLength: 1, maxLength: 4 }),
        async (choice, mode, kind, replies) => {
          const { ran, tools } = world();
          const profile =
            kind === 'native'
              ? {}
              : {
                  toolCalling: false,
                  structuredOutput: 'json_schema' as const,
                  constrainedCalls: kind === 'constrained',
                };
          const model = new ScriptedModel({ steps: replies, repeatLast: true, profile });
          const harness = new AgentHarness({
            model,
            tools,
            policy: { toolChoiceIgnored: mode },
            limits: { maxModelCalls: 4 },
          });
          let run: AgentRun | undefined;
          try {
            run = await harness.invoke({}, [{ role: 'user', content: 'Weather in Oslo?' }], { toolChoice: choice });
          } catch (error) {
            const name = (error as Error).name;
            expect(['ToolChoiceIgnoredError', 'LimitExceededError'], String(error)).toContain(name);
            if (ToolChoiceIgnoredError.isInstance(error)) {
              expect(mode).not.toBe('accept');
              expect(error.attempts).toBe(mode === 'error' ? 1 : 2);
            }
          }
          // Only admitted calls run: a known name with arguments that fit the schema.
          for (const call of ran) {
            expect(['weather', 'wipe']).toContain(call.name);
            expect(call.args).toEqual({ city: 'Oslo' });
          }
          if (choice.type === 'none') expect(ran).toEqual([]);
          if (choice.type === 'tool' && mode !== 'accept')
            expect(ran.every((call) => call.name === 'weather')).toBe(true);
          // A forced choice ends `final` (an answer without calls) only when the policy accepts it.
          if (run !== undefined && choice.type !== 'none' && mode !== 'accept') expect(run.outcome).not.toBe('final');
          if (run !== undefined) {
            const ignored = eventsOfType(run.events, 'tool_choice_ignored');
            for (const event of ignored) {
              expect(event.action).toBe(mode === 'accept' ? 'accept' : 'retry');
              expect(event.toolChoice).toEqual(choice);
            }
            if (choice.type === 'none')
              expect(run.messages.some((message) => message.role === 'assistant' && message.toolCalls)).toBe(false);
          }
          // A constrained request carries the envelope only when something may be called.
          const sent = model.requests.map((request) => request.responseFormat?.type);
          if (kind === 'constrained' && choice.type !== 'none')
            expect(sent.every((type) => type === 'json_schema')).toBe(true);
          if (kind !== 'constrained' && choice.type === 'none')
            expect(sent.every((type) => type === undefined)).toBe(true);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

// The breaker's follow-up (/tmp/breakers/forced-choice): however a choice is spelled, whatever a
// middleware does to the request, and across a pause, the choice is enforced or refused, never
// silently dropped.

/** A choice as a caller may spell it: the objects, the AI SDK strings, and shapes that are no choice. */
const spelledChoiceArb = fc.oneof(
  choiceArb.map((choice) => ({ input: choice as unknown, choice: choice as ToolChoice | undefined })),
  fc.constantFrom('none', 'required').map((text) => ({ input: text as unknown, choice: { type: text } as ToolChoice })),
  fc
    .constantFrom<unknown>(
      'any',
      'NONE',
      { type: 'NONE' },
      { type: 'tool' },
      { type: 'tool', toolName: '' },
      {
        type: 'function',
        function: { name: 'weather' },
      },
      { type: 'none', toolName: 'weather' },
      null,
      ['none'],
    )
    .map((input) => ({ input, choice: undefined })),
);
type Middle = 'none' | 'pass' | 'reassert' | 'tools_only' | 'hide_weather' | 'hide_wipe' | 'to_auto' | 'to_none';
const middleArb = fc.constantFrom<Middle>(
  'none',
  'pass',
  'reassert',
  'tools_only',
  'hide_weather',
  'hide_wipe',
  'to_auto',
  'to_none',
);
function middleware(kind: Middle): AgentMiddleware[] {
  switch (kind) {
    case 'none':
      return [];
    case 'pass':
      return [{ name: 'pass', beforeModel: (request) => ({ ...request }) }];
    case 'reassert':
      return [{ name: 'reassert', beforeModel: (request) => ({ toolChoice: request.toolChoice }) }];
    case 'tools_only':
      return [{ name: 'tools', beforeModel: (request) => ({ tools: [...request.tools] }) }];
    case 'hide_weather':
      return [{ name: 'hide', filterTools: (offered) => offered.filter((tool) => tool.name !== 'weather') }];
    case 'hide_wipe':
      return [{ name: 'hide', filterTools: (offered) => offered.filter((tool) => tool.name !== 'wipe') }];
    case 'to_auto':
      return [{ name: 'relax', beforeModel: () => ({ toolChoice: { type: 'auto' } }) }];
    case 'to_none':
      return [{ name: 'safety', beforeModel: () => ({ toolChoice: { type: 'none' } }) }];
  }
}

describe('forced tool choice: every spelling, every middleware, across a pause', () => {
  it('an unknown shape is refused before any model call; a choice no patch really changes stays enforced; none always holds; a named tool not offered fails closed', async () => {
    await fc.assert(
      fc.asyncProperty(
        spelledChoiceArb,
        middleArb,
        fc.constantFrom('retry_then_error', 'error', 'accept') as fc.Arbitrary<'retry_then_error' | 'error' | 'accept'>,
        fc.array(replyArb, { minLength: 1, maxLength: 4 }),
        async ({ input, choice }, middle, mode, replies) => {
          const { ran, tools } = world();
          const model = new ScriptedModel({ steps: replies, repeatLast: true });
          const harness = new AgentHarness({
            model,
            tools,
            policy: { toolChoiceIgnored: mode },
            limits: { maxModelCalls: 4 },
          });
          let run: AgentRun | undefined;
          let failure: unknown;
          try {
            run = await harness.invoke({}, [{ role: 'user', content: 'Weather in Oslo?' }], {
              toolChoice: input as ToolChoice,
              middleware: middleware(middle),
            });
          } catch (error) {
            failure = error;
          }
          if (choice === undefined) {
            expect(InvalidInputError.isInstance(failure), String(failure)).toBe(true);
            expect(model.requests).toEqual([]);
            expect(ran).toEqual([]);
            return;
          }
          const noneHolds = choice.type === 'none' || middle === 'to_none';
          const handedOff = !noneHolds && middle === 'to_auto';
          const unavailable = !noneHolds && !handedOff && choice.type === 'tool' && middle === 'hide_weather';
          if (unavailable) {
            expect(ToolChoiceUnavailableError.isInstance(failure), String(failure)).toBe(true);
            expect(model.requests).toEqual([]);
            expect(ran).toEqual([]);
            return;
          }
          if (failure !== undefined)
            expect(['ToolChoiceIgnoredError', 'LimitExceededError'], String(failure)).toContain(
              (failure as Error).name,
            );
          for (const request of model.requests) {
            if (noneHolds) expect(request.toolChoice).toEqual({ type: 'none' });
            else if (!handedOff) expect(request.toolChoice).toEqual(choice);
          }
          if (noneHolds) expect(ran).toEqual([]);
          if (!handedOff && choice.type === 'tool' && mode !== 'accept')
            expect(ran.every((call) => call.name === 'weather')).toBe(true);
          if (run !== undefined && !noneHolds && !handedOff && mode !== 'accept') expect(run.outcome).not.toBe('final');
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('a paused forced run resumed without a toolChoice is held to the saved choice', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<ToolChoice>({ type: 'required' }, { type: 'tool', toolName: 'book' }),
        fc.constantFrom('retry_then_error', 'error') as fc.Arbitrary<'retry_then_error' | 'error'>,
        fc.array(replyArb, { minLength: 1, maxLength: 3 }),
        async (choice, mode, replies) => {
          const { ran, tools } = world();
          const book = defineTool({
            name: 'book',
            description: 'Books a trip.',
            parameters: Type.Object({ city: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
            policy: ToolPolicy.classified().requiringApproval(),
            execute: (args) => {
              ran.push({ name: 'book', args });
              return 'booked';
            },
          });
          const first = {
            toolCalls: [scriptedToolCall('book', { city: 'Oslo' }, 'b1')],
            finishReason: 'tool_calls' as const,
          };
          const model = new ScriptedModel({ steps: [first, ...replies], repeatLast: true });
          const harness = new AgentHarness({
            model,
            tools: [...tools, book],
            policy: { toolChoiceIgnored: mode },
            limits: { maxModelCalls: 5 },
          });
          const paused = await harness.invoke({}, [{ role: 'user', content: 'Book Oslo.' }], { toolChoice: choice });
          expect(paused.outcome).toBe('deferred');
          const saved = serializeRunState(paused.state as RunState);
          let run: AgentRun | undefined;
          try {
            run = await harness.resumeDeferred({}, saved, new DeferredToolResults().approve('b1'));
          } catch (error) {
            expect(['ToolChoiceIgnoredError', 'LimitExceededError'], String(error)).toContain((error as Error).name);
          }
          for (const request of model.requests) expect(request.toolChoice).toEqual(choice);
          if (choice.type === 'tool') expect(ran.every((call) => call.name === 'book')).toBe(true);
          if (run !== undefined) expect(run.outcome).not.toBe('final');
        },
      ),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  });
});
