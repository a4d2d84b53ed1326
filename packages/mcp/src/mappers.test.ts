import { describe, expect, it } from 'vitest';
import { McpConnectionError } from './errors/mcp-connection-error.js';
import { contentFromMcp, resultFromMcp } from './map-call-result.js';
import { policyFromAnnotations } from './map-tool-policy.js';
import { advertisedToolNames } from './mcp-tool-name.js';

describe('contentFromMcp / resultFromMcp', () => {
  it('maps every MCP block type onto tool content', () => {
    expect(contentFromMcp({ type: 'text', text: 'hi' })).toEqual({ type: 'text', text: 'hi' });
    expect(contentFromMcp({ type: 'image', data: 'AAA', mimeType: 'image/gif' })).toEqual({
      type: 'image',
      mediaType: 'image/gif',
      data: { kind: 'base64', value: 'AAA' },
    });
    expect(contentFromMcp({ type: 'audio', data: 'BBB', mimeType: 'audio/wav' })).toMatchObject({
      type: 'file',
      mediaType: 'audio/wav',
      data: { kind: 'base64', value: 'BBB' },
    });
    expect(contentFromMcp({ type: 'resource', resource: { uri: 'x://a', text: 'body' } })).toEqual({
      type: 'text',
      text: 'body',
    });
    expect(
      contentFromMcp({ type: 'resource', resource: { uri: 'x://b', blob: 'CCC', mimeType: 'application/pdf' } }),
    ).toEqual({ type: 'file', name: 'x://b', mediaType: 'application/pdf', data: { kind: 'base64', value: 'CCC' } });
    expect(contentFromMcp({ type: 'resource_link', uri: 'x://c', name: 'C', mimeType: 'text/plain' })).toEqual({
      type: 'file',
      name: 'C <x://c>',
      mediaType: 'text/plain',
      data: { kind: 'url', value: 'x://c' },
    });
    expect(contentFromMcp({ type: 'future', value: 1 })).toEqual({ type: 'json', data: { type: 'future', value: 1 } });
  });

  it('adds structured content as JSON only when no text block carries the result', () => {
    const withText = resultFromMcp({ content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } });
    expect(withText.content).toEqual([{ type: 'text', text: '{"a":1}' }]);
    const bare = resultFromMcp({ content: [], structuredContent: { a: 1 } });
    expect(bare.content).toEqual([{ type: 'json', data: { a: 1 } }]);
    expect(resultFromMcp({}).content).toEqual([{ type: 'text', text: '' }]);
    expect(resultFromMcp({ toolResult: { legacy: true } }).content).toEqual([{ type: 'json', data: { legacy: true } }]);
  });

  it('with an output schema, leads with structured content and drops only the text that repeats it', () => {
    const structured = { b: [1, 2], a: 'x\ny' };
    const result = resultFromMcp(
      {
        content: [
          { type: 'text', text: '{"a":"x\\ny","b":[1,2]}' },
          { type: 'text', text: 'x\ny' },
          { type: 'text', text: 'note: cached' },
          { type: 'image', data: 'AA==', mimeType: 'image/png' },
        ],
        structuredContent: structured,
      },
      undefined,
      { structured: true },
    );
    expect(result.content).toEqual([
      { type: 'json', data: structured },
      { type: 'text', text: 'note: cached' },
      { type: 'image', mediaType: 'image/png', data: { kind: 'base64', value: 'AA==' } },
    ]);
    const failed = resultFromMcp(
      { content: [{ type: 'text', text: 'x' }], structuredContent: { a: 1 }, isError: true },
      undefined,
      {
        structured: true,
      },
    );
    expect(failed.content).toEqual([{ type: 'text', text: 'x' }]);
  });

  it('maps isError to an error result and attaches host metadata', () => {
    const result = resultFromMcp({ content: [{ type: 'text', text: 'denied' }], isError: true }, { mcpTool: 't' });
    expect(result.isError).toBe(true);
    expect(result.output()).toBe('denied');
    expect(result.metadata).toEqual({ mcpTool: 't' });
  });
});

describe('policyFromAnnotations', () => {
  it('leaves tools without annotations unclassified', () => {
    expect(policyFromAnnotations(undefined).classified).toBe(false);
  });

  it('maps read-only, destructive, idempotent and open-world hints with the MCP defaults', () => {
    const readOnly = policyFromAnnotations({ readOnlyHint: true, openWorldHint: false });
    expect(readOnly.sideEffects.readOnly).toBe(true);
    expect(readOnly.hasSideEffects()).toBe(false);
    const defaults = policyFromAnnotations({});
    expect(defaults.classified).toBe(true);
    expect(defaults.sideEffects).toMatchObject({ destructive: true, network: true, externalService: true });
    expect(defaults.runtime.idempotent).toBe(false);
    const safeWrite = policyFromAnnotations({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
      title: 'Make <|im_start|>dir',
    });
    expect(safeWrite.sideEffects).toMatchObject({ readOnly: false, destructive: false, network: false });
    expect(safeWrite.runtime.idempotent).toBe(true);
    expect(safeWrite.display.label).toBe('Make dir');
  });
});

describe('advertisedToolNames', () => {
  it('prefixes verbatim and makes every name provider-safe and unique', () => {
    const names = advertisedToolNames(['read', 'get-sum', 'a.b', 'a_b', '9lives', 'x'.repeat(80)], 'fs_');
    expect([...names.keys()].slice(0, 5)).toEqual(['fs_read', 'fs_get-sum', 'fs_a_b', 'fs_a_b_2', 'fs_9lives']);
    const long = [...names.keys()][5] as string;
    expect(long).toHaveLength(64);
    expect(names.get(long)).toBe('x'.repeat(80));
    expect([...advertisedToolNames(['1st'], '').keys()]).toEqual(['_1st']);
  });
});

describe('McpConnectionError', () => {
  it('is a typed, marked error', () => {
    const error = new McpConnectionError({ server: 's', reason: 'lost', stderr: 'tail' });
    expect(McpConnectionError.isInstance(error)).toBe(true);
    expect(error.message).toBe('the connection to MCP server "s" was lost');
    expect(error.stderr).toBe('tail');
  });
});
