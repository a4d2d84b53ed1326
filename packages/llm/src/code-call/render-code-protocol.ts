import type { CodeLanguage } from './render-code-catalogue.js';

/**
 * Renders the instructions that teach a model code calls in `language`: calls inside
 * `<tool_call>` tags, one or more per tag, literal arguments only, the keyword and positional
 * rules, how to skip an optional parameter, and that any other text in a tag voids the whole tag.
 * The tool list itself is rendered separately by `renderCodeCatalogue`. Results are announced as
 * arriving in `<tool_result>` tags.
 */
export function renderCodeProtocol(language: CodeLanguage): string {
  const lines = language === 'python' ? pythonRules : typeScriptRules;
  return [
    '## Tool Use Protocol',
    '',
    `To call tools, write ${language === 'python' ? 'Python' : 'TypeScript'} function calls inside <tool_call></tool_call> tags, using the signatures listed under "Tools". For example:`,
    '',
    ...lines,
    '- One tag may hold one or more calls, one per line or separated by `;`. They run in order.',
    '- Write only calls inside the tag. Any other text in it, or a call that breaks these rules, makes the whole tag be ignored.',
    '',
    'Tool results come back in <tool_result> tags.',
  ].join('\n');
}

const pythonRules = [
  '<tool_call>search(query="rust agents", limit=5)</tool_call>',
  '',
  'Rules:',
  '- Pass arguments by keyword (`name=value`) or by position in the order of the signature. Keyword names must be parameter names; positional arguments cannot follow keyword ones, and no parameter may be given twice.',
  '- Arguments must be literals: strings (quoted, triple-quoted or raw `r"..."`), numbers, True, False, None, lists and dicts with string keys. Variables, expressions, f-strings and the results of other calls cannot be used.',
  '- Leave out an optional parameter, or pass None, to skip it.',
];

const typeScriptRules = [
  '<tool_call>search({query: "rust agents", limit: 5})</tool_call>',
  '',
  'Rules:',
  '- Pass the arguments as one object whose keys are parameter names, or as positional arguments in the order of the signature.',
  '- Arguments must be literals: strings (quoted, or in backticks without interpolation), numbers, true, false, null, arrays and objects. Variables, expressions and the results of other calls cannot be used.',
  '- Leave out an optional parameter, or pass null, to skip it.',
];
