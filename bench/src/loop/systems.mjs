// The agent-loop systems under test, by id. Each `create(turns, callsPerTurn)` builds one run and
// returns an async function that performs it and reports `{ result, toolCalls, ownUs }`.

import { freshSystems } from './fresh-systems.mjs';
import { createAiSdkRun } from './system-ai-sdk.mjs';
import { createFloorRun } from './system-floor.mjs';
import { createLangChainAgentRun, createLangGraphRun } from './system-langchain.mjs';
import { createOpenAiAgentsRun } from './system-openai-agents.mjs';
import { createTinyRun } from './system-tiny.mjs';

/**
 * Ours first; `ours: true` marks the rows ratios are computed for; `floor: true` the hand-rolled
 * floor (not a peer: tiny's figure is also given as a multiple of it).
 */
export const loopSystems = [
  { id: 'tiny', label: 'tiny harness (events recorded, default)', ours: true, create: createTinyRun },
  {
    id: 'tiny-events-off',
    label: 'tiny harness (recordEvents: false)',
    ours: true,
    create: (turns, calls) => createTinyRun(turns, calls, { recordEvents: false }),
  },
  {
    id: 'floor',
    label: 'hand-rolled floor (lookup, JSON.parse, ajv, await, append)',
    floor: true,
    create: createFloorRun,
  },
  { id: 'ai-sdk', label: 'AI SDK 6 generateText, zod tool', create: createAiSdkRun },
  {
    id: 'ai-sdk-json-schema',
    label: 'AI SDK 6 generateText, jsonSchema() tool',
    create: (turns, calls) => createAiSdkRun(turns, calls, { schema: 'json' }),
  },
  { id: 'langchain-agent', label: 'LangChain 1.5 createAgent', create: createLangChainAgentRun },
  { id: 'langgraph-toolnode', label: 'LangGraph 1.7 StateGraph + ToolNode', create: createLangGraphRun },
  { id: 'openai-agents', label: 'OpenAI Agents core 0.14 Runner', create: createOpenAiAgentsRun },
];

/** The system with `id` (issue 35's fresh-harness systems included), or a thrown error naming the known ids. */
export function loopSystem(id) {
  const all = [...loopSystems, ...freshSystems];
  const system = all.find((candidate) => candidate.id === id);
  if (!system) throw new Error(`unknown system ${id}; known: ${all.map((s) => s.id).join(', ')}`);
  return system;
}
