import { describe, expect, it } from 'vitest';
import { runMcpFilesystemExample } from './run-example.js';

describe('mcp-filesystem example', () => {
  it('lists and reads files through the filesystem server', async () => {
    const lines: string[] = [];
    const run = await runMcpFilesystemExample((line) => lines.push(line));
    expect(run.executedTools).toEqual(['fs_list_directory', 'fs_read_text_file']);
    expect(lines.join('\n')).toMatch(/\[FILE\] todo\.md/);
    expect(lines.join('\n')).toMatch(/ship the MCP toolset/);
    expect(run.text).toMatch(/water the plants/);
  });
});
