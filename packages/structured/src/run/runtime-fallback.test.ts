import { eventsOfType, scriptedToolCall } from '@tiny/harness/testkit';
import { ModelCallError } from '@tiny/llm';
import { describe, expect, it } from 'vitest';
import { ResponseFormat } from '../format/response-format.js';
import { invokeStructured } from './invoke-structured.js';
import { isResponseFormatRejection } from './is-response-format-rejection.js';
import { ask, Person, profiles, setupRejecting } from './scripted-setup.test-helpers.js';

const ada = { name: 'Ada', age: 36 };
const rejection = () =>
  new ModelCallError({
    message: 'HTTP 400: Invalid schema for response_format "person"',
    statusCode: 400,
    kind: 'response_format_unsupported',
    responseBody: '{"error":{"param":"response_format"}}',
  });

describe('runtime fallback', () => {
  it('recognises the shared response_format_unsupported kind, and nothing else', () => {
    expect(isResponseFormatRejection(rejection())).toBe(true);
    expect(isResponseFormatRejection(new ModelCallError({ message: 'rate limited', statusCode: 429 }))).toBe(false);
    expect(isResponseFormatRejection(new ModelCallError({ message: 'bad key', statusCode: 400 }))).toBe(false);
    expect(isResponseFormatRejection(new Error('response_format'))).toBe(false);
    // A 400 whose words name a schema is no rejection by itself: only the kind decides.
    expect(
      isResponseFormatRejection(
        new ModelCallError({ message: 'tools.0.input_schema: invalid schema', statusCode: 400 }),
      ),
    ).toBe(false);
  });

  it('auto falls back from provider to tool, with an output_fallback event', async () => {
    const { harness, requests } = setupRejecting(
      1,
      rejection,
      [{ toolCalls: [scriptedToolCall('person', ada)] }],
      profiles.native,
    );
    const result = await invokeStructured(harness, {}, ask, ResponseFormat.auto({ name: 'person', schema: Person }));
    expect(result.parsed).toEqual(ada);
    expect(result.validation.strategy).toBe('tool');
    expect(result.validation.fallbacks).toEqual([
      { from: 'provider', to: 'tool', reason: 'HTTP 400: Invalid schema for response_format "person"' },
    ]);
    expect(eventsOfType(result.run.events, 'output_fallback')).toEqual([
      expect.objectContaining({ schemaName: 'person', from: 'provider', to: 'tool' }),
    ]);
    expect(requests[0]?.responseFormat).toMatchObject({ type: 'json_schema' });
    expect(requests[1]?.responseFormat).toBeUndefined();
    expect(requests[1]?.tools?.map((tool) => tool.name)).toEqual(['person']);
  });

  it('then to prompted, once each', async () => {
    const { harness, calls } = setupRejecting(2, rejection, [{ content: JSON.stringify(ada) }], profiles.native);
    const result = await invokeStructured(harness, {}, ask, ResponseFormat.auto({ name: 'person', schema: Person }));
    expect(result.validation.strategy).toBe('prompted');
    expect(result.validation.fallbacks.map((fallback) => `${fallback.from}->${fallback.to}`)).toEqual([
      'provider->tool',
      'tool->prompted',
    ]);
    expect(calls()).toBe(3);
  });

  it('surfaces the provider error when the chain is spent or the format is explicit', async () => {
    const spent = setupRejecting(5, rejection, [], profiles.native);
    await expect(
      invokeStructured(spent.harness, {}, ask, ResponseFormat.auto({ name: 'person', schema: Person })),
    ).rejects.toSatisfy((error: unknown) => ModelCallError.isInstance(error));
    expect(spent.calls()).toBe(3);
    const explicit = setupRejecting(5, rejection, [], profiles.native);
    await expect(
      invokeStructured(explicit.harness, {}, ask, ResponseFormat.provider({ name: 'person', schema: Person })),
    ).rejects.toSatisfy((error: unknown) => ModelCallError.isInstance(error));
    expect(explicit.calls()).toBe(1);
  });

  it('does not fall back on other provider errors', async () => {
    const other = setupRejecting(
      1,
      () => new ModelCallError({ message: 'unauthorized', statusCode: 401 }),
      [],
      profiles.native,
    );
    await expect(
      invokeStructured(other.harness, {}, ask, ResponseFormat.auto({ name: 'person', schema: Person })),
    ).rejects.toThrow('unauthorized');
    expect(other.calls()).toBe(1);
  });
});
