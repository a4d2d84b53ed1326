import { InvalidInputError } from '../errors/invalid-input-error.js';
import { isMarked } from '../errors/tiny-error.js';
import type { JsonValue } from '../validation/json-schema.js';
import { type ImageData, isToolContent, renderToolContent, type ToolContent } from './tool-content.js';
import type { ToolControl } from './tool-control.js';

const marker = Symbol.for('tiny.ToolResult');

/** Why an error result is an error: `retry` (the model may fix it) or `failed` (it will not help to retry). */
export type ToolErrorKind = 'retry' | 'failed';

/** The plain-JSON shape of a {@link ToolResult}; `followUp` is omitted when empty. */
export interface ToolResultJson {
  content: ToolContent[];
  isError: boolean;
  markdownFormatted?: string;
  followUp?: ToolContent[];
  metadata?: JsonValue;
  control?: ToolControl;
  errorKind?: ToolErrorKind;
}

interface ToolResultFields {
  readonly content: readonly ToolContent[];
  readonly isError: boolean;
  readonly markdownFormatted?: string | undefined;
  readonly followUp: readonly ToolContent[];
  readonly metadata?: JsonValue | undefined;
  readonly control?: ToolControl | undefined;
  readonly errorKind?: ToolErrorKind | undefined;
}

const NO_BLOCKS: readonly ToolContent[] = Object.freeze([]);

/** A frozen copy of `blocks`; a list that is frozen already cannot change, so it is kept as is. */
function frozenBlocks(blocks: readonly ToolContent[]): readonly ToolContent[] {
  if (Object.isFrozen(blocks)) return blocks;
  return blocks.length === 0 ? NO_BLOCKS : Object.freeze([...blocks]);
}

/**
 * What a tool returns: content blocks for the model, optional follow-up content (sent as a user
 * message after the batch), host-only `metadata` (never shown to the model) and loop `control`.
 * Immutable: every `with*` builder returns a new result.
 *
 * Returning `ToolResult.error(...)` means "the tool ran and refused" (the model should adapt);
 * throwing from `execute` means "the tool could not run" (the harness's error policy decides).
 */
export class ToolResult implements ToolResultFields {
  readonly [marker] = true;
  readonly content: readonly ToolContent[];
  readonly isError: boolean;
  readonly markdownFormatted: string | undefined;
  readonly followUp: readonly ToolContent[];
  readonly metadata: JsonValue | undefined;
  readonly control: ToolControl | undefined;
  readonly errorKind: ToolErrorKind | undefined;

  /**
   * One result alive as long as the class. V8 frees the hidden class of an object (and of its frozen
   * content) once a full collection finds no object of it alive, and deoptimises the code compiled
   * against it: where every result dies between requests (a handler that drops its run, a `gc()`
   * before each), the per-call path was recompiled after each full collection.
   */
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: held, never read: it keeps the instances' hidden class alive
  static readonly #keptAlive: ToolResult = ToolResult.success('');

  private constructor(fields: ToolResultFields) {
    this.content = frozenBlocks(fields.content);
    this.isError = fields.isError;
    this.markdownFormatted = fields.markdownFormatted;
    this.followUp = frozenBlocks(fields.followUp);
    this.metadata = fields.metadata;
    this.control = fields.control;
    this.errorKind = fields.errorKind;
  }

  /** True for a `ToolResult` from any copy of this package. */
  static isInstance(value: unknown): value is ToolResult {
    return isMarked(value, marker);
  }

  /** A successful result with one text block. */
  static success(text: string): ToolResult {
    return new ToolResult({ content: Object.freeze([{ type: 'text', text }]), isError: false, followUp: NO_BLOCKS });
  }

  /** A successful result with one JSON block (pretty-printed for the model). */
  static json(data: JsonValue): ToolResult {
    return new ToolResult({ content: Object.freeze([{ type: 'json', data }]), isError: false, followUp: NO_BLOCKS });
  }

  /** A successful result from explicit content blocks. */
  static fromContent(content: readonly ToolContent[]): ToolResult {
    return new ToolResult({ content, isError: false, followUp: NO_BLOCKS });
  }

  /** A successful result with a plain-text body and a markdown rendering used when markdown is preferred. */
  static successWithMarkdown(text: string, markdown: string): ToolResult {
    return ToolResult.success(text).withMarkdown(markdown);
  }

  /** An error result: the tool ran and refused; the model reads `message`. */
  static error(message: string): ToolResult {
    return new ToolResult({
      content: Object.freeze([{ type: 'text', text: message }]),
      isError: true,
      followUp: NO_BLOCKS,
    });
  }

  /** An error result the model is invited to fix and retry (`errorKind: 'retry'`). */
  static retry(message: string): ToolResult {
    return new ToolResult({ ...ToolResult.error(message), errorKind: 'retry' });
  }

  /** An error result that retrying will not fix (`errorKind: 'failed'`); retry middleware skips it. */
  static failed(message: string): ToolResult {
    return new ToolResult({ ...ToolResult.error(message), errorKind: 'failed' });
  }

