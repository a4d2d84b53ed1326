import { describe, expect, it } from 'vitest';
import { humanizeToolName } from './humanize-tool-name.js';

describe('humanizeToolName', () => {
  it.each([
    ['mcp_read_file', 'Read File'],
    ['composio_github_create_issue', 'Github Create Issue'],
    ['send-email', 'Send Email'],
    ['search', 'Search'],
    ['list_pull-requests', 'List Pull Requests'],
    ['read__file', 'Read File'],
    ['_leading_and_trailing_', 'Leading And Trailing'],
  ])('humanizes %s as %s', (name, expected) => {
    expect(humanizeToolName(name)).toBe(expected);
  });

  it('keeps the case of letters after the first, so acronyms survive', () => {
    expect(humanizeToolName('get_URL')).toBe('Get URL');
    expect(humanizeToolName('readFile')).toBe('ReadFile');
  });

  it('strips only one prefix, and only at the start', () => {
    expect(humanizeToolName('mcp_composio_x')).toBe('Composio X');
    expect(humanizeToolName('my_mcp_tool')).toBe('My Mcp Tool');
  });

  it('does not strip prefixes in other cases', () => {
    expect(humanizeToolName('MCP_read')).toBe('MCP Read');
  });

  it('falls back to the input when nothing is left', () => {
    expect(humanizeToolName('mcp_')).toBe('mcp_');
    expect(humanizeToolName('composio_')).toBe('composio_');
    expect(humanizeToolName('__--')).toBe('__--');
    expect(humanizeToolName('')).toBe('');
  });

  it('upper-cases a whole code point and leaves non-letters alone', () => {
    expect(humanizeToolName('éclair_42')).toBe('Éclair 42');
    expect(humanizeToolName('😀_face')).toBe('😀 Face');
  });
});
