import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { ToolExecutionError } from '../errors/tool-execution-error.js';
import type { AgentEvent } from '../events/agent-event.js';
import { ScriptedModel, scriptedInvalidToolCall, scriptedToolCall } from '../testkit/index.js';
import { REDACTED, sensitive } from './redaction.js';

const SECRET = 'tok_9f3a1c77d2';
const PIN = 'pin-4471';

function login(received: string[], mode: 'echo' | 'throw' = 'echo') {
  return defineTool({
    name: 'login',
    description: 'Log in.',
    parameters: Type.Object({
      user: Type.String(),
      token: Type.String({ 'x-tiny-sensitive': true }),
      extra: Type.Optional(Type.Object({ pins: Type.Array(sensitive(Type.String())) })),
      note: Type.Optional(Type.String()),
    }),
    policy: ToolPolicy.classified()
      .withSideEffects({ network: true })
      .withAccess({ redact: ['note'] }),
    execute: ({ user, token, extra, note }) => {
      received.push(`${user}:${token}:${extra?.pins.join(',') ?? ''}:${note ?? ''}`);
      if (mode === 'throw') throw new Error(`login failed for token ${token}`);
      throw new Error(`rejected token ${token} (pin ${extra?.pins[0] ?? ''}, note ${note ?? ''})`);
    },
  });
}

const args = { user: 'ada', token: SECRET, extra: { pins: [PIN] }, note: 'call me' };
const leaks = (events: readonly AgentEvent[]) =>
  [SECRET, PIN, 'call me'].filter((value) => JSON.stringify(events).includes(value));

describe('redaction', () => {
  it('never shows the sensitive markers to the model, while redacting by them', async () => {
    const received: string[] = [];
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('login', args, 'c1')] }, { content: 'ok' }],
    });
    const harness = new AgentHarness({
      model,
      tools: [login(received)],
      policy: { toolErrors: { kind: 'return_error' } },
    });
    harness.registry.registerExternal({
      name: 'vault',
      description: 'Opens the vault.',
      parameters: { type: 'object', properties: { code: { type: 'string', 'x-tiny-sensitive': true } } },
    });
    const run = await harness.invoke({}, [{ role: 'user', content: 'go' }]);
    expect(received).toEqual([`ada:${SECRET}:${PIN}:call me`]);
    const offered = JSON.stringify(model.requests.map((request) => request.tools));
    expect(offered).toContain('"token"');
    expect(offered).toContain('"code"');
    expect(offered).not.toContain('x-tiny');
    expect(leaks(run.events)).toEqual([]);
  });

  it('records no tool arguments or results by default; names and ids stay', async () => {
    const received: string[] = [];
    const model = new ScriptedModel({
      chunkSize: 4,
      steps: [
        {
          toolCalls: [
            scriptedToolCall('login', args, 'c1'),
            scriptedToolCall('nope', { token: SECRET }, 'c2'),
            scriptedInvalidToolCall('login', `{"token": "${SECRET}"`, 'unterminated', 'c3'),
          ],
        },
        { content: 'ok' },
      ],
    });
    const harness = new AgentHarness({
      model,
      tools: [login(received)],
      policy: { toolErrors: { kind: 'return_error' } },
    });
    const stream = harness.stream({}, [{ role: 'user', content: 'go' }]);
    const live: AgentEvent[] = [];
    for await (const event of stream) live.push(event);
    const run = await stream.result;
    expect(received).toEqual([`ada:${SECRET}:${PIN}:call me`]);
    const leaking = run.events.filter((event) => JSON.stringify(event).includes(SECRET));
    expect(leaking).toEqual([]);
    expect(leaks(run.events)).toEqual([]);
    expect(leaks(live)).toEqual([]);
    expect(live.some((event) => event.type === 'tool_call_delta')).toBe(false);
    const started = run.events.find((event) => event.type === 'tool_started' && event.callId === 'c1');
    expect(started).toEqual({
      type: 'tool_started',
      callId: 'c1',
      toolName: 'login',
      format: 'json',
      grammar: 'native',
    });
    expect(run.events.find((event) => event.type === 'unknown_tool_call')).not.toHaveProperty('arguments');
  });

  it('with captureToolIo, shows arguments with sensitive fields [redacted] and scrubs them from result and error text', async () => {
    const received: string[] = [];
    const model = new ScriptedModel({
      steps: [
        {
          toolCalls: [scriptedToolCall('login', args, 'c1'), scriptedToolCall('login', { ...args, user: 7 }, 'c2')],
        },
        { content: 'ok' },
      ],
    });
    const harness = new AgentHarness({
      model,
      tools: [login(received)],
      policy: { captureToolIo: true, toolErrors: { kind: 'return_error' } },
    });
    const run = await harness.invoke({}, [{ role: 'user', content: 'go' }]);
    expect(received).toEqual([`ada:${SECRET}:${PIN}:call me`]);
    expect(leaks(run.events)).toEqual([]);
    const started = run.events.find((event) => event.type === 'tool_started' && event.callId === 'c1');
    expect(started).toMatchObject({
      input: { user: 'ada', token: REDACTED, extra: { pins: [REDACTED] }, note: REDACTED },
    });
    const completed = run.events.find((event) => event.type === 'tool_completed' && event.callId === 'c1');
    expect(completed).toMatchObject({ error: expect.stringContaining(`rejected token ${REDACTED}`) });
    const invalid = run.events.find((event) => event.type === 'invalid_tool_args');
    expect(invalid).toMatchObject({ arguments: { user: 7, token: REDACTED } });
  });

  it('keeps sensitive values out of a ToolExecutionError and run_failed', async () => {
    const received: string[] = [];
    const model = new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall('login', args, 'c1')] }] });
    const harness = new AgentHarness({ model, tools: [login(received, 'throw')] });
    const events: AgentEvent[] = [];
    const error = await harness
      .invoke({}, [{ role: 'user', content: 'go' }], { onEvent: (event) => events.push(event) })
      .catch((caught: unknown) => caught);
    expect(ToolExecutionError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(`login failed for token ${REDACTED}`);
    expect((error as Error).message).not.toContain(SECRET);
    expect(leaks(events)).toEqual([]);
    expect(received).toHaveLength(1);
  });
});
