import type { LanguageModelV1Request, Message } from '@tiny/llm';
import { defineTool, InvalidInputError, ToolPolicy } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { DeferredToolResults } from '../deferral/deferred-tool-results.js';
import type { AgentMiddleware } from '../middleware/agent-middleware.js';
import { ScriptedModel, scriptedToolCall } from '../testkit/index.js';
import { AgentHarness } from './agent-harness.js';

// Findings of the loop-abort breaker (a5-messages, a10-repro-transcript): a model that edited the
// message objects of its request rewrote the run's transcript, its signed state and later requests.

const echo = defineTool({
  name: 'echo',
  description: 'Echo a value.',
  parameters: { type: 'object', properties: { a: {} }, additionalProperties: false },
  execute: async ({ a }: { a?: unknown }) => `got ${JSON.stringify(a)}`,
});

const danger = defineTool({
  name: 'danger',
  description: 'Needs a human.',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  policy: ToolPolicy.classified().requiringApproval(),
  execute: async () => 'ran',
});

const SECRET = 'k'.repeat(32);
const INJECTED = 'INJECTED';

/** Edits every message of a kind it finds; returns how many edits it tried and how many threw. */
type Edit = (messages: Message[]) => { tried: number; threw: number };

function attempt(count: { tried: number; threw: number }, edit: () => void): void {
  count.tried += 1;
  try {
    edit();
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    count.threw += 1;
  }
}

type Loose = Record<string, unknown>;
const loose = (value: unknown) => value as Loose;

const edits: Record<string, Edit> = {
  content: (messages) => {
    const count = { tried: 0, threw: 0 };
    for (const message of messages)
      if (typeof message.content === 'string')
        attempt(count, () => {
          loose(message).content = `${INJECTED} ${message.content}`;
        });
    return count;
  },
  textPart: (messages) => {
    const count = { tried: 0, threw: 0 };
    for (const message of messages)
      if (Array.isArray(message.content))
        for (const part of message.content)
          if (part.type === 'text')
            attempt(count, () => {
              loose(part).text = INJECTED;
            });
    return count;
  },
  partsArray: (messages) => {
    const count = { tried: 0, threw: 0 };
    for (const message of messages)
      if (Array.isArray(message.content))
        attempt(count, () => (message.content as unknown[]).push({ type: 'text', text: INJECTED }));
    return count;
  },
  toolCall: (messages) => {
    const count = { tried: 0, threw: 0 };
    for (const message of messages)
      if (message.role === 'assistant')
        for (const call of message.toolCalls ?? []) {
          attempt(count, () => {
            loose(call).name = INJECTED;
          });
          attempt(count, () => {
            loose(call).arguments = `{"a":"${INJECTED}"}`;
          });
        }
    return count;
  },
  toolCallsArray: (messages) => {
    const count = { tried: 0, threw: 0 };
    for (const message of messages)
      if (message.role === 'assistant' && message.toolCalls)
        attempt(count, () => (message.toolCalls as unknown[]).push({ id: 'zz', name: INJECTED, arguments: '{}' }));
    return count;
  },
  toolResult: (messages) => {
    const count = { tried: 0, threw: 0 };
    for (const message of messages)
      if (message.role === 'tool') {
        attempt(count, () => {
          loose(message).content = INJECTED;
        });
        attempt(count, () => {
          loose(message).isError = true;
        });
      }
    return count;
  },
  defineProperty: (messages) => {
    const count = { tried: 0, threw: 0 };
    for (const message of messages)
      attempt(count, () =>
        Object.defineProperty(message, 'content', { get: () => INJECTED, enumerable: true, configurable: true }),
      );
    return count;
  },
};

/** Events as JSON without clock readings and run ids, so two runs of one script compare equal. */
function eventsJson(events: readonly object[]): string {
  return JSON.stringify(events, (key, value) => (key.endsWith('Ms') || key === 'runId' ? undefined : value));
}

