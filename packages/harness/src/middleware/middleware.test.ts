import { type Message, messageText } from '@tiny/llm';
import { defineTool, ToolPolicy, ToolResult } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { DeferredToolResults } from '../deferral/deferred-tool-results.js';
import { MiddlewareError } from '../errors/middleware-error.js';
import { eventsOfType, ScriptedModel, scriptedToolCall, toolEventViolations } from '../testkit/index.js';
import type { AgentMiddleware } from './agent-middleware.js';
import { ContextualToolSelectionMiddleware } from './contextual-tool-selection-middleware.js';
import { HumanApprovalMiddleware } from './human-approval-middleware.js';
import { ToolPolicyMiddleware } from './tool-policy-middleware.js';

const user = (text: string): Message[] => [{ role: 'user', content: text }];
const toolText = (messages: readonly Message[], id: string) =>
  messageText(messages.find((message) => message.role === 'tool' && message.toolCallId === id) as Message);

function echoTool(log: string[], name = 'echo') {
  return defineTool({
    name,
    description: 'Echo.',
    parameters: Type.Object({ text: Type.String() }),
    policy: ToolPolicy.readOnly(),
    execute: ({ text }) => {
      log.push(`${name}:${text}`);
      return text;
    },
  });
}

describe('middleware hooks', () => {
  it('runs before hooks in order, after hooks in reverse, and the wrap onion outermost-first', async () => {
    const log: string[] = [];
    const tracer = (name: string): AgentMiddleware => ({
      name,
      beforeModel: () => {
        log.push(`${name}.beforeModel`);
        return undefined;
      },
      afterModel: () => {
        log.push(`${name}.afterModel`);
        return undefined;
      },
      beforeTool: () => {
        log.push(`${name}.beforeTool`);
        return undefined;
      },
      wrapTool: async (call, next) => {
        log.push(`${name}.wrap>`);
        const result = await next(call);
        log.push(`${name}.wrap<`);
        return result;
      },
      afterTool: () => {
        log.push(`${name}.afterTool`);
        return undefined;
      },
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('echo', { text: 'hi' })] }, { content: 'ok' }],
    });
    await new AgentHarness({ model, tools: [echoTool(log)], middleware: [tracer('a'), tracer('b')] }).invoke(
      {},
      user('go'),
    );
    expect(log.slice(0, 13)).toEqual([
      'a.beforeModel',
      'b.beforeModel',
      'b.afterModel',
      'a.afterModel',
      'a.beforeTool',
      'b.beforeTool',
      'a.wrap>',
      'b.wrap>',
      'echo:hi',
      'b.wrap<',
      'a.wrap<',
      'b.afterTool',
      'a.afterTool',
    ]);
  });

  it('lets a wrap layer call next several times, or not at all', async () => {
    const log: string[] = [];
    let attempts = 0;
    const flaky = defineTool({
      name: 'flaky',
      description: '',
      parameters: Type.Object({}),
      execute: () => {
        attempts += 1;
        if (attempts < 3) throw new Error('transient');
        return 'third time lucky';
      },
    });
    const retry: AgentMiddleware = {
      name: 'retry',
      wrapTool: async (call, next) => {
        for (let attempt = 1; ; attempt += 1) {
          try {
            return await next(call);
          } catch (error) {
            if (attempt >= 5) throw error;
          }
        }
      },
    };
    const cache: AgentMiddleware = {
      name: 'cache',
      wrapTool: async (call, next) => (call.name === 'echo' ? ToolResult.success('cached') : next(call)),
    };
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('flaky', {}, 'f'), scriptedToolCall('echo', { text: 'x' }, 'e')] },
        { content: 'ok' },
      ],
    });
    const run = await new AgentHarness({ model, tools: [flaky, echoTool(log)], middleware: [cache, retry] }).invoke(
      {},
      user('go'),
    );
    expect(toolText(run.messages, 'f')).toBe('third time lucky');
    expect(toolText(run.messages, 'e')).toBe('cached');
    expect(log).toEqual([]);
    expect(attempts).toBe(3);
  });

  it('fails the run with a typed error naming a middleware that throws; never a tool result', async () => {
    const log: string[] = [];
    const broken: AgentMiddleware = {
      name: 'audit',
      beforeTool: () => {
        throw new Error('audit store offline');
      },
    };
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('echo', { text: 'hi' })] }, { content: 'ok' }],
    });
    const error = await new AgentHarness({ model, tools: [echoTool(log)], middleware: [broken] })
      .invoke({}, user('go'))
      .catch((caught: unknown) => caught);
    expect(MiddlewareError.isInstance(error)).toBe(true);
    expect((error as MiddlewareError).middleware).toBe('audit');
    expect((error as MiddlewareError).hook).toBe('beforeTool');
    expect(log).toEqual([]);
    expect(model.calls).toBe(1);
  });

  it('lets beforeTool rewrite a call, which is then validated', async () => {
    const log: string[] = [];
    const shout: AgentMiddleware = {
      name: 'shout',
      beforeTool: (call) => ({
        ...call,
        arguments: { text: String((call.arguments as { text: string }).text).toUpperCase() },
      }),
    };
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('echo', { text: 'hi' })] }, { content: 'ok' }],
    });
    await new AgentHarness({ model, tools: [echoTool(log)], middleware: [shout] }).invoke({}, user('go'));
    expect(log).toEqual(['echo:HI']);
  });
});

