import { describe, expect, it } from 'vitest';
import { ToolPolicy } from '../policy/tool-policy.js';
import { completeTool } from './complete-tool.js';
import type { Tool } from './tool.js';

const bare: Tool = {
  name: 'read_file',
  description: 'Read a file.',
  parameters: { type: 'object', properties: { path: { type: 'string' } } },
  execute: () => 'x',
};

describe('completeTool', () => {
  it('fills in the documented defaults', () => {
    const tool = completeTool(bare);
    expect(tool.policy.classified).toBe(false);
    expect(tool.exposure).toBe('direct');
    expect(tool.injected).toEqual([]);
    expect(tool.tags).toEqual([]);
    expect(tool.category).toBe('system');
    expect(tool.scope).toBe('all');
    expect(tool.supportsMarkdown).toBe(false);
    expect(tool.returnDirect).toBe(false);
    expect(tool.isConcurrencySafe({})).toBe(false);
    expect(tool.externalEffect({})).toBe(false);
    expect(tool.permissionLevel({})).toBe('read_only');
    expect(tool.indirectTarget({})).toBeUndefined();
    expect(tool.timeoutPolicy({})).toEqual({ kind: 'inherit' });
    expect(tool.displayLabel({})).toBe('Read File');
    expect(tool.displayDetail({ path: '/etc/hosts' })).toBe('/etc/hosts');
  });

  it('keeps the tool own members, bound to the tool', () => {
    const tool: Tool & { safe: boolean } = {
      ...bare,
      safe: true,
      isConcurrencySafe(this: { safe: boolean }) {
        return this.safe;
      },
      policy: ToolPolicy.readOnly().withRuntime({ timeoutMs: 900 }).withDisplay({ label: 'Reader', detail: 'fixed' }),
    };
    const complete = completeTool(tool);
    expect(complete.isConcurrencySafe({})).toBe(true);
    expect(complete.timeoutPolicy({})).toEqual({ kind: 'explicit', ms: 900 });
    expect(complete.displayLabel({})).toBe('Reader');
    expect(complete.displayDetail({ path: 'a' })).toBe('fixed');
  });

  it('is cached per tool object', () => {
    expect(completeTool(bare)).toBe(completeTool(bare));
  });
});