/**
 * A run of three model calls (a call, a call, then a call needing approval: the run pauses with a
 * signed state); `edit`, when given, is applied to the second request's messages, and every request's
 * messages are kept for `later` edits.
 */
async function scriptedRun(dialect: 'native' | 'text', edit?: Edit) {
  const kept: Message[][] = [];
  const seen: string[] = [];
  let count = { tried: 0, threw: 0 };
  const text = dialect === 'text';
  const call = (name: string, args: unknown, id: string) =>
    text
      ? { content: `<tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>` }
      : { toolCalls: [scriptedToolCall(name, args, id)] };
  const step = (reply: object, editHere: boolean) => (request: LanguageModelV1Request) => {
    seen.push(JSON.stringify(request.messages));
    const messages = request.messages as Message[];
    kept.push(messages);
    if (editHere && edit) count = edit(messages);
    return reply;
  };
  const model = new ScriptedModel({
    steps: [
      step(call('echo', { a: { deep: [1] } }, 'c1'), false),
      step(call('echo', { a: 2 }, 'c2'), true),
      step(call('danger', {}, 'd1'), false),
    ],
    ...(text ? { profile: { toolCalling: false } } : {}),
  });
  const harness = new AgentHarness({ model, tools: [echo, danger], stateSecret: SECRET });
  const input: Message[] = [
    { role: 'system', content: 'sys' },
    { role: 'user', content: [{ type: 'text', text: 'hello' }] },
    { role: 'user', content: 'and more' },
  ];
  const run = await harness.invoke({ runId: 'r1' }, input);
  return { run, kept, seen, count: () => count, input };
}

