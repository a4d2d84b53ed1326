// The agent shared by the process that crashes and the process that resumes it: one turn calling
// a tool whose replay mode is `never` (a card charge) or `safe` (a cache refresh), then an answer
// quoting the tool result the model received. Imports the built packages by name.
import { AgentHarness } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { SqliteToolEffectLedger } from '@tiny/ledger-sqlite';
import { defineTool, ToolPolicy } from '@tiny/tools';

export const RUN_ID = 'crash-run';
export const CALL_ID = 'c1';

/**
 * `resumed`: the model starts after the tool-call turn, as in a fresh process, and the database must
 * exist (`mode: 'open'`). `hangAtModel`: the resumed model blocks (and tells the parent), to be killed.
 */
export function createScenario({ path, replay, resumed, execute, hangAtModel = false }) {
  const ledger = new SqliteToolEffectLedger({ path, mode: resumed ? 'open' : 'create' });
  const name = replay === 'safe' ? 'refresh_cache' : 'charge_card';
  const tool = defineTool({
    name,
    description: replay === 'safe' ? 'Refresh a cache entry (safe to repeat).' : 'Charge the card (never repeat).',
    parameters: {
      type: 'object',
      required: ['amount'],
      additionalProperties: false,
      properties: { amount: { type: 'integer' } },
    },
    policy: ToolPolicy.classified().withRuntime({ replay }),
    execute,
  });
  const steps = [
    { toolCalls: [scriptedToolCall(name, { amount: 5 }, CALL_ID)] },
    (request) => {
      if (hangAtModel) {
        process.send?.({ type: 'blocked' });
        setInterval(() => {}, 60_000);
        return new Promise(() => {});
      }
      const answer = request.messages.filter((message) => message.role === 'tool').at(-1);
      return { content: `model saw: ${answer?.content}` };
    },
  ];
  const model = new ScriptedModel({ steps: resumed ? steps.slice(1) : steps });
  return {
    harness: new AgentHarness({ model, tools: [tool], ledger }),
    ledger,
    checkpoints: ledger.checkpointStore(),
    model,
    toolName: name,
  };
}
