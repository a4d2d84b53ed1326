import { describe, expect, it } from 'vitest';
import { ToolPolicy } from '../policy/tool-policy.js';
import { completeTool } from './complete-tool.js';
import { defineTool } from './define-tool.js';
import { recordToolOrigin, toolOrigin } from './tool-origin.js';

describe('toolOrigin', () => {
  const pay = defineTool({
    name: 'pay',
    description: 'Pay.',
    parameters: { type: 'object', properties: {} },
    policy: ToolPolicy.readOnly(),
    execute: () => 'ok',
  });

  it('is the tool itself when it wraps nothing', () => {
    expect(toolOrigin(pay)).toBe(pay);
  });

  it('follows completeTool and recorded wrappers to the first tool', () => {
    const complete = completeTool(pay);
    expect(toolOrigin(complete)).toBe(pay);
    const renamed = { ...complete, name: 'bank_pay' };
    recordToolOrigin(renamed, complete);
    const again = completeTool(renamed);
    expect(toolOrigin(renamed)).toBe(pay);
    expect(toolOrigin(again)).toBe(pay);
  });
});
