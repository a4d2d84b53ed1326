import { type ToolContent, ToolResult } from '@tiny/tools';
import type { LoopState } from '../agent/loop-state.js';
import type { RegisteredTool } from '../registry/tool-registry.js';
import { isRunStop } from '../run/run-stop.js';
import type { CallOutcome } from './execute-call.js';
import { callRawSecrets } from './redaction.js';
import { scrubValue } from './scrub-value.js';
import { expandSecrets, scrubText } from './secret-variants.js';

const NONE: readonly string[] = Object.freeze([]);

/** Per run: the injected and sensitive argument values of nested calls, by the id of each calling ancestor. */
const nestedValues = new WeakMap<LoopState, Map<string, Set<string>>>();

/** The ids of a nested call's ancestors (`<root>/<n>/<m>` at depth 2: `<root>/<n>`, `<root>`). */
function ancestorsOf(callId: string, depth: number): string[] {
  const out: string[] = [];
  let id = callId;
  for (let level = 0; level < depth; level += 1) {
    const cut = id.lastIndexOf('/');
    if (cut < 0) break;
    id = id.slice(0, cut);
    out.push(id);
  }
  return out;
}

/**
 * What to scrub from one call's output and errors: the values the host injected into it, its
 * sensitive argument values, and those of the nested calls it made (a code-mode program may echo
 * what it passed), each with its encoded forms. Records the call's own values for its ancestors,
 * and forgets what its nested calls left. Empty for most tools (no injected or sensitive argument).
 */
function secretsOf(
  state: LoopState,
  callId: string,
  entry: RegisteredTool,
  args: unknown,
  depth: number,
): readonly string[] {
  const own = callRawSecrets(entry.tool, args);
  let byCall = nestedValues.get(state);
  if (depth > 0 && own !== undefined) {
    if (byCall === undefined) {
      byCall = new Map();
      nestedValues.set(state, byCall);
    }
    for (const ancestor of ancestorsOf(callId, depth)) {
      const values = byCall.get(ancestor) ?? new Set<string>();
      for (const value of own) values.add(value);
      byCall.set(ancestor, values);
    }
  }
  const nested = byCall?.get(callId);
  if (nested !== undefined) byCall?.delete(callId);
  if (own === undefined && nested === undefined) return NONE;
  return expandSecrets([...(own ?? []), ...(nested ?? [])]);
}

/**
 * What to scrub from what a running tool reports itself (`custom` events, progress): the values
 * the host injected into the call and its sensitive argument values, with their encoded forms.
 * @internal
 */
export function reportSecrets(entry: RegisteredTool, args: unknown): readonly string[] {
  const own = callRawSecrets(entry.tool, args);
  return own === undefined ? NONE : expandSecrets(own);
}

function scrubBlock(block: ToolContent, secrets: readonly string[]): ToolContent {
  switch (block.type) {
    case 'text': {
      const text = scrubText(block.text, secrets);
      return text === block.text ? block : { ...block, text };
    }
    case 'json': {
      const data = scrubValue(block.data, secrets);
      return data === block.data ? block : { ...block, data };
    }
    case 'image': {
      const value = scrubText(block.data.value, secrets);
      return value === block.data.value ? block : { ...block, data: { ...block.data, value } };
    }
    case 'file': {
      const name = scrubText(block.name, secrets);
      const value = scrubText(block.data.value, secrets);
      if (name === block.name && value === block.data.value) return block;
      return { ...block, name, data: { ...block.data, value } };
    }
  }
}

/** A result with every secret scrubbed from its content, follow-ups, markdown and metadata. */
function scrubResult(result: ToolResult, secrets: readonly string[]): ToolResult {
  const content = result.content.map((block) => scrubBlock(block, secrets));
  const followUp = result.followUp.map((block) => scrubBlock(block, secrets));
  const markdown = result.markdownFormatted === undefined ? undefined : scrubText(result.markdownFormatted, secrets);
  const metadata = scrubValue(result.metadata, secrets);
  const same = (list: readonly ToolContent[], original: readonly ToolContent[]) =>
    list.every((block, index) => block === original[index]);
  if (
    same(content, result.content) &&
    same(followUp, result.followUp) &&
    markdown === result.markdownFormatted &&
    metadata === result.metadata
  )
    return result;
  return ToolResult.fromJSON({ ...result.toJSON(), content, followUp, markdownFormatted: markdown, metadata });
}

/**
 * The tool boundary: what a call produced, with every value the host injected into it and every
 * sensitive argument value (and their encoded forms, see `secretVariants`) replaced by `[redacted]`, before anything else reads
 * it: the model's next request, events, spans, traces, `afterTool` middleware, the ledger, a
 * code-mode program, and the error thrown to the host (`message`, `stack`, `cause` chain,
 * `AggregateError.errors`, custom properties; a copy, same prototype). Run stops (cancellation,
 * run deadline) are the harness's own and pass as they are.
 * @internal
 */
export function scrubOutcome(
  state: LoopState,
  callId: string,
  entry: RegisteredTool,
  args: unknown,
  depth: number,
  outcome: CallOutcome,
): CallOutcome {
  const secrets = secretsOf(state, callId, entry, args, depth);
  if (secrets.length === 0) return outcome;
  switch (outcome.kind) {
    case 'result': {
      const result = scrubResult(outcome.result, secrets);
      return result === outcome.result ? outcome : { ...outcome, result };
    }
    case 'defer': {
      const reason = scrubText(outcome.reason, secrets);
      const metadata = scrubValue(outcome.metadata, secrets);
      return reason === outcome.reason && metadata === outcome.metadata ? outcome : { ...outcome, reason, metadata };
    }
    case 'fatal': {
      if (isRunStop(outcome.error)) return outcome;
      const error = scrubValue(outcome.error, secrets);
      return error === outcome.error ? outcome : { ...outcome, error };
    }
  }
}
