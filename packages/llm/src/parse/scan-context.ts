import { createPformatRegistry, type PformatRegistry } from '../pformat/create-pformat-registry.js';
import type { ToolSchema } from '../spec/tool-schema.js';
import { findPresentWords } from './find-present-words.js';
import { createForwardFinder, type ForwardFinder } from './forward-finder.js';
import type { CallSource } from './parse-types.js';
import type { ScanMode } from './scan-types.js';
import { lowerAscii } from './text-scanning.js';

/** @internal What the parser knows about the offered tools, built once per parse or scrubber. */
export interface ToolKnowledge {
  readonly tools: readonly ToolSchema[];
  readonly names: readonly string[];
  /** P-Format / code-call registry; only when tools were offered. */
  readonly registry: PformatRegistry | undefined;
  isKnown(name: string): boolean;
  /** The grammars that may read calls (`ModelProfile.toolCallFormats`); undefined means all. */
  readonly formats: ReadonlySet<CallSource> | undefined;
  /** Whether the leading-closer rule applies (text before a first `</think>` is reasoning). */
  readonly leadingReasoning: boolean;
  /** Whether grammar `source` may read calls. */
  allows(source: CallSource): boolean;
}

/** @internal What narrows a parse beyond the offered tools. */
export interface KnowledgeOptions {
  readonly toolCallFormats?: readonly CallSource[] | undefined;
  readonly leadingReasoning?: boolean | undefined;
}

/** @internal Builds {@link ToolKnowledge} from `options.tools`. */
export function createToolKnowledge(
  tools: readonly ToolSchema[] | undefined,
  options: KnowledgeOptions = {},
): ToolKnowledge {
  const formats = options.toolCallFormats === undefined ? undefined : new Set(options.toolCallFormats);
  const leadingReasoning = options.leadingReasoning ?? true;
  const allows = (source: CallSource): boolean => formats === undefined || formats.has(source);
  if (tools === undefined || tools.length === 0) {
    return { tools: [], names: [], registry: undefined, isKnown: () => false, formats, leadingReasoning, allows };
  }
  const list = tools;
  const names = list.map((tool) => tool.name);
  const known = new Set(names);
  return {
    tools: list,
    names,
    registry: createPformatRegistry(list),
    isKnown: (name) => known.has(name),
    formats,
    leadingReasoning,
    allows,
  };
}

/** @internal Everything a grammar reads while scanning one text. */
export interface ScanContext {
  readonly text: string;
  /** `text` with ASCII letters lowered; same length, so indexes line up. */
  readonly lower: string;
  readonly mode: ScanMode;
  readonly knowledge: ToolKnowledge;
  /** The code unit just before `text` in a longer stream, or -1 at the very start. */
  readonly previousCode: number;
  /** A shared memoised finder for `needle` in `text` (or in `lower` when `folded`). */
  finder(needle: string, folded?: boolean): ForwardFinder;
  /**
   * False when `word`, one of {@link GATE_WORDS}, does not occur in `lower`; true for any other
   * word. In a long text the gate words are all looked for in one pass on first use; in a short
   * one, each is searched for when first asked about.
   */
  mayContain(word: string): boolean;
}

/**
 * @internal The words whose presence decides which grammars run and which searches they make.
 * Usually absent, each would cost a full search of the text; together they cost one.
 */
export const GATE_WORDS: readonly string[] = [
  'call',
  'calls',
  'invoke',
  'function',
  ':tool_call',
  'functools[',
  'tool_code',
  '<tools',
  // The PARSE-3 grammars' distinctive tokens (FunctionGemma, Kimi K3 XTML, MiniMax M3).
  '<start_function_call>',
  '<|open|>',
  '<|close|>',
  ']<]minimax[>[',
];
const gateWords: ReadonlySet<string> = new Set(GATE_WORDS);

/** Below this length (characters), a search per word asked about costs less than the one pass. */
const SHORT_TEXT = 4096;

/** @internal Creates the context for one scan. */
export function createScanContext(
  text: string,
  mode: ScanMode,
  knowledge: ToolKnowledge,
  previousCode = -1,
): ScanContext {
  const lower = lowerAscii(text);
  const exact = new Map<string, ForwardFinder>();
  const folded = new Map<string, ForwardFinder>();
  let present: Set<string> | undefined;
  let asked: Map<string, boolean> | undefined;
  return {
    text,
    lower,
    mode,
    knowledge,
    previousCode,
    finder(needle, fold = false) {
      const finders = fold ? folded : exact;
      let found = finders.get(needle);
      if (found === undefined) {
        found = createForwardFinder(fold ? lower : text, needle);
        finders.set(needle, found);
      }
      return found;
    },
    mayContain(word) {
      if (!gateWords.has(word)) return true;
      if (lower.length >= SHORT_TEXT) {
        present ??= findPresentWords(lower, GATE_WORDS);
        return present.has(word);
      }
      asked ??= new Map();
      let found = asked.get(word);
      if (found === undefined) {
        found = lower.includes(word);
        asked.set(word, found);
      }
      return found;
    },
  };
}
