import { defineTool, ToolDefinitionError, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { ToolRegistry } from './tool-registry.js';

const make = (name: string, extra: Record<string, unknown> = {}) =>
  defineTool({
    name,
    description: `${name} tool.`,
    parameters: Type.Object({ q: Type.String() }),
    execute: () => name,
    ...extra,
  });

describe('ToolRegistry', () => {
  it.each([
    ['', /empty/],
    ['read file', /whitespace/],
    ['x'.repeat(65), /longer than 64/],
    ['functions.read', /ASCII letters/],
  ])('refuses the name %j at registration', (name, message) => {
    const tool = { name, description: '', parameters: { type: 'object' }, execute: () => '' };
    expect(() => new ToolRegistry().register(tool)).toThrow(ToolDefinitionError);
    expect(() => new ToolRegistry().register(tool)).toThrow(message);
  });

  it('refuses a duplicate name instead of replacing the first tool', () => {
    const registry = new ToolRegistry().register(make('search'));
    expect(() => registry.register(make('search'))).toThrow(/already registered/);
    expect(() => registry.registerExternal({ name: 'search', description: '', parameters: {} })).toThrow(
      /already registered/,
    );
  });

  it('lists direct schemas sorted by name with injected arguments projected out', () => {
    const secretive = defineTool({
      name: 'alpha',
      description: 'A.',
      parameters: Type.Object({ q: Type.String(), token: Type.String() }),
      injected: [{ name: 'token', source: 'host' }],
      execute: () => '',
    });
    const registry = new ToolRegistry()
      .register(make('zulu'))
      .register(secretive)
      .register(make('mike', { exposure: 'deferred' }))
      .register(make('hotel', { exposure: 'hidden' }));
    expect(registry.schemas().map((schema) => schema.name)).toEqual(['alpha', 'zulu']);
    expect(JSON.stringify(registry.schemas())).not.toContain('token');
    expect(registry.deferredSchemas().map((schema) => schema.name)).toEqual(['mike']);
    expect(registry.names()).toEqual(['alpha', 'hotel', 'mike', 'zulu']);
    expect(JSON.stringify(registry.declaredSpecs().find((spec) => spec.name === 'alpha'))).toContain('token');
  });

  it('keeps the schema array stable until the next registration', () => {
    const registry = new ToolRegistry().register(make('b'));
    const first = registry.schemas();
    expect(registry.schemas()).toBe(first);
    registry.register(make('a'));
    expect(registry.schemas()).not.toBe(first);
    expect(registry.schemas().map((schema) => schema.name)).toEqual(['a', 'b']);
  });

  it('registers schema-only external tools and snapshots policies', () => {
    const registry = new ToolRegistry()
      .register(make('local', { policy: ToolPolicy.readOnly() }))
      .registerExternal({ name: 'remote', description: 'Runs elsewhere.', parameters: { type: 'object' } });
    expect(registry.get('remote')?.external).toBe(true);
    expect(registry.get('local')?.external).toBe(false);
    expect(registry.policies().get('local')?.sideEffects.readOnly).toBe(true);
    expect(registry.policies().get('remote')?.classified).toBe(false);
  });

  it('records a declared format on the model-facing schema', () => {
    const registry = new ToolRegistry().register(make('search'), { format: { type: 'ptype', parameters: ['q'] } });
    expect(registry.schemas()[0]?.format).toEqual({ type: 'ptype', parameters: ['q'] });
  });
});
