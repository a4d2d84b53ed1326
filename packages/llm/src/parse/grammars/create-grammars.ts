import type { CallSource } from '../parse-types.js';
import type { ScanContext, ToolKnowledge } from '../scan-context.js';
import type { Block, Grammar } from '../scan-types.js';
import { containsAny } from '../text-scanning.js';
import { createCommandActionGrammar } from './command-action.js';
import { createFunctionGemmaGrammar } from './function-gemma.js';
import { createHarmonyGrammar } from './harmony.js';
import { createInvokeXmlGrammar } from './invoke-xml.js';
import { createKimiXtmlGrammar } from './kimi-xtml.js';
import { createMarkedJsonGrammar, functoolsHoldStart } from './marked-json.js';
import { createMinimaxM3Grammar, MINIMAX_NS } from './minimax-m3.js';
import { createMistralGrammar } from './mistral.js';
import { createPythonicGrammar } from './pythonic.js';
import { createSeedPtypeGrammar, ptypeHoldStart } from './seed-ptype.js';
import { createSeedXmlGrammar } from './seed-xml.js';
import { createSentinelGrammar } from './sentinel.js';
import { createTaggedGrammar } from './tagged-json.js';

/**
 * @internal Characters of which every block and every held partial opener of a grammar contains at
 * least one. A text with none of a grammar's triggers gives it no block and nothing to hold, so a
 * stream may leave the grammar out (and pass such text on without scanning it at all).
 * - `<`: invoke-XML (`<invoke`, `<function=`, `<｜DSML｜`), sentinel tokens (`<|tool`, `<｜tool`),
 *   Harmony (`<|channel|>`, `<|start|>`), Command (`<|START_ACTION|>`), tagged JSON tags and the
 *   seed XML elements (`<name>`).
 * - `` ` ``: tagged JSON in a call fence (```` ```tool_call ````).
 * - `[`: Mistral (`[TOOL_CALLS]`).
 * - `]`: MiniMax M3's namespace marker (`]<]minimax[>[`), whose partial opener may be a lone `]`.
 * - `f`: FireFunction's `functools[`, whose partial opener (`functo`) has no other trigger; `<`
 *   covers Apertus's `<|tools_prefix|>` and the pythonic wrappers (`<|python_start|>`,
 *   `<|tool_call_start|>`).
 * Seed p-type calls (`name(...)`) have no such character: a block needs `(`, and a hold is a last
 * word that is a prefix of `name(` ({@link streamNeedsScan} checks both).
 */
export const GRAMMAR_TRIGGERS = {
  invokeXml: '<',
  sentinel: '<',
  harmony: '<',
  mistral: '[',
  commandAction: '<',
  markedJson: 'f[<',
  pythonic: '<',
  tagged: '<`',
  seedXml: '<',
  functionGemma: '<',
  kimiXtml: '<',
  minimaxM3: ']',
} as const;

const ALL_TRIGGERS = [...new Set(Object.values(GRAMMAR_TRIGGERS).join(''))].join('');

function ptypeNeedles(knowledge: ToolKnowledge): string[] {
  return knowledge.tools.filter((tool) => tool.format?.type === 'ptype').map((tool) => `${tool.name}(`);
}

/** @internal Whether the p-type grammar could find a block in or hold the end of a stream text. */
function ptypeMatters(text: string, previousCode: number, needles: readonly string[]): boolean {
  return needles.length > 0 && (text.includes('(') || ptypeHoldStart(text, 0, previousCode, needles) >= 0);
}

/**
 * Characters after which a stream text needs a scan to be decided: the triggers of every grammar
 * but FireFunction's `f` (`<`, `[`, `]`, a backtick), `~` of a fence, and the quotation marks
 * that may open a quotation in prose (see `scan-text.ts`); with p-type tools, `(` too.
 */
const SCAN_CHARACTERS = `${ALL_TRIGGERS.replace('f', '')}~"'\u201c\u2018\u00ab\u300c`;

/** @internal What {@link streamHoldWithoutScan} needs of the offered tools, built once per stream. */
export interface StreamHoldPlan {
  /** The offered p-type tools' `name(`. */
  readonly needles: readonly string[];
  /** {@link SCAN_CHARACTERS}, with `(` when there are p-type tools. */
  readonly scanCharacters: string;
  /** Whether each ASCII code is one of `scanCharacters` (a code at or past 128 is looked up in them). */
  readonly scanCodes: Uint8Array;
}

