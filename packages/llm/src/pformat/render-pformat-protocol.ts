/**
 * Renders the instructions that teach a model P-Format calls: slot indices and `<name>`
 * placeholders, empty calls `name[]`, retraction by empty value, the three escapes, that a call
 * with a bad index or an odd number of parts is rejected whole, one call per `<tool_call>` tag,
 * and the JSON form for list or object arguments. The tool list itself is rendered separately by
 * `renderPformatCatalogue`. Results are announced as arriving in `<tool_result>` tags.
 */
export function renderPformatProtocol(): string {
  return [
    '## Tool Use Protocol',
    '',
    'To call a tool, write one call in P-Format inside <tool_call></tool_call> tags. Each tool shows its form after "Call as:". For example, for `search[0|<query>|1|<limit>]`:',
    '',
    '<tool_call>search[0|rust agents|1|5]</tool_call>',
    '',
    'Rules:',
    '- A call is the tool name, `[`, then pairs of slot index and value, all separated by `|`, then `]`.',
    '- The slot indices are the numbers in the signature. Replace each `<name>` placeholder, angle brackets included, with the value itself. Write values as plain text without quotes; numbers and true/false are converted to the parameter type.',
    '- Leave out optional parameters you do not need. A call without arguments is written with empty brackets: `name[]`.',
    '- An empty value removes that parameter. If a slot appears twice, the last value counts.',
    '- Inside a value, write `\\|` for `|`, `\\]` for `]` and `\\\\` for `\\`. Other backslashes are kept as written.',
    '- A call whose index is not a number or not in the signature, or with an unpaired index or value, is rejected as a whole.',
    '- Put exactly one call in each <tool_call> tag; use several tags for several calls.',
    '- When an argument is a list or an object, write that call as JSON instead:',
    '  <tool_call>{"name": "search", "arguments": {"query": "rust agents", "sites": ["docs.rs", "crates.io"]}}</tool_call>',
    '',
    'Tool results come back in <tool_result> tags.',
  ].join('\n');
}
