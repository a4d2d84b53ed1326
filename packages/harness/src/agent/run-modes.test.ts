import { type Message, messageText } from '@tiny/llm';
import { CallDeferredError, defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { eventsOfType, ScriptedModel, scriptedToolCall } from '../testkit/index.js';
import { AgentHarness } from './agent-harness.js';
import { createTestTools } from './test-tools.js';

const user = (text: string): Message[] => [{ role: 'user', content: text }];

describe('host allow-list', () => {
  it('denies every tool for a hosted run with an empty list (fail-closed)', async () => {
    const { all, log } = createTestTools();
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('weather', { city: 'x' })] }, { content: 'ok' }],
    });
    const run = await new AgentHarness({ model, tools: all }).invoke({ host: { allowedTools: [] } }, user('go'));
    expect(model.requests[0]?.tools).toBeUndefined();
    expect(log).toEqual([]);
    expect(messageText(run.messages.find((message) => message.role === 'tool') as Message)).toContain(
      'valid tools: []',
    );
  });

  it('enforces a declared list by membership, and only opts out explicitly', async () => {
    const { all, log } = createTestTools();
    const steps = [
      {
        toolCalls: [scriptedToolCall('weather', { city: 'x' }), scriptedToolCall('send_email', { to: 'a', body: 'b' })],
      },
      { content: 'ok' },
    ];
    await new AgentHarness({ model: new ScriptedModel({ steps }), tools: all }).invoke(
      { host: { allowedTools: ['weather'] }, hostValues: { apiKey: 'k' } },
      user('go'),
    );
    expect(log).toEqual(['weather:x']);
    const legacy = new ScriptedModel({ steps });
    await new AgentHarness({ model: legacy, tools: all }).invoke(
      { host: { legacyUnrestricted: true }, hostValues: { apiKey: 'k' } },
      user('go'),
    );
    expect(legacy.requests[0]?.tools?.map((tool) => tool.name)).toEqual(['send_email', 'weather']);
  });
});

describe('text dialects', () => {
  it('drives a model without native tools through the XML dialect', async () => {
    const { all, log } = createTestTools();
    const model = new ScriptedModel({
      profile: { toolCalling: false },
      steps: [
        { content: 'Checking.\n<tool_call>{"name": "weather", "arguments": {"city": "Oslo"}}</tool_call>' },
        { content: 'Sunny.' },
      ],
    });
    const run = await new AgentHarness({ model, tools: all }).invoke({ runId: 'run1' }, user('weather?'));
    expect(log).toEqual(['weather:Oslo']);
    expect(run.text).toBe('Sunny.');
    const first = model.requests[0];
    expect(first?.tools).toBeUndefined();
    expect(messageText(first?.messages[0] as Message)).toContain('<tool_call>');
    const second = model.requests[1]?.messages ?? [];
    expect(second.some((message) => message.role === 'tool')).toBe(false);
    expect(JSON.stringify(second)).toContain('[Tool results]');
    expect(run.messages.find((message) => message.role === 'tool')).toMatchObject({ toolCallId: 'run1-m0-tool-0' });
    // The assistant turn is recorded with its raw tagged text for replay.
    expect(messageText(run.messages[1] as Message)).toContain('<tool_call>');
  });

  it('streams scrubbed deltas: no partial call opener reaches the consumer', async () => {
    const { all } = createTestTools();
    const model = new ScriptedModel({
      profile: { toolCalling: false },
      chunkSize: 3,
      steps: [
        { content: 'Let me look. <tool_call>{"name": "weather", "arguments": {"city": "Oslo"}}</tool_call>' },
        { content: 'Done: sunny.' },
      ],
    });
    const stream = new AgentHarness({ model, tools: all }).stream({}, user('weather?'));
    const deltas: string[] = [];
    const types: string[] = [];
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'model_delta') deltas.push(event.delta);
    }
    const run = await stream.result;
    expect(run.text).toBe('Done: sunny.');
    expect(deltas.join('')).not.toContain('<');
    expect(deltas.join('')).toContain('Let me look.');
    expect(types.at(-1)).toBe('run_completed');
  });
});