describe('controls', () => {
  it('stop_with_final before the model ends the run without a model call', async () => {
    const model = new ScriptedModel({ steps: [{ content: 'never' }] });
    const guard: AgentMiddleware = { name: 'guard', beforeModel: () => ({ type: 'stop_with_final', text: 'blocked' }) };
    const run = await new AgentHarness({ model, middleware: [guard] }).invoke({}, user('go'));
    expect(run.text).toBe('blocked');
    expect(model.calls).toBe(0);
    expect(eventsOfType(run.events, 'control_applied')).toEqual([
      { type: 'control_applied', control: 'stop_with_final', detail: 'blocked', by: 'guard' },
    ]);
  });

  it('jump_to model after the model closes the unanswered calls and appends the retry turn', async () => {
    const log: string[] = [];
    let first = true;
    const redo: AgentMiddleware = {
      name: 'redo',
      afterModel: () => {
        if (!first) return undefined;
        first = false;
        return { type: 'jump_to', target: 'model', messages: [{ role: 'user', content: 'try again' }] };
      },
    };
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('echo', { text: 'a' }, 'x1')] }, { content: 'second answer' }],
    });
    const run = await new AgentHarness({ model, tools: [echoTool(log)], middleware: [redo] }).invoke({}, user('go'));
    expect(log).toEqual([]);
    expect(run.text).toBe('second answer');
    expect(run.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'user', 'assistant']);
    expect(toolText(run.messages, 'x1')).toMatch(/skipped/);
  });

  it('jump_to end after tools stops the loop; update_state is queued; interrupt ends as interrupted', async () => {
    const log: string[] = [];
    const stopper: AgentMiddleware = {
      name: 'stopper',
      afterModel: () => ({ type: 'update_state', update: { seen: true } }),
      afterTools: () => ({ type: 'jump_to', target: 'end' }),
    };
    const model = new ScriptedModel({
      steps: [{ content: 'thinking', toolCalls: [scriptedToolCall('echo', { text: 'a' })] }, { content: 'x' }],
    });
    const run = await new AgentHarness({ model, tools: [echoTool(log)], middleware: [stopper] }).invoke({}, user('go'));
    expect(run.outcome).toBe('stopped');
    expect(run.stateUpdates).toEqual([{ seen: true }]);
    expect(model.calls).toBe(1);
    const interrupter: AgentMiddleware = {
      name: 'hitl',
      afterModel: () => ({ type: 'interrupt', node: 'review', message: 'check this' }),
    };
    const interrupted = await new AgentHarness({
      model: new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall('echo', { text: 'b' }, 'z')] }] }),
      tools: [echoTool(log)],
      middleware: [interrupter],
    }).invoke({}, user('go'));
    expect(interrupted.outcome).toBe('interrupted');
    expect(interrupted.interrupt).toEqual({ node: 'review', message: 'check this', by: 'hitl' });
    expect(log).toEqual(['echo:a']);
    expect(toolText(interrupted.messages, 'z')).toBe('run stopped before this tool call was executed');
  });
});