/** @internal The {@link StreamHoldPlan} for the offered tools. */
export function streamHoldPlan(knowledge: ToolKnowledge): StreamHoldPlan {
  const needles = ptypeNeedles(knowledge);
  const scanCharacters = needles.length > 0 ? `${SCAN_CHARACTERS}(` : SCAN_CHARACTERS;
  const scanCodes = new Uint8Array(128);
  for (const character of scanCharacters) {
    const code = character.charCodeAt(0);
    if (code < 128) scanCodes[code] = 1;
  }
  return { needles, scanCharacters, scanCodes };
}

/** Whether `text` has one of the plan's scan characters. */
function needsScan(plan: StreamHoldPlan, text: string): boolean {
  // A short text (a token-sized fragment) is walked once; a long one is searched for each character.
  if (text.length > plan.scanCharacters.length) return containsAny(text, plan.scanCharacters);
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 128 ? plan.scanCodes[code] === 1 : plan.scanCharacters.includes(text.charAt(index))) return true;
  }
  return false;
}

/**
 * @internal What a scan would hold of a stream text (after `previousCode`) without scanning it:
 * for a text with none of {@link SCAN_CHARACTERS}, no block can complete or be taken, and the only
 * grammars that could hold its end are FireFunction's (a last `functools`, or a last word part-way
 * through it) and the p-type grammar (a last word part-way through an offered `name(`): it returns
 * the index from which they hold it (the text's length when nothing is held; holding a word a
 * narrowed format list would not read is only later, never earlier). For any other text it returns
 * undefined: only a scan can tell.
 */
export function streamHoldWithoutScan(plan: StreamHoldPlan, text: string, previousCode: number): number | undefined {
  if (needsScan(plan, text)) return undefined;
  let hold = text.includes('f') ? functoolsHoldStart(text) : -1;
  if (plan.needles.length > 0) {
    const word = ptypeHoldStart(text, 0, previousCode, plan.needles);
    if (word >= 0 && (hold < 0 || word < hold)) hold = word;
  }
  return hold < 0 ? text.length : hold;
}

/**
 * @internal The ASCII characters (a table by code, 1 for each) that a stream text may be made of
 * for {@link streamHoldWithoutScan} to release it whole, whatever came before: none of
 * {@link SCAN_CHARACTERS} and no `f` (FireFunction's partial `functools`). `undefined` with p-type
 * tools, whose held `name(` prefixes are words of any letters.
 */
export function streamPlainCodes(knowledge: ToolKnowledge): Uint8Array | undefined {
  if (ptypeNeedles(knowledge).length > 0) return undefined;
  const plain = new Uint8Array(128).fill(1);
  for (const character of `${SCAN_CHARACTERS}f`) {
    const code = character.charCodeAt(0);
    if (code < 128) plain[code] = 0;
  }
  return plain;
}

/**
 * @internal Every scan grammar for one text, in tie-break order: MiniMax M3 (its namespaced
 * blocks hold `<tool_call>` and `<invoke>` tags the others would claim), invoke-XML, sentinel, Harmony,
 * Mistral, FunctionGemma, Kimi K3 XTML, Command R, FireFunction / Apertus arrays, pythonic lists (with offered tools), tagged JSON, then the seed XML and p-type forms when a tool declares them. Bare JSON
 * and GLM lines are not scan grammars (they need the whole response). Grammars whose distinctive
 * token is absent from a complete text are left out.
 */
