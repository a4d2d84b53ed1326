import { resolveToolNameDetailed } from '../names/resolve-tool-name.js';
import { feedFence, initialFenceState } from './fence-tracker.js';
import { finalizeCalls } from './finalize-calls.js';
import { readBareJson } from './grammars/bare-json.js';
import { createGrammars } from './grammars/create-grammars.js';
import { stripEmbeddedJsonCalls } from './grammars/embedded-json.js';
import { stripGlmLines } from './grammars/glm-lines.js';
import { readWholePythonicList } from './grammars/pythonic.js';
import { readCommandActionFence, readFunctionaryRecipients } from './grammars/whole-response.js';
import { joinNarrative, joinNarrativeSpans } from './join-narrative.js';
import type { ParsedText } from './parse-types.js';
import { findProtectedRegions, type ProtectedRegions } from './protected-regions.js';
import { reasoningCallTokens } from './reasoning-tracker.js';
import { createScanContext, type ToolKnowledge } from './scan-context.js';
import { scanText } from './scan-text.js';
import type { RawCall } from './scan-types.js';
import { stripOuterFence } from './strip-outer-fence.js';

/** @internal Which whole-response paths a complete parse may take. */
export interface CompleteTextOptions {
  /** The whole response may be one bare JSON value (default path of `parseToolCalls`). */
  readonly allowBareJson: boolean;
  /** GLM lines are tried on the narrative when nothing else was found. */
  readonly allowGlmLines: boolean;
}

/**
 * @internal The parse engine for a complete response: bare JSON when the whole response is one
 * value, Functionary v3.2 recipients, a Command R+ `Action:` fence, or a pythonic call list when it
 * is exactly one (all with offered tools); else one scan with every grammar; then, if no call was found, JSON calls naming an offered tool inside
 * prose (Llama 3.x), the inside of one fence around the whole response, and GLM lines on the narrative if no call was found;
 * then name resolution.
 */