describe('the run history is immutable', () => {
  for (const dialect of ['native', 'text'] as const) {
    for (const [name, edit] of Object.entries(edits)) {
      it(`${dialect}: a model editing message objects (${name}) changes no request, transcript, state or event`, async () => {
        const baseline = await scriptedRun(dialect);
        const edited = await scriptedRun(dialect, edit);
        expect(baseline.run.outcome).toBe('deferred');
        // Every edit of a history message throws (strict code); a native request holds the history's own.
        const { tried, threw } = edited.count();
        if (dialect === 'native') {
          expect(tried).toBeGreaterThan(0);
          expect(threw).toBe(tried);
        }
        expect(edited.seen[2]).toBe(baseline.seen[2]);
        expect(edited.seen[2]).not.toContain(INJECTED);
        const transcript = JSON.stringify(edited.run.messages);
        expect(transcript).toBe(JSON.stringify(baseline.run.messages));
        expect(JSON.stringify(edited.run.state)).toBe(JSON.stringify(baseline.run.state));
        expect(eventsJson(edited.run.events)).toBe(eventsJson(baseline.run.events));
        // After the run: the kept requests edited again, and the caller's input edited, change nothing.
        for (const messages of edited.kept) edit(messages);
        edit(edited.input);
        expect(JSON.stringify(edited.run.messages)).toBe(transcript);
      });
    }
  }

  it('an edit from sloppy-mode code (Reflect) is refused and changes nothing', async () => {
    let refused = 0;
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('echo', { a: 1 }, 'c1')] },
        (request) => {
          for (const message of request.messages) {
            if (!Reflect.set(message, 'content', INJECTED)) refused += 1;
            if (!Reflect.defineProperty(message, 'role', { value: 'system' })) refused += 1;
          }
          return { content: 'done' };
        },
      ],
    });
    const run = await new AgentHarness({ model, tools: [echo] }).invoke('hello');
    expect(refused).toBe(6);
    expect(JSON.stringify(run.messages)).not.toContain(INJECTED);
    expect(run.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it("the caller's messages are copied, never frozen, and editing them mid-run changes nothing", async () => {
    const input: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }];
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('echo', { a: 1 }, 'c1')] },
        () => {
          loose(input[0]).content = INJECTED;
          return { content: 'done' };
        },
      ],
    });
    const run = await new AgentHarness({ model, tools: [echo] }).invoke(input);
    expect(Object.isFrozen(input[0])).toBe(false);
    expect(input[0]?.content).toBe(INJECTED);
    expect(run.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'hello' }] });
    expect(JSON.stringify(model.requests[1]?.messages)).not.toContain(INJECTED);
    expect(Object.isFrozen(run.messages[0])).toBe(true);
  });

  it('a model editing the response it returned (a call, its provider data) changes nothing later', async () => {
    const extraContent = { signature: 'sig-1' };
    const first = { ...scriptedToolCall('echo', { a: 1 }, 'c1'), extraContent };
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [first] },
        () => {
          extraContent.signature = INJECTED;
          return { content: 'done' };
        },
      ],
    });
    const run = await new AgentHarness({ model, tools: [echo] }).invoke('hello');
    const assistant = run.messages[1];
    expect(assistant?.role === 'assistant' && assistant.toolCalls?.[0]?.extraContent).toEqual({ signature: 'sig-1' });
    expect(JSON.stringify(model.requests[1]?.messages)).not.toContain(INJECTED);
  });

  it('middleware reads a frozen transcript: it cannot push into it or edit its messages', async () => {
    const tried: string[] = [];
    const vandal: AgentMiddleware = {
      name: 'vandal',
      beforeModel: (_input, context) => {
        try {
          (context.messages as Message[]).push({ role: 'user', content: INJECTED });
        } catch (error) {
          if (error instanceof TypeError) tried.push('push');
        }
        try {
          loose(context.messages[0]).content = INJECTED;
        } catch (error) {
          if (error instanceof TypeError) tried.push('edit');
        }
        return undefined;
      },
    };
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('echo', { a: 1 }, 'c1')] }, { content: 'done' }],
    });
    const run = await new AgentHarness({ model, tools: [echo], middleware: [vandal] }).invoke('hello');
    expect(tried).toEqual(['push', 'edit', 'push', 'edit']);
    expect(JSON.stringify(run.messages)).not.toContain(INJECTED);
    expect(JSON.stringify(model.requests.map((request) => request.messages))).not.toContain(INJECTED);
  });

  it('a context kept by a hook and read turns later holds the transcript of its own turn', async () => {
    const kept: { turn: number; messages: () => readonly Message[] }[] = [];
    const keeper: AgentMiddleware = {
      name: 'keeper',
      // Keeps every context without reading its transcript; all are read after the run.
      beforeModel: (_input, context) => {
        kept.push({ turn: context.turn, messages: () => context.messages });
        return undefined;
      },
    };
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('echo', { a: 1 }, 'c1')] },
        { toolCalls: [scriptedToolCall('echo', { a: 2 }, 'c2')] },
        { content: 'done' },
      ],
    });
    const run = await new AgentHarness({ model, tools: [echo], middleware: [keeper] }).invoke('hello');
    expect(kept.map(({ turn, messages }) => [turn, messages().length])).toEqual([
      [1, 1],
      [2, 3],
      [3, 5],
    ]);
    const second = kept[1]?.messages() as readonly Message[];
    expect(second).toEqual(run.messages.slice(0, 3));
    expect(Object.isFrozen(second)).toBe(true);
    // One array per context, whenever it is read (another context's read in between).
    expect(kept[0]?.messages()).toHaveLength(1);
    expect(kept[1]?.messages()).toBe(second);
  });

  it('a middleware jump_to message enters the history as a frozen copy', async () => {
    const retry: Message = { role: 'user', content: 'try again' };
    let jumped = false;
    const middleware: AgentMiddleware = {
      name: 'retry',
      afterModel: () => {
        if (jumped) return undefined;
        jumped = true;
        return { type: 'jump_to', target: 'model', messages: [retry] };
      },
    };
    const model = new ScriptedModel({ steps: [{ content: 'first' }, { content: 'second' }] });
    const run = await new AgentHarness({ model, middleware: [middleware] }).invoke('hello');
    loose(retry).content = INJECTED;
    expect(Object.isFrozen(retry)).toBe(false);
    expect(run.messages.map((message) => message.content)).toEqual(['hello', 'first', 'try again', 'second']);
    expect(run.messages.every((message) => Object.isFrozen(message))).toBe(true);
  });

  it('a resumed run copies the state it is given and holds frozen messages', async () => {
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('danger', {}, 'd1')] },
        (request) => {
          for (const message of request.messages) Reflect.set(message, 'content', INJECTED);
          return { content: 'done' };
        },
      ],
    });
    const harness = new AgentHarness({ model, tools: [danger], stateSecret: SECRET });
    const paused = await harness.invoke('hello');
    const state = structuredClone(paused.state);
    if (state === undefined) throw new Error('the run did not pause');
    const resumed = await harness.resumeDeferred({}, state, new DeferredToolResults().approve('d1'));
    expect(resumed.outcome).toBe('final');
    expect(Object.isFrozen(state.messages[0])).toBe(false);
    expect(resumed.messages.every((message) => Object.isFrozen(message))).toBe(true);
    expect(JSON.stringify(resumed.messages)).not.toContain(INJECTED);
    expect(resumed.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('every message of a finished run is frozen at every depth', async () => {
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('echo', { a: 1 }, 'c1')] }, { content: 'done' }],
    });
    const run = await new AgentHarness({ model, tools: [echo] }).invoke([
      { role: 'user', content: [{ type: 'text', text: 'hello' }] },
    ]);
    const stack: unknown[] = [...run.messages];
    let objects = 0;
    for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
      if (typeof item !== 'object' || item === null) continue;
      objects += 1;
      expect(Object.isFrozen(item)).toBe(true);
      stack.push(...Object.values(item));
    }
    expect(objects).toBeGreaterThan(6);
  });

  it('a cyclic message is refused with InvalidInputError before anything runs', async () => {
    const part: Loose = { type: 'text', text: 'x' };
    part.self = part;
    const model = new ScriptedModel({ steps: [{ content: 'done' }] });
    const invoked = new AgentHarness({ model }).invoke([{ role: 'user', content: [part as never] }]);
    await expect(invoked).rejects.toThrow(InvalidInputError);
    expect(model.calls).toBe(0);
  });
});

