// A LangChain chat model scripted to answer with tool calls: a small `BaseChatModel` subclass
// (the documented way to write a custom chat model). @langchain/core's own `fakeModel()` copies
// and keeps every call's message list and joins all message texts on each call, which would
// charge the model's bookkeeping to the framework; this one does no work beyond its answer.
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage } from '@langchain/core/messages';
import { reportTurn } from './own-clock.mjs';

/** Answers `turns` times with `callsPerTurn` calls of `add`, then with the text `done`. */
export class ScriptedChatModel extends BaseChatModel {
  constructor({ turns, callsPerTurn, clock }) {
    super({});
    this.turns = turns;
    this.callsPerTurn = callsPerTurn;
    this.clock = clock;
    this.state = { call: 0 };
  }

  _llmType() {
    return 'scripted';
  }

  /** Tools are only echoed to a provider; the script already knows what to call. */
  bindTools(_tools) {
    return this.withConfig({});
  }

  async _generate() {
    return this.clock.time(() => {
      const turn = this.state.call++;
      reportTurn(turn);
      if (turn >= this.turns) return { generations: [{ text: 'done', message: new AIMessage('done') }] };
      const toolCalls = [];
      for (let k = 0; k < this.callsPerTurn; k++) {
        toolCalls.push({ id: `t${turn}c${k}`, name: 'add', args: { a: turn, b: k }, type: 'tool_call' });
      }
      return { generations: [{ text: '', message: new AIMessage({ content: '', tool_calls: toolCalls }) }] };
    });
  }
}
