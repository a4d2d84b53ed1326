import { TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.ChatTemplateError');

/** Which step of reading a chat template failed. */
export type ChatTemplateFailure = 'parse' | 'render';

/**
 * A chat template cannot be inspected: it does not parse, or it throws on every probe
 * conversation (so no server could render a prompt with it either). `message` names the first
 * failure; `probes` lists each probe and what it threw.
 */
export class ChatTemplateError extends TinyError {
  readonly [marker] = true;
  /** `parse`: the template is not valid Jinja for `@huggingface/jinja`; `render`: every probe threw. */
  readonly failure: ChatTemplateFailure;
  /** Each probe that was tried and the error it raised (the parse error alone for `parse`). */
  readonly probes: readonly { readonly probe: string; readonly error: string }[];

  constructor(options: {
    failure: ChatTemplateFailure;
    probes: readonly { readonly probe: string; readonly error: string }[];
    cause?: unknown;
  }) {
    const first = options.probes[0];
    const detail = first === undefined ? 'no probe ran' : `${first.probe}: ${first.error}`;
    const what =
      options.failure === 'parse'
        ? 'chat template does not parse'
        : `chat template throws on every probe (${options.probes.length})`;
    super('ChatTemplateError', `${what}: ${detail}`, options);
    this.failure = options.failure;
    this.probes = options.probes;
  }

  static override isInstance(value: unknown): value is ChatTemplateError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
