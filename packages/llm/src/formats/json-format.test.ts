import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { identifier, schemaAndValue } from '../schema/schema-arbitrary.test-support.js';
import type { ToolSchema } from '../spec/tool-schema.js';
import { parseJsonCall, renderJsonCall, renderJsonDeclaration } from './json-format.js';

const weather: ToolSchema = {
  name: 'weather',
  description: 'Look up weather for a city.',
  parameters: { type: 'object', required: ['city'], properties: { city: { type: 'string' } } },
};

describe('json format', () => {
  it('renders and reads {"name", "arguments"}', () => {
    const text = renderJsonCall({ name: 'weather', arguments: { city: 'Oslo' } }, weather);
    expect(text).toBe('{"name":"weather","arguments":{"city":"Oslo"}}');
    expect(parseJsonCall(` ${text}\n`, weather)).toEqual({
      ok: true,
      call: { name: 'weather', arguments: { city: 'Oslo' } },
    });
  });

  it('accepts stringified, blank, null or missing arguments', () => {
    const read = (text: string) => parseJsonCall(text, weather);
    expect(read('{"name":"weather","arguments":"{\\"city\\":\\"Oslo\\"}"}')).toMatchObject({
      ok: true,
      call: { arguments: { city: 'Oslo' } },
    });
    expect(read('{"name":"weather","arguments":"  "}')).toMatchObject({ ok: true, call: { arguments: {} } });
    expect(read('{"name":"weather","arguments":null}')).toMatchObject({ ok: true, call: { arguments: {} } });
    expect(read('{"name":"weather"}')).toMatchObject({ ok: true, call: { arguments: {} } });
  });

  it.each([
    ['{"name":"weather","arguments":{}', 'syntax'],
    ['{"name":"weather","arguments":{}} trailing', 'syntax'],
    ['[{"name":"weather"}]', 'syntax'],
    ['{"arguments":{}}', 'syntax'],
    ['{"name":"forecast","arguments":{}}', 'unknown_tool'],
    ['{"name":"weather","arguments":{},"id":"1"}', 'unknown_field'],
    ['{"name":"weather","arguments":[1]}', 'type_mismatch'],
    ['{"name":"weather","arguments":"[1]"}', 'type_mismatch'],
    ['{"name":"weather","arguments":"{oops"}', 'syntax'],
  ])('reports %j as %s', (text, kind) => {
    const result = parseJsonCall(text, weather);
    expect(result.ok).toBe(false);
    if (!result.ok) expect([result.error.format, result.error.kind]).toEqual(['json', kind]);
  });

  it('declares name, description, compact schema and the call shape', () => {
    expect(renderJsonDeclaration(weather)).toBe(
      [
        'weather: Look up weather for a city.',
        'Parameters (JSON Schema): {"type":"object","required":["city"],"properties":{"city":{"type":"string"}}}',
        'Call: {"name": "weather", "arguments": {...}}',
      ].join('\n'),
    );
  });

  it('round-trips random valid arguments for random schemas', () => {
    fc.assert(
      fc.property(schemaAndValue, identifier, ({ schema, value }, name) => {
        const tool: ToolSchema = { name, description: '', parameters: schema };
        expect(parseJsonCall(renderJsonCall({ name, arguments: value }, tool), tool)).toEqual({
          ok: true,
          call: { name, arguments: value },
        });
      }),
      { numRuns: 300 },
    );
  });
});
