// The hand-rolled floor: what any agent loop must do at least, written inline with no framework.
// Per call: look the tool up by name, `JSON.parse` its arguments, validate them with a compiled
// ajv validator, await the tool, append the result to the history. It bounds from below what a
// loop can cost in this process, so tiny's figure is read as a multiple of it.
import { Ajv } from 'ajv';
import { createOwnClock, reportTurn } from './own-clock.mjs';

const ajv = new Ajv();
const validateAdd = ajv.compile({
  type: 'object',
  properties: { a: { type: 'integer' }, b: { type: 'integer' } },
  required: ['a', 'b'],
  additionalProperties: false,
});

/** Builds one run of `turns` turns with `callsPerTurn` calls of `add` each, then a final answer. */
export function createFloorRun(turns, callsPerTurn) {
  const clock = createOwnClock();
  const tools = new Map([
    ['add', { validate: validateAdd, execute: async ({ a, b }) => clock.time(() => String(a + b)) }],
  ]);
  let call = 0;
  const model = async () =>
    clock.time(() => {
      const turn = call++;
      reportTurn(turn);
      if (turn >= turns) return { text: 'done', toolCalls: [] };
      const toolCalls = [];
      for (let k = 0; k < callsPerTurn; k++) {
        toolCalls.push({ id: `t${turn}c${k}`, name: 'add', arguments: `{"a":${turn},"b":${k}}` });
      }
      return { text: '', toolCalls };
    });
  return async () => {
    const history = [{ role: 'user', content: 'add things' }];
    let toolCalls = 0;
    for (;;) {
      const reply = await model(history);
      history.push({ role: 'assistant', content: reply.text, toolCalls: reply.toolCalls });
      if (reply.toolCalls.length === 0) break;
      for (const toolCall of reply.toolCalls) {
        const tool = tools.get(toolCall.name);
        const input = JSON.parse(toolCall.arguments);
        if (!tool.validate(input)) throw new Error('invalid arguments');
        const output = await tool.execute(input);
        history.push({ role: 'tool', toolCallId: toolCall.id, content: output });
        toolCalls += 1;
      }
    }
    return { result: history, toolCalls, ownUs: clock.us };
  };
}
