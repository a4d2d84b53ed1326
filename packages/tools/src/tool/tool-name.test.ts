import { describe, expect, it } from 'vitest';
import { checkToolName, describeToolNameProblem, TOOL_NAME_MAX_LENGTH } from './tool-name.js';

describe('checkToolName', () => {
  it.each(['weather', 'read_file', 'mcp-github_search', '_private', 'getURL2', 'a'.repeat(TOOL_NAME_MAX_LENGTH)])(
    'accepts %s',
    (name) => expect(checkToolName(name)).toBeUndefined(),
  );

  it.each([
    ['', 'empty'],
    ['a'.repeat(TOOL_NAME_MAX_LENGTH + 1), 'too_long'],
    ['read file', 'contains_whitespace'],
    ['tab\tname', 'contains_whitespace'],
    ['functions.read', 'invalid_character'],
    ['ns/tool', 'invalid_character'],
    ['café', 'invalid_character'],
    ['quote"d', 'invalid_character'],
    ['9lives', 'invalid_start'],
    ['-dash', 'invalid_start'],
  ])('refuses %j as %s', (name, problem) => {
    expect(checkToolName(name)).toBe(problem);
    expect(describeToolNameProblem(problem as never)).toMatch(/name/);
  });
});
