import { type JsonValue, type ToolContent, ToolResult } from '@tiny/tools';
import type { LoopState } from '../agent/loop-state.js';
import type { RegisteredTool } from '../registry/tool-registry.js';
import { isRunStop } from '../run/run-stop.js';
import type { CallOutcome } from './call-outcome.js';
import { toPlainData, UNREADABLE } from './plain-data.js';
import { callRawSecrets } from './redaction.js';
import { scrubThrown } from './scrub-value.js';
import { expandSecrets, scrubText } from './secret-variants.js';

const NONE: readonly string[] = Object.freeze([]);

/** Per run: the injected and sensitive argument values of nested calls, by the id of each calling ancestor. */
const nestedValues = new WeakMap<LoopState, Map<string, Set<string>>>();

/** Per run: the raw secrets of each running call that has any, by call id (for its nested calls' events and results). */
const runningSecrets = new WeakMap<LoopState, Map<string, ReadonlySet<string>>>();

/**
 * Records a call's raw secrets (host-injected and sensitive argument values) while it runs, so
 * the nested calls it makes can be scrubbed of them (see {@link lineageSecrets}). Nothing for a
 * call without any (most tools).
 * @internal
 */
export function enterCall(state: LoopState, callId: string, entry: RegisteredTool, args: unknown): void {
  const own = callRawSecrets(entry.tool, args);
  if (own === undefined) return;
  let calls = runningSecrets.get(state);
  if (calls === undefined) {
    calls = new Map();
    runningSecrets.set(state, calls);
  }
  calls.set(callId, own);
}

/**
 * The secrets of a running call and every running ancestor of it (`<root>/<n>` → `<root>`), with
 * their encoded forms: what the events of its nested calls, and what a nested call hands back to it
 * (a code-mode program), must not carry. Empty when none of them has any.
 * @internal
 */
export function lineageSecrets(state: LoopState, callId: string): readonly string[] {
  const calls = runningSecrets.get(state);
  if (calls === undefined || calls.size === 0) return NONE;
  const raw: string[] = [];
  let id = callId;
  for (;;) {
    const own = calls.get(id);
    if (own !== undefined) raw.push(...own);
    const cut = id.lastIndexOf('/');
    if (cut < 0) break;
    id = id.slice(0, cut);
  }
  return raw.length === 0 ? NONE : expandSecrets(raw);
}

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

/**
 * Text blocks are read joined with line breaks (`ToolResult.output()`): when a secret spans
 * blocks (each scrubbed alone looks clean), they are merged into one scrubbed text block where
 * the first one was.
 */
function joinedText(blocks: JsonValue[], original: readonly ToolContent[], secrets: readonly string[]): JsonValue[] {
  const texts = blocks.filter(
    (block): block is { type: 'text'; text: string } =>
      typeof block === 'object' &&
      block !== null &&
      !Array.isArray(block) &&
      block.type === 'text' &&
      typeof block.text === 'string',
  );
  if (texts.length < 2) return blocks;
  // The original blocks joined and scrubbed whole: a value split over blocks is found across the break.
  const whole = scrubText(original.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n'), secrets);
  if (whole === texts.map((block) => block.text).join('\n')) return blocks;
  const first = texts[0];
  return blocks.flatMap((block) =>
    block === first ? [{ ...first, text: whole }] : texts.includes(block as never) ? [] : [block],
  );
}

/**
 * A result with every secret scrubbed from everything it carries (content, follow-ups, markdown,
 * metadata, control and state update): its JSON form converted once to plain data (see
 * `toPlainData`: `toJSON` honoured, binary data as base64, bounded depth) and every string scrubbed,
 * so what was checked is exactly what is sent. A result whose scrubbed form is no longer valid
 * (cannot happen for a well-formed one) is replaced by an error result saying so.
 * @internal
 */
export function scrubResult(result: ToolResult, secrets: readonly string[]): ToolResult {
  const plain = toPlainData(result.toJSON(), (text) => scrubText(text, secrets));
  if (typeof plain === 'object' && plain !== null && !Array.isArray(plain)) {
    for (const key of ['content', 'followUp'] as const) {
      const blocks = plain[key];
      if (Array.isArray(blocks)) plain[key] = joinedText(blocks, result[key], secrets);
    }
  }
  try {
    return ToolResult.fromJSON(plain);
  } catch {
    return ToolResult.error(UNREADABLE);
  }
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
  runningSecrets.get(state)?.delete(callId);
  const secrets = secretsOf(state, callId, entry, args, depth);
  if (secrets.length === 0) return outcome;
  switch (outcome.kind) {
    case 'result': {
      return { ...outcome, result: scrubResult(outcome.result, secrets), secrets };
    }
    case 'defer': {
      const reason = scrubText(outcome.reason, secrets);
      const metadata = toPlainData(outcome.metadata, (text) => scrubText(text, secrets));
      return { ...outcome, reason, metadata };
    }
    case 'fatal': {
      if (isRunStop(outcome.error)) return outcome;
      return { ...outcome, error: scrubThrown(outcome.error, secrets) };
    }
  }
}