export function parseCompleteText(
  text: string,
  knowledge: ToolKnowledge,
  options: CompleteTextOptions,
  nested = false,
): ParsedText {
  if (options.allowBareJson) {
    const bare = admit(
      safely(() => readBareJson(text, knowledge)),
      knowledge,
    );
    if (bare !== undefined) {
      const finished = finalizeCalls(bare.calls, knowledge);
      return { text: bare.text, calls: finished.calls, diagnostics: finished.diagnostics };
    }
    // Reasoning first, then the whole answer as JSON (xLAM, Qwen3): the reasoning stays narrative.
    const reasoned = leadingReasoningEnd(text, knowledge.leadingReasoning);
    const afterReasoning =
      reasoned < 0 || !reasoningEndsAt(text, reasoned, knowledge)
        ? undefined
        : admit(
            safely(() => readBareJson(text.slice(reasoned), knowledge)),
            knowledge,
          );
    if (afterReasoning !== undefined) {
      const finished = finalizeCalls(afterReasoning.calls, knowledge);
      const narrative = joinNarrative([text.slice(0, reasoned), afterReasoning.text]);
      return { text: narrative, calls: finished.calls, diagnostics: finished.diagnostics };
    }
    const pythonic = admit(
      safely(() => readWholePythonicList(text, knowledge)),
      knowledge,
    );
    if (pythonic !== undefined) {
      const finished = finalizeCalls(pythonic.calls, knowledge);
      const dropped = pythonic.dropped.map((tool) => ({ kind: 'call_dropped', source: 'pythonic', tool }) as const);
      return { text: '', calls: finished.calls, diagnostics: [...dropped, ...finished.diagnostics] };
    }
  }
  const context = createScanContext(text, 'batch', knowledge);
  const regions = findProtectedRegions(
    text,
    undefined,
    true,
    knowledge.leadingReasoning,
    context.lower,
    reasoningCallTokens(knowledge.allows),
  );
  const scan = scanText(text, createGrammars(context), regions);
  // Reasoning that a call's value could not end: no later reading finds a call in it either.
  const settled = (scan.reasoningUntil ?? -1) > 0 ? withLeadingRegion(regions, scan.reasoningUntil ?? 0) : regions;
  // Whole-response readings (Functionary recipients, a Command R+ action fence) apply only when the
  // response is that shape: no block grammar found a call or a broken block, nothing was quoted,
  // and their markers stand outside reasoning, example fences and inline code. A real call found
  // by a block grammar is never replaced by one (a prose example after it stays text).
  if (options.allowBareJson) {
    const read = (view: ProtectedRegions) =>
      admit(
        safely(() => readFunctionaryRecipients(text, knowledge, view)),
        knowledge,
      ) ??
      admit(
        safely(() => readCommandActionFence(text, knowledge, view)),
        knowledge,
      );
    // A leading `</think>` written inside a call body (with no closer after that body) is content:
    // the reading without the leading region stands when that closer lies in one of its bodies.
    let whole = read(settled);
    const openedByPrompt = regions.leadingEnd > 0 && !REASONING_OPENER.test(text.slice(0, regions.leadingEnd));
    if ((whole?.calls.length ?? 0) === 0 && openedByPrompt && (scan.reasoningUntil ?? -1) < 0) {
      const closerAt = regions.leadingEnd - 1;
      const bare = read(withoutLeadingRegion(regions));
      const body = bare?.bodies.find(([start, end]) => closerAt >= start && closerAt < end);
      if (bare !== undefined && body !== undefined && !LEADING_CLOSER.test(text.slice(body[1]))) whole = bare;
    }
    // Blocks found inside the reading's call bodies are argument content; one outside them is a
    // real call of another grammar, and the scan's reading stands.
    if (whole !== undefined && (scan.callBlocks ?? []).every((block) => within(block, whole.bodies))) {
      const finished = finalizeCalls(whole.calls, knowledge);
      const cut = whole.unterminated === true ? [{ kind: 'unterminated_block', source: 'tagged_json' } as const] : [];
      return { text: whole.text, calls: finished.calls, diagnostics: [...cut, ...finished.diagnostics] };
    }
  }
  // The narrative is trimmed and joined: its positions are not the text's, on which the regions
  // were found. Every region lookup on it goes through `sourceAt`.
  const joined = joinNarrativeSpans(text, scan.parts);
  let narrative = joined.text;
  let calls: RawCall[] = scan.calls;
  // Quoted call markup is an example: the JSON inside it is not read as a call either.
  if (calls.length === 0 && options.allowBareJson && scan.diagnostics.length === 0 && !scan.quoted) {
    const embedded = admit(
      safely(() =>
        stripEmbeddedJsonCalls(narrative, knowledge, (position) => settled.endAt(joined.sourceAt(position)) >= 0),
      ),
      knowledge,
    );
    if (embedded !== undefined) {
      narrative = embedded.text;
      calls = embedded.calls;
    }
  }
  if (calls.length === 0 && options.allowGlmLines && knowledge.allows('glm') && !scan.quoted) {
    const glm = stripGlmLines(narrative, (call) => acceptsGlmCall(call, knowledge));
    if (glm.calls.length > 0) {
      narrative = glm.text;
      calls = glm.calls;
    }
  }
  if (calls.length === 0 && !nested && options.allowBareJson && knowledge.names.length > 0) {
    // A whole response wrapped in one ```xml / ```json fence around Hermes `<tool_call>` blocks
    // (llama.cpp's Hermes 2 Pro cases): read the inside. Other fenced markup stays an example.
    // Odd whitespace around and inside the fence (`` ``` xml ``, CRLF, blank or indented lines) is layout.
    const trimmed = text.trim();
    const fenced = /^```[ \t]*(?:xml|json)?[ \t]*\r?\n/i.test(trimmed) && trimmed.endsWith('```');
    const inside = fenced ? stripOuterFence(trimmed) : '';
    if (fenced && inside.slice(0, 10).toLowerCase() === '<tool_call') {
      const inner = parseCompleteText(inside, knowledge, options, true);
      if (inner.calls.length > 0) return inner;
    }
  }
  const finished = finalizeCalls(calls, knowledge);
  return { text: narrative, calls: finished.calls, diagnostics: [...scan.diagnostics, ...finished.diagnostics] };
}

/** The first reasoning token, opener or closer, of any pair (`<think>`, `<thinking>`, `[THINK]`), any case. */
const REASONING_TOKEN = /<(\/?)think(?:ing)?>|\[(\/?)think\]/i;

/**
 * The end of a closed reasoning region the text starts with (after whitespace), else -1; a text
 * whose first reasoning token is a closer (the prompt opened the region, Qwen3 thinking, DeepSeek
 * R1) starts with reasoning up to that closer. One case-insensitive search for the first token,
 * then one for its closer: no lowered copy of the text.
 */