describe('deferral', () => {
  it('defers approval-required and external calls, finishing the rest of the batch', async () => {
    const { weather, log } = createTestTools();
    const pay = defineTool({
      name: 'pay',
      description: '',
      parameters: Type.Object({ cents: Type.Integer() }),
      policy: ToolPolicy.classified().withSideEffects({ payment: true }).requiringApproval(),
      execute: ({ cents }) => {
        log.push(`pay:${cents}`);
        return 'paid';
      },
    });
    const handoff = defineTool({
      name: 'handoff',
      description: '',
      parameters: Type.Object({}),
      execute: () => {
        throw new CallDeferredError({ reason: 'needs_human', metadata: { queue: 'ops' } });
      },
    });
    const model = new ScriptedModel({
      steps: [
        {
          toolCalls: [
            scriptedToolCall('pay', { cents: 500 }, 'p1'),
            scriptedToolCall('weather', { city: 'Oslo' }, 'w1'),
            scriptedToolCall('browser_open', { url: 'x' }, 'e1'),
            scriptedToolCall('handoff', {}, 'h1'),
          ],
        },
      ],
    });
    const harness = new AgentHarness({ model, tools: [pay, weather, handoff] });
    harness.registry.registerExternal({
      name: 'browser_open',
      description: 'Open a page on the client.',
      parameters: { type: 'object' },
    });
    const run = await harness.invoke({}, user('go'));
    expect(run.outcome).toBe('deferred');
    expect(log).toEqual(['weather:Oslo']);
    expect(run.deferred?.approvals.map((call) => [call.callId, call.reason])).toEqual([['p1', 'approval_required']]);
    expect(run.deferred?.calls.map((call) => [call.callId, call.reason])).toEqual([
      ['e1', 'external'],
      ['h1', 'needs_human'],
    ]);
    expect(run.deferred?.metadata).toEqual({ h1: { queue: 'ops' } });
    expect(
      run.messages.filter((message) => message.role === 'tool').map((m) => m.role === 'tool' && m.toolCallId),
    ).toEqual(['w1']);
    expect(eventsOfType(run.events, 'tool_deferred').map((event) => event.callId)).toEqual(['p1', 'e1', 'h1']);
  });

  it('runs a call the host approved', async () => {
    const { log } = createTestTools();
    const pay = defineTool({
      name: 'pay',
      description: '',
      parameters: Type.Object({ cents: Type.Integer() }),
      policy: ToolPolicy.classified().requiringApproval(),
      execute: ({ cents }, context) => {
        log.push(`pay:${cents}:${context.approved}`);
        return 'paid';
      },
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('pay', { cents: 1 }, 'p1')] }, { content: 'ok' }],
    });
    await new AgentHarness({ model, tools: [pay] }).invoke({}, user('go'), { approvedCalls: ['p1'] });
    expect(log).toEqual(['pay:1:true']);
  });
});

describe('streaming native tool calls', () => {
  it('emits tool_call_delta pieces that add up to the call arguments', async () => {
    const { all } = createTestTools();
    const model = new ScriptedModel({
      chunkSize: 5,
      steps: [{ toolCalls: [scriptedToolCall('weather', { city: 'Oslo', days: 3 }, 'w1')] }, { content: 'done' }],
    });
    const stream = new AgentHarness({ model, tools: all, policy: { captureToolIo: true } }).stream({}, user('go'));
    const pieces: string[] = [];
    for await (const event of stream) {
      if (event.type === 'tool_call_delta') {
        expect(event).toMatchObject({ callId: 'w1', toolName: 'weather' });
        pieces.push(event.argumentsDelta);
      }
    }
    expect(pieces.length).toBeGreaterThan(1);
    expect(JSON.parse(pieces.join(''))).toEqual({ city: 'Oslo', days: 3 });
    expect((await stream.result).text).toBe('done');
  });
});
