import type { Message } from '@tiny/llm';
import { isMarked, TinyError } from '@tiny/tools';
import type { LimitKind } from '../events/agent-event.js';

const marker = Symbol.for('tiny.error.LimitExceededError');

/**
 * A run budget ran out: model calls, tool calls or wall-clock time. `messages` is the transcript
 * up to that point, so nothing is lost.
 */
export class LimitExceededError extends TinyError {
  readonly [marker] = true;
  readonly limitKind: LimitKind;
  readonly limit: number;
  readonly messages: readonly Message[];

  constructor(options: { limitKind: LimitKind; limit: number; messages: readonly Message[]; cause?: unknown }) {
    const what = {
      model_calls: 'model calls',
      tool_calls: 'tool calls',
      wall_clock: 'milliseconds of wall-clock time',
      tool_depth: 'levels of nested tool calls',
    };
    super('LimitExceededError', `run limit reached: ${options.limit} ${what[options.limitKind]}`, options);
    this.limitKind = options.limitKind;
    this.limit = options.limit;
    // A frozen copy: whoever catches the error cannot edit the run's history through it.
    this.messages = Object.freeze([...options.messages]);
  }

  static override isInstance(value: unknown): value is LimitExceededError {
    return isMarked(value, marker);
  }
}
