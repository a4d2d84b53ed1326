import type { Message } from '@tiny/llm';
import { defineTool, InvalidInputError, TinyError, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { DeferredToolResults } from '../deferral/deferred-tool-results.js';
import { serializeRunState } from '../deferral/run-state.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { AgentMiddleware } from '../middleware/agent-middleware.js';
import { ScriptedModel, scriptedToolCall } from '../testkit/index.js';
import { AgentHarness } from './agent-harness.js';

// What the run records is a JSON copy read once: a `toJSON` is called once and its result kept,
// functions are dropped, and no listener can rewrite a recorded event.

/** A value whose `toJSON` answers differently each time it is asked (counted in `reads`). */
function shifting(base: Record<string, unknown>, field: string) {
  const counter = { reads: 0 };
  const value = {
    ...base,
    toJSON() {
      counter.reads += 1;
      return { ...base, [field]: `${String(base[field])} v${counter.reads}` };
    },
  };
  return { value, counter };
}

describe('events are frozen before delivery', () => {
  it('a listener cannot rewrite a recorded event', async () => {
    const edits: string[] = [];
    const listener = (event: AgentEvent) => {
      try {
        if (event.type === 'run_completed') (event as { outcome: string }).outcome = 'failed';
        if (event.type === 'model_completed') (event as { finishReason: string }).finishReason = 'forged';
      } catch {
        edits.push(event.type);
      }
    };
    const model = new ScriptedModel({ steps: [{ content: 'ok' }] });
    const run = await new AgentHarness({ model, tools: [] }).invoke('go', { onEvent: listener });
    expect(edits).toEqual(['model_completed', 'run_completed']);
    expect(run.events.every((event) => Object.isFrozen(event))).toBe(true);
    const completed = run.events.find((event) => event.type === 'run_completed');
    expect(completed).toMatchObject({ outcome: run.outcome });
    expect(run.events.find((event) => event.type === 'model_completed')).toMatchObject({ finishReason: 'stop' });
  });
});

describe('messages are recorded as JSON copies', () => {
  it("a caller message's toJSON is read once: what is sent, recorded and saved agree", async () => {
    const { value, counter } = shifting({ role: 'user', content: 'hello' }, 'content');
    const sent: string[] = [];
    const model = new ScriptedModel({
      steps: [
        (request) => {
          sent.push(JSON.stringify(request.messages[0]));
          return { toolCalls: [scriptedToolCall('book', {}, 'c1')] };
        },
      ],
    });
    const book = defineTool({
      name: 'book',
      description: 'book',
      parameters: Type.Object({}),
      policy: ToolPolicy.classified().withSideEffects({ payment: true }).requiringApproval(),
      execute: () => 'booked',
    });
    const run = await new AgentHarness({ model, tools: [book] }).invoke([value as unknown as Message]);
    expect(run.outcome).toBe('deferred');
    expect(counter.reads).toBe(1);
    expect(sent).toEqual(['{"role":"user","content":"hello v1"}']);
    expect(run.messages[0]).toEqual({ role: 'user', content: 'hello v1' });
    expect(JSON.parse(serializeRunState(run.state as never)).messages[0]).toEqual({
      role: 'user',
      content: 'hello v1',
    });
  });

  it('functions are dropped and a part whose text is a function is refused', async () => {
    const model = () => new ScriptedModel({ steps: [{ content: 'ok' }] });
    const run = await new AgentHarness({ model: model(), tools: [] }).invoke([
      { role: 'user', content: 'hi', extra: () => 1 } as unknown as Message,
    ]);
    expect(run.messages[0]).toEqual({ role: 'user', content: 'hi' });
    const refused = new AgentHarness({ model: model(), tools: [] }).invoke([
      { role: 'user', content: [{ type: 'text', text: () => 'x' }] } as unknown as Message,
    ]);
    await expect(refused).rejects.toThrow(InvalidInputError);
  });

  it("a jump_to message's toJSON is read once", async () => {
    const { value, counter } = shifting({ role: 'user', content: 'again' }, 'content');
    let jumped = false;
    const jump: AgentMiddleware = {
      name: 'jump',
      afterModel() {
        if (jumped) return undefined;
        jumped = true;
        return { type: 'jump_to', target: 'model', messages: [value as unknown as Message] };
      },
    };
    const model = new ScriptedModel({ steps: [{ content: 'first' }, { content: 'second' }] });
    const run = await new AgentHarness({ model, tools: [], middleware: [jump] }).invoke('x');
    expect(counter.reads).toBe(1);
    expect(run.messages).toContainEqual({ role: 'user', content: 'again v1' });
    expect(run.messages.some((message) => typeof (message as { toJSON?: unknown }).toJSON === 'function')).toBe(false);
  });
});

describe('a value that cannot be copied fails the run before it completes', () => {
  const throwing = {
    role: 'user',
    content: 'x',
    toJSON: () => {
      throw new Error('exploded');
    },
  };

  it('a caller message whose toJSON throws is refused before anything runs', async () => {
    const events: string[] = [];
    const model = new ScriptedModel({ steps: [{ content: 'ok' }] });
    const run = new AgentHarness({ model, tools: [] }).invoke([throwing as unknown as Message], {
      onEvent: (event) => events.push(event.type),
    });
    await expect(run).rejects.toThrow(InvalidInputError);
    expect(events).not.toContain('run_completed');
  });

  it('a jump_to message whose toJSON throws fails the run with a typed error, and the record says failed', async () => {
    const events: AgentEvent[] = [];
    const jump: AgentMiddleware = {
      name: 'jump',
      afterModel: () => ({ type: 'jump_to', target: 'model', messages: [throwing as unknown as Message] }),
    };
    const model = new ScriptedModel({ steps: [{ content: 'first' }, { content: 'second' }] });
    const run = new AgentHarness({ model, tools: [], middleware: [jump] }).invoke('x', {
      onEvent: (event) => events.push(event),
    });
    const error = await run.catch((caught: unknown) => caught);
    expect(TinyError.isInstance(error)).toBe(true);
    expect(events.map((event) => event.type)).not.toContain('run_completed');
    expect(events.at(-1)?.type).toBe('run_failed');
  });
});

describe('approveWithArgs copies as JSON', () => {
  const args = { city: 'Oslo' };
  it('reads a toJSON once and copies own enumerable keys only', () => {
    const { value, counter } = shifting({ city: 'Paris' }, 'city');
    const results = new DeferredToolResults().approveWithArgs('c1', value);
    expect(counter.reads).toBe(1);
    expect(results.get('c1')).toMatchObject({ arguments: { city: 'Paris v1' } });
    const inherited = new DeferredToolResults().approveWithArgs('c2', Object.create(args));
    expect(inherited.get('c2')).toMatchObject({ arguments: {} });
    const withFunction = new DeferredToolResults().approveWithArgs('c3', { ...args, note: () => 1, list: [() => 1] });
    expect(withFunction.get('c3')).toMatchObject({ arguments: { city: 'Oslo', list: [null] } });
    expect(Object.keys((withFunction.get('c3') as { arguments: object }).arguments)).toEqual(['city', 'list']);
  });

  it('refuses arguments whose toJSON throws', () => {
    const bad = {
      toJSON: () => {
        throw new Error('exploded');
      },
    };
    expect(() => new DeferredToolResults().approveWithArgs('c1', bad)).toThrow(InvalidInputError);
  });
});