describe('the sealed copy of a message is its JSON', () => {
  it("keeps an own `__proto__` key as a key (JSON.parse makes one), never as the copy's prototype", async () => {
    const parsed = JSON.parse(
      '{"role":"user","content":[{"type":"text","text":"hi","__proto__":{"isError":true,"polluted":1}}]}',
    ) as Message;
    const model = new ScriptedModel({ steps: [{ content: 'done' }] });
    const run = await new AgentHarness({ model }).invoke([parsed]);
    const part = (run.messages[0] as unknown as { content: readonly Record<string, unknown>[] }).content[0] as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(part)).toBe(Object.prototype);
    expect(part.polluted).toBeUndefined();
    expect(Object.hasOwn(part, '__proto__')).toBe(true);
    expect(JSON.stringify(run.messages[0])).toBe(JSON.stringify(parsed));
  });

  it('writes a wrapper object as the primitive JSON writes for it', async () => {
    const message = {
      role: 'user',
      content: [{ type: 'text', text: new String('hi') }],
      extra: { n: new Number(3), b: new Boolean(false) },
    } as unknown as Message;
    const model = new ScriptedModel({ steps: [{ content: 'done' }] });
    const run = await new AgentHarness({ model }).invoke([message]);
    expect(JSON.stringify(run.messages[0])).toBe(JSON.stringify(message));
    expect((run.messages[0] as unknown as { extra: { n: unknown } }).extra.n).toBe(3);
  });
});
