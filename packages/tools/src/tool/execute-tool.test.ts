import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { InjectedArgumentError } from '../errors/injected-argument-error.js';
import { ModelRetry } from '../errors/model-retry.js';
import { ToolFailedError } from '../errors/tool-failed-error.js';
import { ToolInputError } from '../errors/tool-input-error.js';
import { ToolTimeoutError } from '../errors/tool-timeout-error.js';
import { ToolPolicy } from '../policy/tool-policy.js';
import { ToolResult } from '../result/tool-result.js';
import { createToolTimeoutSettings } from '../timeout/tool-timeout.js';
import { defineTool } from './define-tool.js';
import { executeTool } from './execute-tool.js';

const weather = defineTool({
  name: 'weather',
  description: 'Look up weather for a city.',
  parameters: Type.Object(
    { city: Type.String(), days: Type.Optional(Type.Integer({ minimum: 1 })) },
    { additionalProperties: false },
  ),
  execute: ({ city, days }) => ({ city, days: days ?? 1, sky: 'sunny' }),
});

describe('executeTool', () => {
  it('runs a valid call and wraps plain returns', async () => {
    const result = await executeTool(weather, { city: 'Oslo' });
    expect(result.toJSON()).toEqual({
      content: [{ type: 'json', data: { city: 'Oslo', days: 1, sky: 'sunny' } }],
      isError: false,
    });
    const text = defineTool({ name: 'echo', description: '', parameters: Type.Object({}), execute: () => 'hi' });
    expect((await executeTool(text, {})).output()).toBe('hi');
  });

  it('refuses invalid arguments before execute with an error naming the tool', async () => {
    let ran = false;
    const tool = defineTool({
      name: 'charge',
      description: 'Charge a card.',
      parameters: Type.Object({ cents: Type.Integer() }, { additionalProperties: false }),
      execute: () => {
        ran = true;
      },
    });
    const error = await executeTool(tool, { cents: 1.5, note: 'x' }).catch((caught: unknown) => caught);
    expect(ToolInputError.isInstance(error)).toBe(true);
    expect((error as ToolInputError).message).toBe(
      'invalid arguments for tool `charge`: /note is not allowed; /cents must be integer',
    );
    expect(ran).toBe(false);
  });

  it('never replaces malformed arguments with an empty object', async () => {
    await expect(executeTool(weather, '{"city": "Oslo"')).rejects.toSatisfy(InjectedArgumentError.isInstance);
  });

  it('injects host values and the call id, overriding the model', async () => {
    const tool = defineTool({
      name: 'send',
      description: 'Send.',
      parameters: Type.Object({ to: Type.String(), token: Type.String(), callId: Type.String() }),
      injected: [
        { name: 'token', source: 'host' },
        { name: 'callId', source: 'tool_call_id' },
      ],
      execute: (args) => `${args.to}:${args.token}:${args.callId}`,
    });
    const result = await executeTool(
      tool,
      { to: 'a', token: 'forged' },
      { hostValues: { token: 'real' }, context: { callId: 'c-1' } },
    );
    expect(result.output()).toBe('a:real:c-1');
  });

  it('turns ModelRetry and ToolFailedError into error results and rethrows anything else', async () => {
    const make = (error: Error) =>
      defineTool({ name: 'x', description: '', parameters: Type.Object({}), execute: () => Promise.reject(error) });
    const retry = await executeTool(make(new ModelRetry('use a city name')), {});
    expect(retry.toJSON()).toMatchObject({ isError: true, errorKind: 'retry', content: [{ text: 'use a city name' }] });
    const failed = await executeTool(make(new ToolFailedError({ reason: 'disk full' })), {});
    expect(failed.errorKind).toBe('failed');
    await expect(executeTool(make(new RangeError('boom')), {})).rejects.toThrow(RangeError);
  });

  it('passes returned ToolResults through untouched', async () => {
    const returned = ToolResult.error('no such city').withMetadata({ code: 404 });
    const tool = defineTool({ name: 'x', description: '', parameters: Type.Object({}), execute: () => returned });
    expect(await executeTool(tool, {})).toBe(returned);
  });

  it('times out at the resolved deadline and aborts the tool signal', async () => {
    let signal: AbortSignal | undefined;
    const slow = defineTool({
      name: 'slow',
      description: '',
      parameters: Type.Object({}),
      policy: ToolPolicy.classified().withRuntime({ timeoutMs: 20 }),
      execute: (_args, context) => {
        signal = context.signal;
        return new Promise<string>(() => {});
      },
    });
    const error = await executeTool(slow, {}, { timeouts: createToolTimeoutSettings({ minMs: 1 }) }).catch(
      (e: unknown) => e,
    );
    expect(ToolTimeoutError.isInstance(error)).toBe(true);
    expect((error as ToolTimeoutError).message).toBe('tool `slow` timed out after 20 ms');
    expect(signal?.aborted).toBe(true);
  });

  it('forwards the caller signal to the tool', async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const tool = defineTool({
      name: 'watch',
      description: '',
      parameters: Type.Object({}),
      execute: async (_args, context) => {
        seen = context.signal;
        controller.abort(new Error('cancelled'));
        return 'done';
      },
    });
    await executeTool(tool, {}, { context: { signal: controller.signal } });
    expect(seen?.aborted).toBe(true);
  });
});