describe('ToolPolicyMiddleware', () => {
  const tools = (log: string[]) => [
    echoTool(log),
    defineTool({
      name: 'fetch_url',
      description: 'Fetch.',
      parameters: Type.Object({ url: Type.String() }),
      policy: ToolPolicy.classified().withSideEffects({ network: true }),
      execute: ({ url }) => {
        log.push(`fetch:${url}`);
        return 'page';
      },
    }),
    defineTool({
      name: 'mystery',
      description: 'Unclassified.',
      parameters: Type.Object({}),
      execute: () => {
        log.push('mystery');
        return 'x';
      },
    }),
  ];

  it('hides tools a policy forbids and rejects them if called anyway', async () => {
    const log: string[] = [];
    const model = new ScriptedModel({
      steps: [
        {
          toolCalls: [
            scriptedToolCall('fetch_url', { url: 'http://x' }, 'n1'),
            scriptedToolCall('echo', { text: 'ok' }, 'n2'),
          ],
        },
        { content: 'done' },
      ],
    });
    const policy = new ToolPolicyMiddleware().denySideEffects({ network: true });
    const run = await new AgentHarness({ model, tools: tools(log), middleware: [policy] }).invoke({}, user('go'));
    expect(model.requests[0]?.tools?.map((tool) => tool.name)).toEqual(['echo', 'mystery']);
    expect(log).toEqual(['echo:ok']);
    expect(toolText(run.messages, 'n1')).toBe(
      'tool `fetch_url` is not allowed by policy: side effect `network` is denied',
    );
    expect(eventsOfType(run.events, 'tool_denied').map((event) => event.callId)).toEqual(['n1']);
    expect(eventsOfType(run.events, 'tools_filtered')[0]).toMatchObject({
      by: 'tool_policy',
      excluded: ['fetch_url'],
      remaining: 2,
    });
  });

  it('answers a forbidden call that reaches beforeTool with a denial', async () => {
    const log: string[] = [];
    const policy = ToolPolicyMiddleware.strict();
    const context = {
      runId: 'r',
      turn: 1,
      run: {},
      messages: [],
      isCallApproved: () => false,
      emit: () => {},
      lookupTool: () => undefined,
    };
    const harness = new AgentHarness({ model: new ScriptedModel({ steps: [] }), tools: tools(log) });
    const mystery = harness.registry.get('mystery');
    expect(mystery && policy.refusal(mystery, context)).toBe('the tool has no declared policy');
    const answer = policy.beforeTool(
      { id: 'c', name: 'mystery', arguments: {} },
      { ...context, lookupTool: (name) => harness.registry.get(name) },
    );
    expect(answer && 'respond' in answer && answer.respond.output()).toBe(
      'tool `mystery` is not allowed by policy: the tool has no declared policy',
    );
  });

  it('requires a sandbox only when the workspace lacks one, defers listed tools, and truncates results', async () => {
    const log: string[] = [];
    const shell = defineTool({
      name: 'shell',
      description: 'Run a command.',
      parameters: Type.Object({ cmd: Type.String() }),
      policy: ToolPolicy.classified()
        .withSideEffects({ shell: true })
        .withRuntime({ sandbox: 'required', maxResultBytes: 12 }),
      execute: ({ cmd }) => {
        log.push(cmd);
        return 'x'.repeat(100);
      },
    });
    const policy = new ToolPolicyMiddleware().requireSandbox().enforceResultBytes();
    const steps = [{ toolCalls: [scriptedToolCall('shell', { cmd: 'ls' }, 's1')] }, { content: 'done' }];
    const bare = await new AgentHarness({
      model: new ScriptedModel({ steps }),
      tools: [shell],
      middleware: [policy],
    }).invoke({}, user('go'));
    expect(log).toEqual([]);
    expect(toolText(bare.messages, 's1')).toBe(
      'tool `shell` is not allowed by policy: the tool needs a sandboxed workspace',
    );
    const boxed = await new AgentHarness({
      model: new ScriptedModel({ steps }),
      tools: [shell],
      middleware: [policy],
    }).invoke({ workspace: { root: '/tmp/w', sandboxed: true } }, user('go'));
    expect(log).toEqual(['ls']);
    expect(toolText(boxed.messages, 's1')).toBe('xxxxxxxxxxxx\n[truncated to 12 bytes by policy (max_result_bytes)]');
    const approving = new ToolPolicyMiddleware().requireApproval(['shell']);
    const paused = await new AgentHarness({
      model: new ScriptedModel({ steps }),
      tools: [shell],
      middleware: [approving],
    }).invoke({}, user('go'));
    expect(paused.deferred?.approvals.map((call) => call.callId)).toEqual(['s1']);
  });
});

