import { ModelCallError } from '@tiny/llm';
import { CallDeferredError, defineTool } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { MiddlewareError } from '../errors/middleware-error.js';
import type { AgentMiddleware } from '../middleware/agent-middleware.js';
import { ScriptedModel, scriptedToolCall } from '../testkit/index.js';

// A value of the wrong type from a tool, middleware or model is never recorded as the caller's live
// object: it is refused with a typed error, or recorded as text the caller cannot edit.

const open = { type: 'object', properties: {}, additionalProperties: true } as const;

function oneCall(name: string) {
  return new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall(name, {}, 'c1')] }, { content: 'done' }] });
}

describe('a CallDeferredError whose reason is not a string', () => {
  for (const where of ['execute', 'beforeTool'] as const) {
    it(`thrown by ${where}: the pause records its text, and editing the object changes nothing`, async () => {
      const reason = { why: 'host' } as unknown as string;
      const deferred = () => new CallDeferredError({ reason });
      const tool = defineTool({
        name: 't',
        description: 't',
        parameters: open,
        execute: () => {
          if (where === 'execute') throw deferred();
          return 'ran';
        },
      });
      const middleware: AgentMiddleware[] =
        where === 'beforeTool'
          ? [
              {
                name: 'pauser',
                beforeTool: () => {
                  throw deferred();
                },
              },
            ]
          : [];
      const run = await new AgentHarness({ model: oneCall('t'), tools: [tool], middleware }).invoke('go');
      (reason as unknown as { why: string }).why = 'edited';
      const event = run.events.find((item) => item.type === 'tool_deferred');
      expect(event).toMatchObject({ reason: '{"why":"host"}' });
      expect(run.deferred?.calls[0]?.reason).toBe('{"why":"host"}');
      expect(run.state?.pending?.calls[0]?.reason).toBe('{"why":"host"}');
    });
  }
});

describe('a middleware control whose fields break its type', () => {
  it('stop_with_final with a text that is not a string fails the run with MiddlewareError', async () => {
    const text = { live: true } as unknown as string;
    const middleware: AgentMiddleware = { name: 'stopper', afterModel: () => ({ type: 'stop_with_final', text }) };
    const events: string[] = [];
    const error = await new AgentHarness({ model: oneCall('t'), middleware: [middleware] })
      .invoke('go', { onEvent: (event) => events.push(event.type) })
      .catch((thrown: unknown) => thrown);
    expect(MiddlewareError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ middleware: 'stopper', hook: 'afterModel' });
    expect((error as Error).message).toContain('`text` must be a string');
    expect(events).not.toContain('control_applied');
    expect(events.at(-1)).toBe('run_failed');
  });

  it('a control of an unknown type fails the run with MiddlewareError', async () => {
    const middleware = { name: 'odd', afterTools: () => ({ type: 'restart' }) } as unknown as AgentMiddleware;
    const tool = defineTool({ name: 't', description: 't', parameters: open, execute: () => 'ran' });
    const error = await new AgentHarness({ model: oneCall('t'), tools: [tool], middleware: [middleware] })
      .invoke('go')
      .catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ name: 'MiddlewareError', middleware: 'odd', hook: 'afterTools' });
  });
});

describe('a model response whose fields break the provider contract', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['a refusal that is an object', { refusal: { text: 'no' } }, '`refusal` must be a string'],
    ['a finishReason that is an object', { finishReason: { reason: 'stop' } }, '`finishReason` must be a string'],
    [
      'usage.inputTokens that is an array',
      { usage: { inputTokens: [1, 2], outputTokens: 1 } },
      '`usage.inputTokens` must be a number',
    ],
  ];
  for (const [name, fields, message] of cases) {
    it(`${name}: the run fails with a protocol_violation ModelCallError, nothing of it recorded`, async () => {
      const model = new ScriptedModel({ steps: [{ content: 'hi' }] });
      const generate = model.doGenerate.bind(model);
      model.doGenerate = async (request) => ({ ...(await generate(request)), ...fields });
      const events: { type: string }[] = [];
      const error = await new AgentHarness({ model })
        .invoke('go', { onEvent: (event) => events.push(event) })
        .catch((thrown: unknown) => thrown);
      expect(ModelCallError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ kind: 'protocol_violation', isRetryable: false });
      expect((error as Error).message).toContain(message);
      expect(events.map((event) => event.type)).not.toContain('model_completed');
      expect(events.at(-1)?.type).toBe('run_failed');
    });
  }
});
