import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../errors/invalid-input-error.js';
import { ToolDefinitionError } from '../errors/tool-definition-error.js';
import { ToolPolicy } from '../policy/tool-policy.js';
import { defineTool, modelFacingParameters } from './define-tool.js';
import type { Tool } from './tool.js';

const execute = () => 'ok';

describe('defineTool', () => {
  it('keeps every member of the definition', () => {
    const tool = defineTool({
      name: 'search',
      description: 'Search documents.',
      parameters: Type.Object({ query: Type.String() }),
      exposure: 'deferred',
      tags: ['docs'],
      execute,
    });
    expect(tool.name).toBe('search');
    expect(tool.exposure).toBe('deferred');
    expect(tool.tags).toEqual(['docs']);
    expect(JSON.parse(JSON.stringify(tool.parameters))).toEqual({
      type: 'object',
      required: ['query'],
      properties: { query: { type: 'string' } },
    });
  });

  it.each([
    ['bad name', { name: 'read file' }, /whitespace/],
    ['empty name', { name: '' }, /empty/],
    ['non-object root', { parameters: Type.String() }, /type: "object"/],
    [
      'uncompilable schema',
      { parameters: { type: 'object', properties: { a: { $ref: '#/nowhere' } } } },
      /does not compile/,
    ],
    ['unknown injected', { injected: [{ name: 'token', source: 'host' }] }, /`token` is not a property/],
    [
      'injected twice',
      {
        parameters: Type.Object({ q: Type.String(), token: Type.String() }),
        injected: [
          { name: 'token', source: 'host' },
          { name: 'token', source: 'host' },
        ],
      },
      /declared twice/,
    ],
  ])('refuses a definition with %s when it is defined', (_label, patch, message) => {
    const definition = {
      name: 'probe',
      description: 'Probe.',
      parameters: Type.Object({ q: Type.String() }),
      execute,
      ...patch,
    };
    expect(() => defineTool(definition as never)).toThrow(ToolDefinitionError);
    expect(() => defineTool(definition as never)).toThrow(message);
  });

  it('projects injected arguments out of the model-facing schema, once per tool', () => {
    const tool = defineTool({
      name: 'send',
      description: 'Send.',
      parameters: Type.Object({ to: Type.String(), token: Type.String() }),
      injected: [{ name: 'token', source: 'host' }],
      execute,
    });
    const facing = modelFacingParameters(tool);
    expect(facing.required).toEqual(['to']);
    expect(Object.keys(facing.properties as object)).toEqual(['to']);
    expect(modelFacingParameters(tool)).toBe(facing);
    expect((tool.parameters.required as string[]).includes('token')).toBe(true);
  });

  it('refuses an unknown key, naming it and what it probably meant', () => {
    const base = { name: 'refund', description: 'Refund.', parameters: Type.Object({ q: Type.String() }), execute };
    const cases: [Record<string, unknown>, string][] = [
      [
        { needsApproval: true },
        'unknown option `needsApproval`; did you mean `policy: ToolPolicy.classified().requiringApproval()`?',
      ],
      [{ inputSchema: {} }, 'did you mean `parameters`?'],
      [{ excute: execute }, 'did you mean `execute`?'],
      [{ isConcurrentSafe: () => true }, 'did you mean `isConcurrencySafe`?'],
      [{ somethingElse: 1 }, 'unknown option `somethingElse`'],
    ];
    for (const [patch, message] of cases) {
      const error = (() => {
        try {
          defineTool({ ...base, ...patch } as never);
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(InvalidInputError.isInstance(error), JSON.stringify(Object.keys(patch))).toBe(true);
      expect((error as Error).message).toContain(message);
    }
  });

  it('accepts every member a Tool declares', () => {
    // `satisfies` keeps this list equal to the Tool interface (a missing or extra key is a type error).
    const every = {
      name: 'full',
      description: 'Every member.',
      parameters: Type.Object({ q: Type.String() }),
      outputSchema: Type.String(),
      standardSchemas: undefined,
      nestedTools: [],
      injected: [],
      policy: ToolPolicy.readOnly(),
      exposure: 'direct',
      family: 'f',
      tags: ['t'],
      category: 'system',
      scope: 'all',
      supportsMarkdown: true,
      returnDirect: false,
      maxResultSizeChars: 1000,
      hostExtension: {},
      permissionLevel: () => 'read_only',
      isConcurrencySafe: () => true,
      externalEffect: () => false,
      indirectTarget: () => undefined,
      timeoutPolicy: () => ({ kind: 'unbounded' }),
      hostCallExtension: () => undefined,
      idempotencyKey: () => undefined,
      displayLabel: () => 'Full',
      displayDetail: () => undefined,
      execute,
    } as const satisfies Record<keyof Tool, unknown>;
    expect(defineTool(every as never).name).toBe('full');
  });
});
