import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveToolName, resolveToolNameDetailed, trimToolNameJunk } from './resolve-tool-name.js';

const known = ['terminal', 'read_file', 'write_file', 'todo', 'search_web'];

describe('trimToolNameJunk', () => {
  it('cuts at the first junk character', () => {
    expect(trimToolNameJunk('terminal" parameter="command" string="true')).toBe('terminal');
    expect(trimToolNameJunk('terminal"')).toBe('terminal');
    expect(trimToolNameJunk('read_file(')).toBe('read_file');
    expect(trimToolNameJunk('lookup:0')).toBe('lookup');
    expect(trimToolNameJunk('get_weather>')).toBe('get_weather');
    expect(trimToolNameJunk('x={"a":1}')).toBe('x');
    expect(trimToolNameJunk('search[0|q]')).toBe('search');
    expect(trimToolNameJunk('search\n{"q":1}')).toBe('search');
  });

  it('trims whitespace and wrapping quotes, keeps inner spaces', () => {
    expect(trimToolNameJunk('  "read_file"  ')).toBe('read_file');
    expect(trimToolNameJunk("'todo'")).toBe('todo');
    expect(trimToolNameJunk('Read File')).toBe('Read File');
  });

  it('returns the trimmed input when nothing would be left', () => {
    expect(trimToolNameJunk(' <tool> ')).toBe('<tool>');
    expect(trimToolNameJunk('')).toBe('');
  });
});

describe('resolveToolNameDetailed', () => {
  it('keeps exact names', () => {
    expect(resolveToolNameDetailed('read_file', known)).toEqual({ name: 'read_file', status: 'exact' });
  });

  it('trims junk', () => {
    expect(resolveToolNameDetailed('terminal" parameter="command"', known)).toEqual({
      name: 'terminal',
      status: 'repaired',
    });
    expect(resolveToolName('read_file(', known)).toBe('read_file');
  });

  it('drops namespace prefixes', () => {
    expect(resolveToolName('functions.read_file', known)).toBe('read_file');
    expect(resolveToolName('functions/read_file', known)).toBe('read_file');
    expect(resolveToolName('tools/read_file', known)).toBe('read_file');
    expect(resolveToolName('tools.todo', known)).toBe('todo');
    expect(resolveToolName('tool.terminal', known)).toBe('terminal');
    expect(resolveToolName('functions.lookup:0', ['lookup'])).toBe('lookup');
  });

  it('matches normalized case and separators', () => {
    expect(resolveToolName('Read File', known)).toBe('read_file');
    expect(resolveToolName('read-file', known)).toBe('read_file');
    expect(resolveToolName('ReadFile', known)).toBe('read_file');
    expect(resolveToolName('READ_FILE', known)).toBe('read_file');
    expect(resolveToolName('read.file', known)).toBe('read_file');
    expect(resolveToolName('search_web', ['SearchWeb'])).toBe('SearchWeb');
  });

  it('strips class suffixes up to twice', () => {
    expect(resolveToolName('TodoTool_tool', known)).toBe('todo');
    expect(resolveToolName('terminal_tool', known)).toBe('terminal');
    expect(resolveToolName('ReadFileTool', known)).toBe('read_file');
    expect(resolveToolName('read-file-tool', known)).toBe('read_file');
    expect(resolveToolNameDetailed('todo_tool_tool_tool', known).status).toBe('unknown');
  });

  it('repairs a unique typo within the edit budget', () => {
    expect(resolveToolName('raed_file', known)).toBe('read_file');
    expect(resolveToolName('serach_web', known)).toBe('search_web');
    expect(resolveToolName('termnal', known)).toBe('terminal');
  });

  it('does not repair short names, distant names or ties', () => {
    expect(resolveToolNameDetailed('tod', known)).toEqual({ name: 'tod', status: 'unknown' });
    expect(resolveToolNameDetailed('tmrnal', known).status).toBe('unknown');
    expect(resolveToolNameDetailed('xead_file', ['read_file', 'bead_file'])).toEqual({
      name: 'xead_file',
      status: 'unknown',
    });
    expect(resolveToolNameDetailed('launch_missiles', known)).toEqual({ name: 'launch_missiles', status: 'unknown' });
  });

  it('treats a normalized collision between offered tools as ambiguous', () => {
    expect(resolveToolNameDetailed('Read File', ['read_file', 'read-file']).status).toBe('unknown');
    expect(resolveToolNameDetailed('ToDoTool', ['to_do', 'ToDo']).status).toBe('unknown');
    expect(resolveToolNameDetailed('read-file', ['read_file', 'read-file']).status).toBe('exact');
  });

  it('only trims junk when no tools are known', () => {
    expect(resolveToolNameDetailed('terminal" parameter', [])).toEqual({ name: 'terminal', status: 'unknown' });
    expect(resolveToolNameDetailed('Read File', [])).toEqual({ name: 'Read File', status: 'unknown' });
  });

  it('returns unresolved names junk-trimmed, never a new name', () => {
    expect(resolveToolName('functions.nope(', known)).toBe('functions.nope');
    fc.assert(
      fc.property(fc.string(), fc.array(fc.string(), { maxLength: 5 }), (raw, names) => {
        const result = resolveToolNameDetailed(raw, names);
        if (result.status === 'unknown') expect(result.name).toBe(trimToolNameJunk(raw));
        else expect(names).toContain(result.name);
      }),
      { numRuns: 2000 },
    );
  });

  it('handles a megabyte-long name in linear time', () => {
    const huge = `read_file${'x'.repeat(1_000_000)}`;
    expect(resolveToolNameDetailed(huge, known).status).toBe('unknown');
    expect(resolveToolNameDetailed('A'.repeat(1_000_000), known).status).toBe('unknown');
  });
});
