import type { ScanContext } from '../scan-context.js';
import type { Grammar } from '../scan-types.js';
import { createCommandActionGrammar } from './command-action.js';
import { createHarmonyGrammar } from './harmony.js';
import { createInvokeXmlGrammar } from './invoke-xml.js';
import { createMarkedJsonGrammar } from './marked-json.js';
import { createMistralGrammar } from './mistral.js';
import { createPythonicGrammar } from './pythonic.js';
import { createSeedPtypeGrammar } from './seed-ptype.js';
import { createSeedXmlGrammar } from './seed-xml.js';
import { createSentinelGrammar } from './sentinel.js';
import { createTaggedGrammar } from './tagged-json.js';

/**
 * @internal Every scan grammar for one text, in tie-break order: invoke-XML, sentinel, Harmony,
 * Mistral, Command R, FireFunction / Apertus arrays, pythonic lists (with offered tools), tagged JSON, then the seed XML and p-type forms when a tool declares them. Bare JSON
 * and GLM lines are not scan grammars (they need the whole response). Grammars whose distinctive
 * token is absent from a complete text are left out.
 */
export function createGrammars(context: ScanContext): Grammar[] {
  // A complete text without a grammar's distinctive token cannot hold its blocks; a stream keeps
  // every grammar, which must still recognise a token that has only partly arrived. The checks use
  // the shared finders, so the grammars reuse what they found.
  const all = context.mode === 'stream';
  const has = (needle: string, folded = false): boolean => context.finder(needle, folded).next(0) >= 0;
  const grammars: Grammar[] = [];
  if (all || has('invoke', true) || has('function', true) || has('calls', true) || has(':tool_call', true)) {
    grammars.push(createInvokeXmlGrammar(context));
  }
  if (all || has('<|tool') || has('<｜tool')) grammars.push(createSentinelGrammar(context));
  if (all || has('<|channel|>', true)) grammars.push(createHarmonyGrammar(context));
  if (all || has('[TOOL_CALLS]')) grammars.push(createMistralGrammar(context));
  if (all || has('<|START_ACTION|>')) grammars.push(createCommandActionGrammar(context));
  if (all || has('functools[') || has('<|tools_prefix|>')) grammars.push(createMarkedJsonGrammar(context));
  if (context.knowledge.registry !== undefined && (all || has('<|python_start|>') || has('<|tool_call_start|>')))
    grammars.push(createPythonicGrammar(context));
  if (all || has('call', true) || has('invoke', true) || has('tool_code', true) || has('<tools', true))
    grammars.push(createTaggedGrammar(context));
  const xmlTools = context.knowledge.tools.filter((tool) => tool.format?.type === 'xml');
  if (xmlTools.length > 0) grammars.push(createSeedXmlGrammar(context, xmlTools));
  const ptypeTools = context.knowledge.tools.filter((tool) => tool.format?.type === 'ptype');
  if (ptypeTools.length > 0) grammars.push(createSeedPtypeGrammar(context, ptypeTools));
  return grammars;
}
