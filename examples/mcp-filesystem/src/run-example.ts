import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentHarness, type AgentRun } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { createMcpToolSet } from '@tiny/mcp';
import { completeTool } from '@tiny/tools';

/** The filesystem server's entry point, from its npm package (no download at run time). */
const serverPath = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/dist/index.js');

/**
 * Starts the MCP filesystem server on a fresh temp directory, offers its read-only tools to an
 * agent, and lets a scripted model list the directory and read a file. Returns the run.
 */
export async function runMcpFilesystemExample(log: (line: string) => void = console.log): Promise<AgentRun> {
  const dir = mkdtempSync(join(tmpdir(), 'tiny-mcp-example-'));
  writeFileSync(join(dir, 'todo.md'), '# Todo\n- water the plants\n- ship the MCP toolset\n');
  writeFileSync(join(dir, 'notes.txt'), 'The meeting moved to Thursday.\n');
  const toolSet = await createMcpToolSet({ command: process.execPath, args: [serverPath, dir], prefix: 'fs_' });
  try {
    const all = await toolSet.tools({ runId: 'example', turn: 0 });
    // The server's hints map onto policies: offer only the read-only tools to this agent.
    const readOnly = all.filter((tool) => completeTool(tool).policy.sideEffects.readOnly);
    log(`${toolSet.label}: ${all.length} tools, ${readOnly.length} read-only offered`);

    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('fs_list_directory', { path: dir })] },
        { toolCalls: [scriptedToolCall('fs_read_text_file', { path: join(dir, 'todo.md') })] },
        { content: 'Two things on your list: water the plants, and ship the MCP toolset.' },
      ],
    });
    const harness = new AgentHarness({ model, tools: readOnly });
    const run = await harness.invoke({}, [{ role: 'user', content: 'What is on my todo list?' }], {
      onEvent: (event) => {
        if (event.type === 'tool_started') log(`→ ${event.toolName}`);
        if (event.type === 'tool_completed') log(`← ${event.toolName} (${event.outputBytes} bytes)`);
      },
    });
    for (const message of run.messages) {
      if (message.role === 'tool') log(`  ${String(message.content).trim().replace(/\n/g, '\n  ')}`);
    }
    log(`final: ${run.text}`);
    return run;
  } finally {
    await toolSet.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
