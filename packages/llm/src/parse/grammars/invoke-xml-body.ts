import type { ToolKnowledge } from '../scan-context.js';
import { createScanContext } from '../scan-context.js';
import type { RawCall } from '../scan-types.js';
import { createInvokeXmlGrammar } from './invoke-xml.js';
import { matchInvokeTag } from './invoke-xml-tags.js';

/**
 * @internal Reads a tag body that is itself invoke-XML, as Qwen3-Coder writes inside
 * `<tool_call>`: `<function=NAME><parameter=k>v</parameter></function>`. Only a body whose first
 * tag is an invoke opener or wrapper qualifies; every invoke in it becomes a call.
 */
export function readInvokeXmlBody(body: string, knowledge: ToolKnowledge): RawCall[] {
  if (!body.startsWith('<')) return [];
  const context = createScanContext(body, 'batch', knowledge);
  const first = matchInvokeTag(body, context.lower, 0);
  if (typeof first !== 'object' || (first.kind !== 'open' && first.kind !== 'wrapper')) return [];
  const grammar = createInvokeXmlGrammar(context);
  const calls: RawCall[] = [];
  for (let block = grammar.findNext(0); block !== undefined; block = grammar.findNext(block.end)) {
    if (block.kind === 'calls') calls.push(...block.calls);
  }
  return calls;
}
