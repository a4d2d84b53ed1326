import { parseToolCalls } from '../parse/parse-tool-calls.js';
import { renderJsonCall } from '../prompt/render-json-call.js';
import { renderNativeProtocol } from '../prompt/render-native-protocol.js';
import { pairToolCycles } from '../transcript/pair-tool-cycles.js';
import { structuredDialectCall } from './structured-dialect-call.js';
import type { ToolDialect } from './tool-dialect.js';

/**
 * The native dialect: schemas travel on the wire and calls come back structured. When a
 * response has no structured calls, its text is still read with every grammar and the offered
 * names (small models sometimes write the call as text); when that finds calls the narrative
 * replaces the text, and when it finds none the text is kept exactly as it came. Results stay one
 * tool message per call. The prompt block is behavioural guidance only, no catalogue.
 */
export function createNativeDialect(): ToolDialect {
  return {
    kind: 'native',
    shouldSendToolSpecs: true,
    embedsToolCatalogue: false,
    promptInstructions: (tools, choice = { type: 'auto' }) =>
      choice.type === 'none' || tools.length === 0 ? '' : renderNativeProtocol(),
    renderCall: (call) => renderJsonCall(call.name, call.arguments),
    parseResponse(response, tools, options = {}) {
      const structured = response.toolCalls ?? [];
      if (structured.length > 0) {
        const calls = structured.map(structuredDialectCall);
        return { text: response.content, replayText: response.content, calls, diagnostics: [] };
      }
      const parsed = parseToolCalls(response.content, { tools, toolCallFormats: options.toolCallFormats });
      if (parsed.calls.length === 0) {
        return { text: response.content, replayText: response.content, calls: [], diagnostics: parsed.diagnostics };
      }
      return { text: parsed.text, replayText: parsed.text, calls: parsed.calls, diagnostics: parsed.diagnostics };
    },
    formatResults: (results) =>
      results.map((result) => (result.toolCallId === '' ? { ...result, toolCallId: 'unknown' } : result)),
    toProviderMessages: (history) => pairToolCycles(history),
  };
}