function leadingReasoningEnd(text: string, leadingReasoning: boolean): number {
  const first = REASONING_TOKEN.exec(text);
  if (first === null) return -1;
  const isCloser = (first[1] ?? first[2]) === '/';
  if (isCloser) return leadingReasoning ? first.index + first[0].length : -1;
  // An opener: it counts only at the start (after whitespace), and the region is closed by its own closer.
  if (text.slice(0, first.index).trim() !== '') return -1;
  const closer = first[0].startsWith('[') ? '[/think]' : `</${first[0].slice(1)}`;
  const end = indexOfFolded(text, closer, first.index + first[0].length);
  return end < 0 ? -1 : end + closer.length;
}

/**
 * @internal Whether the reasoning tracker the scan uses (see `reasoning-tracker.ts`) reads a region that
 * starts the text (after whitespace) and ends at `end`: a call token of an enabled grammar before
 * the first reasoning token decides that the text did not start in reasoning (a later `</think>` is
 * content), one inside a region opened at the start ends it there, and a Harmony analysis opener
 * first decides the start too. The answer after the region is read as JSON only when the scan
 * agrees it is one: both readings follow one set of rules.
 */
export function reasoningEndsAt(text: string, end: number, knowledge: ToolKnowledge): boolean {
  const state = initialFenceState(knowledge.leadingReasoning, reasoningCallTokens(knowledge.allows));
  const first = text.search(/\S/);
  let found = false;
  const onRange = (start: number, rangeEnd: number, reasoning = false): void => {
    if (reasoning && rangeEnd === end && (start === 0 || start === first)) found = true;
  };
  feedFence(state, text, onRange);
  return found;
}

/** `text.toLowerCase().indexOf(needle, from)` for an ASCII lower-case needle, without lowering the text. */
function indexOfFolded(text: string, needle: string, from: number): number {
  const pattern = new RegExp(needle.replace(/[[\]/\\]/g, '\\$&'), 'gi');
  pattern.lastIndex = from;
  return pattern.exec(text)?.index ?? -1;
}

/** A closer that ends a region the prompt opened, any case. */
const LEADING_CLOSER = /<\/think(?:ing)?>|\[\/think\]/i;

/** A reasoning opener written in the text (then the leading region is not one the prompt opened). */
const REASONING_OPENER = /<think(?:ing)?>|\[think\]|<\|channel\|>/i;

/** `regions` without the leading reasoning region (other regions kept). */
function withoutLeadingRegion(regions: ProtectedRegions): ProtectedRegions {
  const outside = (position: number): boolean =>
    position < regions.leadingEnd && !regions.protectedBesidesLeading(position);
  return {
    ...regions,
    endAt: (position) => (outside(position) ? -1 : regions.endAt(position)),
    startAt: (position) => (outside(position) ? -1 : regions.startAt(position)),
  };
}

/** Whether `block` lies inside one of `bodies`. */
function within(block: readonly [number, number], bodies: ReadonlyArray<readonly [number, number]>): boolean {
  return bodies.some(([start, end]) => block[0] >= start && block[1] <= end);
}

/** `regions` with `[0, end)` protected too (a leading reasoning region decided by the scan). */
function withLeadingRegion(regions: ProtectedRegions, end: number): ProtectedRegions {
  return {
    ...regions,
    endAt: (position) => (position < end ? Math.max(end, regions.endAt(position)) : regions.endAt(position)),
    startAt: (position) => (position < end ? 0 : regions.startAt(position)),
  };
}

/** With offered tools, a GLM line on free text must name one of them (or repair to one). */
function acceptsGlmCall(call: RawCall, knowledge: ToolKnowledge): boolean {
  if (knowledge.names.length === 0) return true;
  return safely(() => resolveToolNameDetailed(call.name, knowledge.names).status !== 'unknown') ?? false;
}

/** A whole-response reading counts only when every call's grammar is allowed (`toolCallFormats`). */
function admit<T extends { readonly calls: readonly RawCall[] }>(
  reading: T | undefined,
  knowledge: ToolKnowledge,
): T | undefined {
  if (reading === undefined || knowledge.formats === undefined) return reading;
  return reading.calls.every((call) => knowledge.allows(call.source)) ? reading : undefined;
}

function safely<T>(run: () => T): T | undefined {
  try {
    return run();
  } catch {
    return undefined;
  }
}
