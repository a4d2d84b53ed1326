import type { ToolChoice } from '@tiny/llm';
import { isMarked, TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.ToolChoiceUnavailableError');

/**
 * A forced tool choice cannot be honoured this turn, so the run stops before the model is called:
 * a named tool that is not among the tools offered this turn (misspelled or in another case, not
 * registered, or withheld by `filterTools`, a `beforeModel` patch or contextual tool selection), or
 * `required` with no tool offered at all. `offeredTools` names what was offered; `turn` is the turn
 * that was about to be asked.
 */
export class ToolChoiceUnavailableError extends TinyError {
  readonly [marker] = true;
  readonly toolChoice: ToolChoice;
  readonly offeredTools: readonly string[];
  readonly turn: number;

  constructor(options: { toolChoice: ToolChoice; offeredTools: readonly string[]; turn: number }) {
    const { toolChoice, offeredTools, turn } = options;
    const offered =
      offeredTools.length === 0 ? 'no tools are offered' : `the offered tools are ${offeredTools.join(', ')}`;
    const asked =
      toolChoice.type === 'tool' ? `a call to \`${toolChoice.toolName}\`, which is not offered` : 'a tool call';
    super('ToolChoiceUnavailableError', `the forced tool choice asks for ${asked} on turn ${turn}, and ${offered}`);
    this.toolChoice = toolChoice;
    this.offeredTools = [...offeredTools];
    this.turn = turn;
  }

  static override isInstance(value: unknown): value is ToolChoiceUnavailableError {
    return isMarked(value, marker);
  }
}
