import type { ToolSchema } from '../spec/tool-schema.js';
import { parseCompleteText } from './parse-complete-text.js';
import type { CallSource, ParsedText } from './parse-types.js';
import { createToolKnowledge } from './scan-context.js';

/** Options for {@link parseToolCalls}. */
export interface ParseToolCallsOptions {
  /**
   * The tools offered this turn. They enable name repair, the alias rule for bare objects naming a
   * known tool, P-Format and code-call bodies, and the seed `xml` / `ptype` forms of tools that
   * declare those formats. Default: none.
   */
  readonly tools?: readonly ToolSchema[] | undefined;
  /**
   * Whether a response that is entirely one JSON value may be read as calls. Default `true`; turn
   * it off for a model that legitimately answers in JSON.
   */
  readonly allowBareJson?: boolean | undefined;
  /**
   * The grammars that may read calls, as `CallSource`s (`ModelProfile.toolCallFormats`): an adapter
   * serving one model family lists its own, and markup of any other family stays text. Default:
   * every grammar.
   */
  readonly toolCallFormats?: readonly CallSource[] | undefined;
  /**
   * Whether a text whose first reasoning token is a closer (`</think>`, `</thinking>`, `[/THINK]`)
   * starts inside reasoning, as with templates that open the think block in the prompt (Qwen3
   * thinking, DeepSeek R1): everything before that closer is reasoning and no call. Default `true`;
   * `false` for a model known never to do so (a stream then releases calls without waiting).
   */
  readonly leadingReasoning?: boolean | undefined;
}

/**
 * Reads every tool call written as text in a complete model response, in any grammar models are
 * known to use: tagged JSON (`<tool_call>` and its spellings, fenced ```` ```tool_call ```` blocks,
 * P-Format, Python/TypeScript code calls and Kimi bodies inside a tag), invoke-XML (Claude, DeepSeek
 * DSML, `<function=…>`), DeepSeek / Kimi sentinel tokens, Harmony (gpt-oss), Mistral `[TOOL_CALLS]`
 * (v3 and v11), GLM lines (only when nothing else matched), bare JSON (only when the whole response
 * is one value), and the seed element-per-field XML and p-type forms for tools declaring them.
 *
 * `text` is the narrative left after removing call blocks: the pieces between blocks, each
 * trimmed, empty ones dropped, joined with `\n`. Blocks inside a fenced code block with a language
 * (an example) are left alone. Calls carry no id (the harness mints them) and come in text order;
 * names are resolved against `options.tools`. Diagnostics never contain model output beyond tool
 * names. Never throws; runs in time linear in `text`.
 */
export function parseToolCalls(text: string, options: ParseToolCallsOptions = {}): ParsedText {
  if (cannotHoldCall(text, options.tools)) return { text: text.trim(), calls: [], diagnostics: [] };
  const knowledge = createToolKnowledge(options.tools, options);
  try {
    return parseCompleteText(text, knowledge, { allowBareJson: options.allowBareJson ?? true, allowGlmLines: true });
  } catch {
    return { text: text.trim(), calls: [], diagnostics: [] };
  }
}

/**
 * Characters every reading of a call or of reasoning needs at least one of: tag and sentinel
 * brackets, JSON and list brackets, p-type parentheses, GLM's `tool/…`, fence and inline-code
 * markers, Functionary's `>>>`.
 */
const CALL_CHARACTERS = /[<>[\]{}()/`~]/;

/**
 * Whether `text` is plain prose no grammar can read a call or reasoning from, so the parse is the
 * trimmed text (the usual final answer, read without building tool knowledge and grammars). The
 * one reading without those characters: Functionary's first recipient, a line naming an offered
 * `python` tool followed by code.
 */
function cannotHoldCall(text: string, tools: readonly ToolSchema[] | undefined): boolean {
  if (CALL_CHARACTERS.test(text)) return false;
  return tools === undefined || !text.includes('\n') || !tools.some((tool) => tool.name === 'python');
}
