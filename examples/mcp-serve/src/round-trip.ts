import { fileURLToPath } from 'node:url';
import { AgentHarness, type AgentRun } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { createMcpToolSet } from '@tiny/mcp';
import { completeTool } from '@tiny/tools';

/** The built server (`pnpm build` writes it next to this module's build). */
export const serverPath = fileURLToPath(new URL('../dist/server.js', import.meta.url));

/**
 * Starts the served quickstart tools as an MCP server over stdio and calls them back from a tiny
 * agent through `@tiny/mcp`: the forecast, a note, and an SMS that needs approval. `@tiny/mcp`'s
 * client answers no elicitation, so the server refuses the SMS instead of running it.
 */
export async function runRoundTrip(log: (line: string) => void = console.log): Promise<AgentRun> {
  const toolSet = await createMcpToolSet({ command: process.execPath, args: [serverPath] });
  try {
    const tools = await toolSet.tools({ runId: 'round-trip', turn: 0 });
    for (const tool of tools) {
      const { policy } = completeTool(tool);
      log(`${tool.name}: readOnly=${policy.sideEffects.readOnly} destructive=${policy.sideEffects.destructive}`);
    }
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('weather', { city: 'Oslo' })] },
        { toolCalls: [scriptedToolCall('save_note', { text: 'Pack boots for Oslo' })] },
        { toolCalls: [scriptedToolCall('send_sms', { to: '+4712345678', text: 'Snow in Oslo' })] },
        { content: 'Forecast checked and a note saved; the SMS was not approved.' },
      ],
    });
    const harness = new AgentHarness({ model, tools, policy: { toolErrors: { kind: 'return_error' } } });
    const run = await harness.invoke({}, [{ role: 'user', content: 'Plan my Oslo trip.' }]);
    for (const message of run.messages) {
      if (message.role === 'tool') log(`${message.toolName}: ${String(message.content).trim()}`);
    }
    log(`final: ${run.text}`);
    return run;
  } finally {
    await toolSet.close();
  }
}
