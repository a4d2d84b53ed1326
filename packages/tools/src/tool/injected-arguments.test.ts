import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InjectedArgumentError } from '../errors/injected-argument-error.js';
import { ToolInputError } from '../errors/tool-input-error.js';
import { createValidator } from '../validation/create-validator.js';
import { type InjectedArgument, prepareToolArguments, projectInjectedArguments } from './injected-arguments.js';

const schema = {
  type: 'object',
  required: ['query', 'apiKey'],
  additionalProperties: false,
  properties: { query: { type: 'string' }, apiKey: { type: 'string' }, callId: { type: 'string' } },
};
const injected: InjectedArgument[] = [
  { name: 'apiKey', source: 'host' },
  { name: 'callId', source: 'tool_call_id' },
];

describe('projectInjectedArguments', () => {
  it('removes injected names from properties and required without touching the input', () => {
    const projected = projectInjectedArguments(schema, injected);
    expect(projected).toEqual({
      type: 'object',
      required: ['query'],
      additionalProperties: false,
      properties: { query: { type: 'string' } },
    });
    expect(Object.keys(schema.properties)).toEqual(['query', 'apiKey', 'callId']);
  });

  it('returns the schema itself when nothing is injected', () => {
    expect(projectInjectedArguments(schema, [])).toBe(schema);
  });
});

describe('prepareToolArguments', () => {
  it('removes model-supplied values first, then inserts the authoritative ones', () => {
    const prepared = prepareToolArguments(
      { id: 'call-7', arguments: { query: 'q', apiKey: 'forged', callId: 'forged' } },
      injected,
      { apiKey: 'sk-host' },
    );
    expect(prepared).toEqual({ query: 'q', apiKey: 'sk-host', callId: 'call-7' });
  });

  it('never merges a model object into a host object', () => {
    const prepared = prepareToolArguments(
      { id: 'c', arguments: { query: 'q', apiKey: { admin: true } } },
      [{ name: 'apiKey', source: 'host' }],
      { apiKey: { scope: 'read' } },
    );
    expect(prepared.apiKey).toEqual({ scope: 'read' });
  });

  it.each([
    [[], 'not_an_object'],
    ['{"query":"q"}', 'not_an_object'],
    [null, 'not_an_object'],
  ])('refuses non-object arguments %j', (args, reason) => {
    expect(() => prepareToolArguments({ id: 'c', arguments: args }, injected, { apiKey: 'k' })).toThrow(
      expect.objectContaining({ reason }),
    );
  });

  it('refuses a name declared twice and a missing host value, naming the argument only', () => {
    const twice = [...injected, { name: 'apiKey', source: 'host' as const }];
    expect(() => prepareToolArguments({ id: 'c', arguments: {} }, twice, { apiKey: 'k' })).toThrow(
      /`apiKey` is declared twice/,
    );
    try {
      prepareToolArguments({ id: 'c', arguments: { apiKey: 'model-value' } }, injected, {}, 'search');
      expect.unreachable();
    } catch (error) {
      expect(InjectedArgumentError.isInstance(error)).toBe(true);
      if (!InjectedArgumentError.isInstance(error)) return;
      expect(error.reason).toBe('missing_host_value');
      expect(error.argumentName).toBe('apiKey');
      expect(error.message).toBe('the host did not supply injected argument `apiKey` for tool `search`');
    }
  });

  it('never leaks a host secret into a model-facing schema or any error text', () => {
    const key = fc.string({ minLength: 1, maxLength: 12 }).filter((name) => name !== '__proto__');
    fc.assert(
      fc.property(
        fc.uniqueArray(key, { minLength: 1, maxLength: 5 }),
        fc.string({ minLength: 12, maxLength: 40 }),
        fc.dictionary(key, fc.jsonValue(), { maxKeys: 4 }),
        (names, secret, modelArgs) => {
          const [hidden, ...visible] = names as [string, ...string[]];
          const declared = {
            type: 'object',
            required: names,
            additionalProperties: false,
            properties: Object.fromEntries(names.map((name) => [name, { type: 'integer' }])),
          };
          const decls = [{ name: hidden, source: 'host' as const }];
          const projected = projectInjectedArguments(declared, decls);
          expect(JSON.stringify(projected)).not.toContain(secret);
          expect(Object.keys(projected.properties as object).sort()).toEqual([...visible].sort());
          // The secret is a string where the schema wants an integer, so validation fails on it:
          // the issue must name the path, never the value.
          const prepared = prepareToolArguments({ id: 'c', arguments: modelArgs }, decls, { [hidden]: secret });
          expect(prepared[hidden]).toBe(secret);
          const result = createValidator(declared).validate(prepared);
          expect(result.ok).toBe(false);
          if (!result.ok) {
            const error = new ToolInputError({ toolName: 'probe', issues: result.issues });
            expect(error.message).not.toContain(secret);
            expect(JSON.stringify(result.issues)).not.toContain(secret);
          }
        },
      ),
    );
  });
});
