/**
 * Behavioural guidance for models that call tools through the provider's function-calling
 * channel: when to call, parallel calls, reading results. It lists no tools (the schemas travel
 * on the wire) and shows no call syntax.
 */
export function renderNativeProtocol(): string {
  return [
    '## Tool Use',
    '',
    '- Use the provided tools when they help with the task; answer directly when they do not.',
    '- Call tools through the function-calling interface, never by writing a call as text.',
    '- Make independent calls together in one turn; make dependent calls one after another.',
    '- Read each tool result before you answer. If a call fails, fix the arguments or try another way.',
  ].join('\n');
}
