import { ToolInputError as FromTools } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { ToolInputError } from './index.js';

describe('@tiny/structured error re-exports', () => {
  it('are the same classes as the tool layer, so isInstance works across imports', () => {
    expect(ToolInputError).toBe(FromTools);
    const error = new FromTools({
      toolName: 'x',
      issues: [{ path: '/a', keyword: 'type', message: 'must be string' }],
    });
    expect(ToolInputError.isInstance(error)).toBe(true);
    expect(error.message).toBe('invalid arguments for tool `x`: /a must be string');
  });
});
