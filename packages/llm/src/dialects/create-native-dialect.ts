import { renderOwnFormatTools, splitToolsByFormat, withOwnFormatGrammars } from '../formats/render-format-tools.js';
import { renderToolCall } from '../formats/tool-format-dispatch.js';
import { parseToolCalls } from '../parse/parse-tool-calls.js';
import type { CallSource } from '../parse/parse-types.js';
import { renderJsonCall } from '../prompt/render-json-call.js';
import { renderNativeProtocol } from '../prompt/render-native-protocol.js';
import { toolChoiceInstruction } from '../prompt/tool-instructions.js';
import { appendSystemInstructions } from '../prompt/with-tool-instructions.js';
import type { ToolChoice } from '../spec/tool-choice.js';
import { type ToolSchema, toolFormatOf } from '../spec/tool-schema.js';
import { pairToolCycles } from '../transcript/pair-tool-cycles.js';
import { replayOwnFormatCalls } from './replay-own-format-calls.js';
import { structuredDialectCall } from './structured-dialect-call.js';
import type { DialectCall, ToolDialect } from './tool-dialect.js';

/** The grammars of the own formats (`xml_element`, `ptype`): the only ones read beside structured calls. */
const OWN_FORMAT_GRAMMARS: readonly CallSource[] = ['xml_element', 'ptype'];

/**
 * The prompt of a native request: behavioural guidance for the native channel when `json` tools
 * are declared, and the block of tools shown in their own format (`xml`, `ptype`), then the
 * forced-choice sentence when the choice names a tool shown as text (or asks for any call while
 * some tools are text).
 */
function nativeInstructions(tools: readonly ToolSchema[], choice: ToolChoice): string {
  if (choice.type === 'none' || tools.length === 0) return '';
  const { json, own } = splitToolsByFormat(tools);
  if (own.length === 0) return renderNativeProtocol();
  const pieces = [
    json.length === 0
      ? ''
      : '## Tool Use\n\nTools without a text syntax below are called through the function-calling interface. Make independent calls together in one turn; read each result before you answer.',
    renderOwnFormatTools(own),
    choice.type === 'auto' ? '' : toolChoiceInstruction(choice),
  ];
  return pieces.filter((piece) => piece !== '').join('\n\n');
}

/**
 * The tools a native request declares on the wire: the `json` ones. Tools with their own format
 * (`xml`, `ptype`) are shown in the prompt instead ({@link ToolDialect.promptInstructions}).
 */
export function nativeDeclaredTools(tools: readonly ToolSchema[]): readonly ToolSchema[] {
  return splitToolsByFormat(tools).json;
}

/**
 * The tool choice a native request sends beside {@link nativeDeclaredTools}: unchanged when every
 * tool is declared natively; `auto` when the choice forces a tool shown as text, or any call while
 * some tools are text (the prompt spells the choice out instead); `undefined` (send none) when no
 * tool is declared natively.
 */
export function nativeToolChoice(choice: ToolChoice | undefined, tools: readonly ToolSchema[]): ToolChoice | undefined {
  const { json, own } = splitToolsByFormat(tools);
  if (own.length === 0) return choice;
  if (json.length === 0) return undefined;
  if (choice?.type === 'required') return { type: 'auto' };
  if (choice?.type === 'tool' && own.some((tool) => tool.name === choice.toolName)) return { type: 'auto' };
  return choice;
}

/**
 * The native dialect: `json` tools travel on the wire as declarations and their calls come back
 * structured; tools with their own format (`xml`, `ptype`) are declared in the prompt in that
 * syntax and their calls are read back from the response text, beside structured calls in the same
 * turn. When a response has no structured calls, its text is read with every grammar the model
 * may use and the offered names (small models sometimes write the call as text); when that finds
 * calls the narrative replaces the text, and when it finds none the text is kept exactly as it
 * came. Results stay one tool message per native call; results of text calls come back in the
 * `[Tool results]` envelope. Without own-format tools the prompt block is behavioural guidance
 * only, no catalogue.
 */
export function createNativeDialect(): ToolDialect {
  return {
    kind: 'native',
    shouldSendToolSpecs: true,
    embedsToolCatalogue: false,
    promptInstructions: (tools, choice = { type: 'auto' }) => nativeInstructions(tools, choice),
    renderCall: (call, tools) => {
      const tool = tools.find((candidate) => candidate.name === call.name);
      if (tool === undefined || toolFormatOf(tool).type === 'json') return renderJsonCall(call.name, call.arguments);
      try {
        return renderToolCall(call, tool);
      } catch {
        return renderJsonCall(call.name, call.arguments);
      }
    },
    parseResponse(response, tools, options = {}) {
      const structured = response.toolCalls ?? [];
      if (structured.length > 0) {
        const calls: DialectCall[] = structured.map(structuredDialectCall);
        const { own } = splitToolsByFormat(tools);
        if (own.length === 0) return { text: response.content, replayText: response.content, calls, diagnostics: [] };
        // A turn may mix structured calls with calls written in a tool's own format.
        const written = parseToolCalls(response.content, { tools: own, toolCallFormats: OWN_FORMAT_GRAMMARS });
        if (written.calls.length === 0 && written.diagnostics.length === 0) {
          return { text: response.content, replayText: response.content, calls, diagnostics: [] };
        }
        return {
          text: written.text,
          replayText: written.text,
          calls: [...calls, ...written.calls],
          diagnostics: written.diagnostics,
        };
      }
      const toolCallFormats = withOwnFormatGrammars(options.toolCallFormats, tools);
      const parsed = parseToolCalls(response.content, { tools, toolCallFormats });
      if (parsed.calls.length === 0) {
        return { text: response.content, replayText: response.content, calls: [], diagnostics: parsed.diagnostics };
      }
      return { text: parsed.text, replayText: parsed.text, calls: parsed.calls, diagnostics: parsed.diagnostics };
    },
    formatResults: (results) =>
      results.map((result) => (result.toolCallId === '' ? { ...result, toolCallId: 'unknown' } : result)),
    toProviderMessages: (history, tools, choice = { type: 'auto' }) => {
      const paired = pairToolCycles(history);
      if (!tools.some((tool) => toolFormatOf(tool).type !== 'json')) return paired;
      return appendSystemInstructions(replayOwnFormatCalls(paired, tools), nativeInstructions(tools, choice));
    },
  };
}