export function createGrammars(context: ScanContext): Grammar[] {
  // A complete text without a grammar's distinctive token cannot hold its blocks; a stream keeps
  // every grammar, which must still recognise a token that has only partly arrived. The checks use
  // the shared finders, so the grammars reuse what they found.
  // A stream text without a grammar's triggers cannot hold its blocks or a partial opener either.
  const stream = context.mode === 'stream';
  const all = (triggers: string): boolean => stream && containsAny(context.text, triggers);
  const has = (needle: string, folded = false): boolean =>
    !stream && context.mayContain(needle) && context.finder(needle, folded).next(0) >= 0;
  const grammars: Grammar[] = [];
  if (all(GRAMMAR_TRIGGERS.minimaxM3) || has(MINIMAX_NS)) grammars.push(createMinimaxM3Grammar(context));
  if (
    all(GRAMMAR_TRIGGERS.invokeXml) ||
    has('invoke', true) ||
    has('function', true) ||
    has('calls', true) ||
    has(':tool_call', true)
  ) {
    grammars.push(createInvokeXmlGrammar(context));
  }
  if (all(GRAMMAR_TRIGGERS.sentinel) || has('<|tool') || has('<｜tool')) grammars.push(createSentinelGrammar(context));
  if (all(GRAMMAR_TRIGGERS.harmony) || has('<|channel|>', true)) grammars.push(createHarmonyGrammar(context));
  if (all(GRAMMAR_TRIGGERS.mistral) || has('[TOOL_CALLS]')) grammars.push(createMistralGrammar(context));
  if (all(GRAMMAR_TRIGGERS.functionGemma) || has('<start_function_call>'))
    grammars.push(createFunctionGemmaGrammar(context));
  if (all(GRAMMAR_TRIGGERS.kimiXtml) || has('<|open|>') || has('<|close|>'))
    grammars.push(createKimiXtmlGrammar(context));
  if (all(GRAMMAR_TRIGGERS.commandAction) || has('<|START_ACTION|>'))
    grammars.push(createCommandActionGrammar(context));
  if (all(GRAMMAR_TRIGGERS.markedJson) || has('functools[') || has('<|tools_prefix|>'))
    grammars.push(createMarkedJsonGrammar(context));
  if (
    context.knowledge.registry !== undefined &&
    (all(GRAMMAR_TRIGGERS.pythonic) || has('<|python_start|>') || has('<|tool_call_start|>'))
  )
    grammars.push(createPythonicGrammar(context));
  if (
    all(GRAMMAR_TRIGGERS.tagged) ||
    has('call', true) ||
    has('invoke', true) ||
    has('tool_code', true) ||
    has('<tools', true)
  )
    grammars.push(createTaggedGrammar(context));
  const xmlTools = context.knowledge.tools.filter((tool) => tool.format?.type === 'xml');
  if (xmlTools.length > 0 && (!stream || all(GRAMMAR_TRIGGERS.seedXml)))
    grammars.push(createSeedXmlGrammar(context, xmlTools));
  const ptypeTools = context.knowledge.tools.filter((tool) => tool.format?.type === 'ptype');
  if (
    ptypeTools.length > 0 &&
    (!stream || ptypeMatters(context.text, context.previousCode, ptypeNeedles(context.knowledge)))
  )
    grammars.push(createSeedPtypeGrammar(context, ptypeTools));
  const { knowledge } = context;
  if (knowledge.formats === undefined) return grammars;
  return grammars
    .filter((grammar) => producibleSources(grammar.source).some((source) => knowledge.allows(source)))
    .map((grammar) => restrictGrammar(grammar, knowledge));
}

/**
 * The sources a grammar's calls may carry: the tagged grammar also reads P-Format, code, GLM and
 * invoke-XML bodies inside its tags.
 */
function producibleSources(source: CallSource): readonly CallSource[] {
  if (source === 'tagged_json') return ['tagged_json', 'pformat', 'code', 'glm', 'invoke_xml'];
  return source === 'invoke_xml' ? ['invoke_xml', 'pythonic'] : [source];
}

/**
 * @internal A grammar limited to the allowed sources (`ModelProfile.toolCallFormats`): a block
 * with a call of another source is no block (its markup stays text, and the engine looks for the
 * next block after its start); a block without calls (malformed, furniture, unterminated) counts
 * only when the grammar's own source is allowed. Holding is kept, so a stream agrees with a batch.
 */
function restrictGrammar(grammar: Grammar, knowledge: ToolKnowledge): Grammar {
  const own = knowledge.allows(grammar.source);
  const admitted = (block: Block): boolean => {
    if (block.kind === 'pending') return true;
    if (block.kind === 'calls') return block.calls.every((call) => knowledge.allows(call.source));
    return own;
  };
  return {
    source: grammar.source,
    findNext(from) {
      let block = grammar.findNext(from);
      while (block !== undefined && !admitted(block)) block = grammar.findNext(block.start + 1);
      return block;
    },
    holdFrom: (floor) => grammar.holdFrom(floor),
  };
}
