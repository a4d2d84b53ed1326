import type { CallSource } from '../parse/parse-types.js';
import type { ToolFormat } from '../spec/tool-format.js';
import { type ToolSchema, toolFormatOf } from '../spec/tool-schema.js';
import { renderToolDeclaration } from './tool-format-dispatch.js';

/**
 * True when a tool is written as text in its own format (`xml` or `ptype`) rather than as a
 * native declaration or in the dialect's catalogue (`json`).
 */
export function writesOwnFormat(tool: ToolSchema): boolean {
  return toolFormatOf(tool).type !== 'json';
}

/**
 * Splits offered tools by how a model is shown them: `json` tools (native declarations, or the
 * dialect's catalogue) and tools with their own text format (`xml`, `ptype`), each list in the
 * offered order. Returns the input list itself as `json` when no tool has its own format.
 */
export function splitToolsByFormat(tools: readonly ToolSchema[]): {
  readonly json: readonly ToolSchema[];
  readonly own: readonly ToolSchema[];
} {
  if (!tools.some(writesOwnFormat)) return { json: tools, own: [] };
  return { json: tools.filter((tool) => !writesOwnFormat(tool)), own: tools.filter(writesOwnFormat) };
}

/**
 * The grammar a call written in each tool format is read with: `xml` → `xml_element`, `ptype` →
 * `ptype`; `json` calls come natively or through the dialect's grammars (undefined here).
 */
export function grammarOfFormat(format: ToolFormat['type']): CallSource | undefined {
  if (format === 'xml') return 'xml_element';
  if (format === 'ptype') return 'ptype';
  return undefined;
}

/**
 * The tool format a call read with `grammar` was written in: `xml` for `xml_element`, `ptype` for
 * `ptype`, `json` for every other grammar (native calls, tagged JSON, and the dialect syntaxes,
 * whose arguments are a JSON object).
 */
export function formatOfGrammar(grammar: CallSource): ToolFormat['type'] {
  if (grammar === 'xml_element') return 'xml';
  if (grammar === 'ptype') return 'ptype';
  return 'json';
}

/**
 * Adds the grammars of the offered tools' own formats to a model's allowed grammars
 * (`ModelProfile.toolCallFormats`), so a model restricted to its family's markup still has its
 * `xml` and `ptype` tools read back. `undefined` (every grammar) stays `undefined`.
 */
export function withOwnFormatGrammars(
  allowed: readonly CallSource[] | undefined,
  tools: readonly ToolSchema[],
): readonly CallSource[] | undefined {
  if (allowed === undefined) return undefined;
  const extra = new Set<CallSource>();
  for (const tool of tools) {
    const grammar = grammarOfFormat(toolFormatOf(tool).type);
    if (grammar !== undefined && !allowed.includes(grammar)) extra.add(grammar);
  }
  return extra.size === 0 ? allowed : [...allowed, ...extra];
}

/**
 * The prompt block for tools written in their own format (`xml`, `ptype`): a heading, how to call
 * them (as plain text in the reply, one call per line, never inside another tag or a code fence,
 * results arriving in `<tool_result>`), then each tool's declaration in its own syntax
 * (`renderToolDeclaration`). Empty when no tool is given.
 */
export function renderOwnFormatTools(tools: readonly ToolSchema[]): string {
  if (tools.length === 0) return '';
  const formats = new Set(tools.map((tool) => toolFormatOf(tool).type));
  const how: string[] = [];
  if (formats.has('xml')) {
    how.push(
      '- XML tools: write the tool name as the root element and one child element per argument, e.g. `<tool_name><field>value</field></tool_name>`. Lists repeat `<item>`; escape `&` and `<` in text.',
    );
  }
  if (formats.has('ptype')) {
    how.push(
      '- Positional tools: write `tool_name(value1, value2)` with the values in the order of the signature, strings in double quotes, `null` or nothing for a skipped optional value.',
    );
  }
  return [
    '## Text Tools',
    '',
    'These tools are called by writing the call as plain text in your reply, in the syntax shown for each tool. Write one call per line, outside code fences and outside any other tag. Results arrive in `<tool_result>` blocks.',
    ...how,
    '',
    ...tools
      .map((tool) => renderToolDeclaration(tool))
      .join('\n\n')
      .split('\n'),
  ].join('\n');
}