describe('HumanApprovalMiddleware', () => {
  it('allows, denies or defers flagged calls per the outcome callback, and never re-flags an approved call', async () => {
    const log: string[] = [];
    const approval = new HumanApprovalMiddleware({
      requireFor: ['echo'],
      outcome: (call) => {
        const text = (call.arguments as { text: string }).text;
        return text === 'ok' ? 'allow' : text === 'no' ? { deny: 'a human said no' } : 'defer';
      },
    });
    const model = new ScriptedModel({
      steps: [
        {
          toolCalls: [
            scriptedToolCall('echo', { text: 'ok' }, 'h1'),
            scriptedToolCall('echo', { text: 'no' }, 'h2'),
            scriptedToolCall('echo', { text: 'ask' }, 'h3'),
          ],
        },
        { content: 'done' },
      ],
    });
    const harness = new AgentHarness({ model, tools: [echoTool(log)], middleware: [approval] });
    const paused = await harness.invoke({}, user('go'));
    expect(log).toEqual(['echo:ok']);
    expect(toolText(paused.messages, 'h2')).toBe('a human said no');
    expect(paused.deferred?.approvals.map((call) => call.callId)).toEqual(['h3']);
    const run = await harness.resumeDeferred({}, paused.state!, new DeferredToolResults().approve('h3'));
    expect(log).toEqual(['echo:ok', 'echo:ask']);
    expect(run.text).toBe('done');
    expect(toolEventViolations(run.events)).toEqual([]);
  });
});

describe('ContextualToolSelectionMiddleware', () => {
  it('never shows a sub-run more than its parent allows', () => {
    const selection = ContextualToolSelectionMiddleware.inheriting(
      { allow: ['echo', 'fetch', 'shell'], deny: ['shell'] },
      { allow: ['fetch', 'write'], deny: ['echo'] },
    );
    expect(['echo', 'fetch', 'shell', 'write'].filter((name) => selection.permits(name))).toEqual(['fetch']);
    const open = ContextualToolSelectionMiddleware.inheriting({}, { deny: ['x'] });
    expect(open.permits('anything')).toBe(true);
    expect(open.permits('x')).toBe(false);
  });

  it('filters the offered tools with an event', async () => {
    const log: string[] = [];
    const model = new ScriptedModel({ steps: [{ content: 'ok' }] });
    const run = await new AgentHarness({
      model,
      tools: [echoTool(log), echoTool(log, 'other')],
      middleware: [ContextualToolSelectionMiddleware.fromLists({ allow: ['other'] })],
    }).invoke({}, user('go'));
    expect(model.requests[0]?.tools?.map((tool) => tool.name)).toEqual(['other']);
    expect(eventsOfType(run.events, 'tools_filtered')[0]?.excluded).toEqual(['echo']);
  });
});

describe('wrapModel', () => {
  it('wraps every model call, outermost first, and may answer without the model', async () => {
    const log: string[] = [];
    const journal = new Map<number, unknown>();
    let index = 0;
    const replay: AgentMiddleware = {
      name: 'journal',
      wrapModel: async (request, next) => {
        const key = index++;
        log.push(`journal:${key}`);
        if (journal.has(key)) return journal.get(key) as Awaited<ReturnType<typeof next>>;
        const response = await next(request);
        journal.set(key, JSON.parse(JSON.stringify(response)));
        return response;
      },
    };
    const tagger: AgentMiddleware = {
      name: 'tagger',
      wrapModel: async (request, next) => {
        log.push('tagger');
        return next(request);
      },
    };
    const model = new ScriptedModel({ steps: [{ content: 'first' }] });
    const harness = new AgentHarness({ model, middleware: [replay, tagger] });
    expect((await harness.invoke({}, user('go'))).text).toBe('first');
    index = 0;
    expect((await harness.invoke({}, user('go'))).text).toBe('first');
    expect(model.calls).toBe(1);
    expect(log).toEqual(['journal:0', 'tagger', 'journal:0']);
  });
});
