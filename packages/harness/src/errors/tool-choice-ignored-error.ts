import type { Message, ToolChoice } from '@tiny/llm';
import { isMarked, TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.ToolChoiceIgnoredError');

/**
 * The model did not honour the run's forced tool choice (`required` or a named tool answered
 * without that call, or `none` answered with calls), and `policy.toolChoiceIgnored` said not to
 * accept it (after its one retry, for `retry_then_error`). Calls made under `none` never ran.
 * `calledTools` names what the last response called (empty for a prose answer); `messages` is the
 * transcript up to that point.
 */
export class ToolChoiceIgnoredError extends TinyError {
  readonly [marker] = true;
  readonly toolChoice: ToolChoice;
  readonly calledTools: readonly string[];
  readonly attempts: number;
  readonly messages: readonly Message[];

  constructor(options: {
    toolChoice: ToolChoice;
    calledTools: readonly string[];
    attempts: number;
    messages: readonly Message[];
  }) {
    const { toolChoice, calledTools, attempts } = options;
    const asked =
      toolChoice.type === 'tool'
        ? `a call to \`${toolChoice.toolName}\``
        : toolChoice.type === 'required'
          ? 'a tool call'
          : 'no tool calls';
    const got = calledTools.length === 0 ? 'an answer without calls' : `calls to ${calledTools.join(', ')}`;
    super(
      'ToolChoiceIgnoredError',
      `the model ignored the forced tool choice: asked for ${asked}, got ${got} (${attempts} attempt${attempts === 1 ? '' : 's'})`,
    );
    this.toolChoice = toolChoice;
    this.calledTools = [...calledTools];
    this.attempts = attempts;
    // A frozen copy: whoever catches the error cannot edit the run's history through it.
    this.messages = Object.freeze([...options.messages]);
  }

  static override isInstance(value: unknown): value is ToolChoiceIgnoredError {
    return isMarked(value, marker);
  }
}
