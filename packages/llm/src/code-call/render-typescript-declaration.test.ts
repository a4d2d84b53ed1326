import { describe, expect, it } from 'vitest';
import { renderTypeScriptDeclaration } from './render-typescript-declaration.js';

describe('renderTypeScriptDeclaration', () => {
  const add = {
    name: 'add',
    description: 'Adds two\nnumbers. */ end',
    parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'integer' } }, required: ['a'] },
  } as const;

  it('renders one object argument and the output schema as the promised type', () => {
    expect(
      renderTypeScriptDeclaration(add, {
        outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
      }),
    ).toBe(
      '/** Adds two numbers. *\\/ end */\ndeclare function add(args: { a: number; b?: number }): Promise<{ sum: number }>;',
    );
  });

  it('promises unknown without an output schema and leaves out an empty comment', () => {
    expect(renderTypeScriptDeclaration({ ...add, description: '' })).toBe(
      'declare function add(args: { a: number; b?: number }): Promise<unknown>;',
    );
  });

  it('renders a parameter-less tool as an empty object type', () => {
    expect(
      renderTypeScriptDeclaration({
        name: 'now',
        description: 'Time.',
        parameters: { type: 'object', properties: {} },
      }),
    ).toBe('/** Time. */\ndeclare function now(args: object): Promise<unknown>;');
  });
});
