// LangChain JS 1.x, two ways: `createAgent` (langchain 1.5, the recommended agent) and a plain
// LangGraph `StateGraph` with a `ToolNode` and `toolsCondition` (@langchain/langgraph 1.7). Both
// use the same scripted chat model and a `tool()` with a zod schema.
import { tool } from '@langchain/core/tools';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import { createAgent } from 'langchain';
import { z } from 'zod';
import { createOwnClock } from './own-clock.mjs';
import { ScriptedChatModel } from './scripted-chat-model.mjs';

function createAdd(clock) {
  return tool(async ({ a, b }) => clock.time(() => String(a + b)), {
    name: 'add',
    description: 'Add two integers.',
    schema: z.object({ a: z.number().int(), b: z.number().int() }).strict(),
  });
}

const countToolMessages = (messages) => {
  let count = 0;
  for (const message of messages) if (message.type === 'tool') count++;
  return count;
};

/** `createAgent` run: `turns` turns with `callsPerTurn` calls of `add` each, then a final answer. */
export function createLangChainAgentRun(turns, callsPerTurn) {
  const clock = createOwnClock();
  const model = new ScriptedChatModel({ turns, callsPerTurn, clock });
  const agent = createAgent({ model, tools: [createAdd(clock)] });
  return async () => {
    const result = await agent.invoke(
      { messages: [{ role: 'user', content: 'add things' }] },
      { recursionLimit: turns * 4 + 10 },
    );
    return { result, toolCalls: countToolMessages(result.messages), ownUs: clock.us };
  };
}

/** LangGraph `StateGraph` + `ToolNode` loop with the same script. */
export function createLangGraphRun(turns, callsPerTurn) {
  const clock = createOwnClock();
  const add = createAdd(clock);
  const model = new ScriptedChatModel({ turns, callsPerTurn, clock }).bindTools([add]);
  const graph = new StateGraph(MessagesAnnotation)
    .addNode('agent', async (state) => ({ messages: [await model.invoke(state.messages)] }))
    .addNode('tools', new ToolNode([add]))
    .addEdge(START, 'agent')
    .addConditionalEdges('agent', toolsCondition, ['tools', END])
    .addEdge('tools', 'agent')
    .compile();
  return async () => {
    const result = await graph.invoke(
      { messages: [{ role: 'user', content: 'add things' }] },
      { recursionLimit: turns * 4 + 10 },
    );
    return { result, toolCalls: countToolMessages(result.messages), ownUs: clock.us };
  };
}
