import { describe, expect, it } from 'vitest';
import { normalizeToolName } from './normalize-tool-name.js';

describe('normalizeToolName', () => {
  it('splits camel humps and unifies separators', () => {
    expect(normalizeToolName('ReadFile')).toBe('read_file');
    expect(normalizeToolName('HTTPRequest')).toBe('http_request');
    expect(normalizeToolName('getURL')).toBe('get_url');
    expect(normalizeToolName('read2File')).toBe('read2_file');
    expect(normalizeToolName('Read File')).toBe('read_file');
    expect(normalizeToolName('read-file.v2/x')).toBe('read_file_v2_x');
    expect(normalizeToolName('__Read__File__')).toBe('read_file');
    expect(normalizeToolName('ToDo')).toBe('to_do');
    expect(normalizeToolName('')).toBe('');
  });
});