  /**
   * Reads a result back from its JSON shape (for example from a stored run).
   * @throws {InvalidInputError} naming the first malformed field.
   */
  static fromJSON(json: unknown): ToolResult {
    if (typeof json !== 'object' || json === null)
      throw new InvalidInputError({ entryPoint: 'ToolResult.fromJSON', reason: 'tool result must be an object' });
    const value = json as Record<string, unknown>;
    const blocks = (field: string, required: boolean): ToolContent[] => {
      const list = value[field];
      if (list === undefined && !required) return [];
      if (!Array.isArray(list) || !list.every(isToolContent)) {
        throw new InvalidInputError({
          entryPoint: 'ToolResult.fromJSON',
          reason: `tool result \`${field}\` must be an array of content blocks`,
        });
      }
      return list;
    };
    if (value.isError !== undefined && typeof value.isError !== 'boolean') {
      throw new InvalidInputError({
        entryPoint: 'ToolResult.fromJSON',
        reason: 'tool result `isError` must be a boolean',
      });
    }
    if (value.errorKind !== undefined && value.errorKind !== 'retry' && value.errorKind !== 'failed') {
      throw new InvalidInputError({
        entryPoint: 'ToolResult.fromJSON',
        reason: 'tool result `errorKind` must be "retry" or "failed"',
      });
    }
    if (value.markdownFormatted !== undefined && typeof value.markdownFormatted !== 'string') {
      throw new InvalidInputError({
        entryPoint: 'ToolResult.fromJSON',
        reason: 'tool result `markdownFormatted` must be a string',
      });
    }
    if (value.control !== undefined && (typeof value.control !== 'object' || value.control === null)) {
      throw new InvalidInputError({
        entryPoint: 'ToolResult.fromJSON',
        reason: 'tool result `control` must be an object',
      });
    }
    return new ToolResult({
      content: blocks('content', true),
      isError: value.isError === true,
      markdownFormatted: value.markdownFormatted as string | undefined,
      followUp: blocks('followUp', false),
      metadata: value.metadata as JsonValue | undefined,
      control: value.control as ToolControl | undefined,
      errorKind: value.errorKind as ToolErrorKind | undefined,
    });
  }

  /** The JSON shape; `followUp` is omitted when empty and unset optional fields are left out. */
  toJSON(): ToolResultJson {
    const json: ToolResultJson = { content: [...this.content], isError: this.isError };
    if (this.markdownFormatted !== undefined) json.markdownFormatted = this.markdownFormatted;
    if (this.followUp.length > 0) json.followUp = [...this.followUp];
    if (this.metadata !== undefined) json.metadata = this.metadata;
    if (this.control !== undefined) json.control = this.control;
    if (this.errorKind !== undefined) json.errorKind = this.errorKind;
    return json;
  }

  /**
   * Every content block joined with `\n`: text verbatim, JSON pretty-printed,
   * images as `[image <mime>]`, files as `[file <name> (<mime>)]`. Follow-up content is never included.
   */
  output(): string {
    const only = this.content.length === 1 ? this.content[0] : undefined;
    if (only !== undefined) return renderToolContent(only);
    return this.content.map(renderToolContent).join('\n');
  }

  /** Like {@link output} but JSON blocks are skipped entirely. */
  text(): string {
    return this.content
      .filter((block) => block.type !== 'json')
      .map(renderToolContent)
      .join('\n');
  }

  /** The markdown rendering when `preferMarkdown` is set and it is non-blank, else {@link output}. */
  outputForLlm(preferMarkdown: boolean): string {
    if (preferMarkdown && this.markdownFormatted !== undefined && this.markdownFormatted.trim() !== '') {
      return this.markdownFormatted;
    }
    return this.output();
  }

  /** Adds a markdown rendering used by {@link outputForLlm} when markdown is preferred. */
  withMarkdown(markdown: string): ToolResult {
    return new ToolResult({ ...this, markdownFormatted: markdown });
  }

  /** Adds follow-up content: sent to the model as a user message after the batch's last tool row. */
  withFollowUp(...blocks: ToolContent[]): ToolResult {
    return new ToolResult({ ...this, followUp: [...this.followUp, ...blocks] });
  }

  /** Adds an image block to the content. */
  withImage(mediaType: string, data: ImageData): ToolResult {
    return new ToolResult({ ...this, content: [...this.content, { type: 'image', mediaType, data }] });
  }

  /** Sets host-only metadata: reaches events and `AgentRun.toolMetadata`, never the model. */
  withMetadata(metadata: JsonValue): ToolResult {
    return new ToolResult({ ...this, metadata });
  }

  /** Makes this output the run's final response (explicit, overriding the tool's default). */
  returnDirect(value = true): ToolResult {
    return this.withControl({ returnDirect: value });
  }

  /** Ends the run after this batch. */
  terminate(): ToolResult {
    return this.withControl({ terminate: true });
  }

  /** Asks the loop to jump to `model`, `tools` or `end` after this batch. */
  withGoto(target: string): ToolResult {
    return this.withControl({ goto: target });
  }

  /** Queues a raw JSON state update for the host. */
  withStateUpdate(update: JsonValue): ToolResult {
    return this.withControl({ stateUpdate: update });
  }

  private withControl(patch: ToolControl): ToolResult {
    return new ToolResult({ ...this, control: { ...this.control, ...patch } });
  }
}
