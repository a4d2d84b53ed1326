import { TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.ChatTemplateError');

/** Which step of reading a chat template failed. */
export type ChatTemplateFailure = 'parse' | 'render' | 'limit';

/**
 * The bound a chat template hit while it was read: `template_size` (the template is longer than
 * `maxTemplateChars`), `time` (rendering the probes took longer than `renderTimeoutMs`), `memory`
 * (the render worker ran out of its heap, or the engine hit a string or array length limit),
 * `stack` (the call stack overflowed, as endless recursion does) or `output` (a probe rendered more
 * than `maxOutputChars`).
 */
export type ChatTemplateLimit = 'template_size' | 'time' | 'memory' | 'stack' | 'output';

/**
 * A chat template cannot be inspected: it does not parse, it throws on every probe conversation
 * (so no server could render a prompt with it either), or it hit a bound while it was read (the
 * template is not trusted to render within bounds, and nothing is decided from it). `message` names
 * the first failure; `probes` lists each probe and what it threw.
 */
export class ChatTemplateError extends TinyError {
  readonly [marker] = true;
  /**
   * `parse`: the template is not valid Jinja for `@huggingface/jinja`; `render`: every probe threw;
   * `limit`: a bound ended the reading (see `limit`).
   */
  readonly failure: ChatTemplateFailure;
  /** The bound that was hit, for failure `limit`; else `undefined`. */
  readonly limit: ChatTemplateLimit | undefined;
  /** Each probe that was tried and the error it raised (the parse error alone for `parse`). */
  readonly probes: readonly { readonly probe: string; readonly error: string }[];

  constructor(options: {
    failure: ChatTemplateFailure;
    limit?: ChatTemplateLimit | undefined;
    probes: readonly { readonly probe: string; readonly error: string }[];
    cause?: unknown;
  }) {
    const first = options.probes[0];
    const detail = first === undefined ? 'no probe ran' : `${first.probe}: ${first.error}`;
    const what =
      options.failure === 'parse'
        ? 'chat template does not parse'
        : options.failure === 'limit'
          ? `chat template exceeds its ${options.limit ?? 'resource'} bound`
          : `chat template throws on every probe (${options.probes.length})`;
    super('ChatTemplateError', `${what}: ${detail}`, options);
    this.failure = options.failure;
    this.limit = options.failure === 'limit' ? options.limit : undefined;
    this.probes = options.probes;
  }

  static override isInstance(value: unknown): value is ChatTemplateError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
