import { describe, expect, it } from 'vitest';
import { buildCurlCommand, glmToolAlias, parseGlmLines, stripGlmLines } from './glm-lines.js';

describe('GLM lines', () => {
  it('maps GLM tool names onto the host tools', () => {
    expect(['browser_open', 'browser', 'web_search', 'shell', 'bash'].map(glmToolAlias)).toEqual(
      Array(5).fill('shell'),
    );
    expect(glmToolAlias('http')).toBe('http_request');
    expect(glmToolAlias('custom_tool')).toBe('custom_tool');
  });

  it('builds curl commands for plain http(s) URLs only, escaping single quotes', () => {
    expect(buildCurlCommand('https://example.com?q=1')).toBe("curl -s 'https://example.com?q=1'");
    expect(buildCurlCommand("https://exa'mple.com")).toBe("curl -s 'https://exa'\\''mple.com'");
    expect(buildCurlCommand('ftp://example.com')).toBeUndefined();
    expect(buildCurlCommand('https://example.com/has space')).toBeUndefined();
  });

  it('reads JSON payloads, skips invalid URLs, keeps commands', () => {
    const calls = parseGlmLines(
      '\ncustom/{"answer":42}\nshell/url>not-a-url\nshell/command>https://example.com/has space\nshell/command>echo hi\nnot a call',
    );
    expect(calls.map((call) => [call.name, call.arguments])).toEqual([
      ['custom', { answer: 42 }],
      ['shell', { command: 'https://example.com/has space' }],
      ['shell', { command: 'echo hi' }],
    ]);
    expect(parseGlmLines('https://rust-lang.org')).toEqual([]);
    expect(parseGlmLines('lookup/{"a":"x>y"}')[0]?.arguments).toEqual({ a: 'x>y' });
  });

  it('removes only the accepted lines from the narrative', () => {
    const stripped = stripGlmLines('Looking.\nshell/command>ls\nother/x>y\nDone.', (call) => call.name === 'shell');
    expect(stripped.text).toBe('Looking.\nother/x>y\nDone.');
    expect(stripped.calls).toHaveLength(1);
  });
});
