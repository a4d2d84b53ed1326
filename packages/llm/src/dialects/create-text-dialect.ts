import { foldToolResults } from '../envelope/fold-tool-results.js';
import { toolResultEntryFrom } from '../envelope/tool-result-entry-from.js';
import { renderOwnFormatTools, splitToolsByFormat, writesOwnFormat } from '../formats/render-format-tools.js';
import { renderToolCall } from '../formats/tool-format-dispatch.js';
import { parseToolCalls } from '../parse/parse-tool-calls.js';
import { coalesceToolResults } from '../prompt/coalesce-tool-results.js';
import { ensureResolvableUserTurn } from '../prompt/ensure-resolvable-user-turn.js';
import { placeSystemPrompt } from '../prompt/place-system-prompt.js';
import { toolChoiceInstruction } from '../prompt/tool-instructions.js';
import { appendSystemInstructions } from '../prompt/with-tool-instructions.js';
import type { ToolChoice } from '../spec/tool-choice.js';
import type { ToolSchema } from '../spec/tool-schema.js';
import { pairToolCycles } from '../transcript/pair-tool-cycles.js';
import { structuredDialectCall } from './structured-dialect-call.js';
import type { DeprecatedToolDialectKind, ToolDialect, ToolDialectKind, ToolPromptOptions } from './tool-dialect.js';

/**
 * What sets one text dialect apart from another.
 *
 * @internal
 */
export interface TextDialectSpecification {
  readonly kind: Exclude<ToolDialectKind, 'native' | DeprecatedToolDialectKind>;
  readonly embedsToolCatalogue: boolean;
  /** The full tool prompt: protocol block and catalogue. */
  renderProtocol(tools: readonly ToolSchema[]): string;
  /** The catalogue alone, for tools listed although the host renders its own. */
  renderCatalogue(tools: readonly ToolSchema[]): string;
  /** One call, tags included, the way the model is taught to write it. */
  renderCall(name: string, args: unknown, tools: readonly ToolSchema[]): string;
}

/**
 * Joins the instruction pieces of a text dialect: the protocol block and catalogue (or, when
 * the host renders its own catalogue, only the catalogue of the always-listed tools), then the
 * forced-choice sentence, separated by blank lines.
 *
 * @internal
 */
export function textDialectInstructions(
  specification: TextDialectSpecification,
  tools: readonly ToolSchema[],
  choice: ToolChoice,
  options: ToolPromptOptions,
): string {
  if (choice.type === 'none' || tools.length === 0) return '';
  let block: string;
  if (options.hostRendersCatalogue === true) {
    const listed = new Set(options.alwaysListed ?? []);
    const shown = splitToolsByFormat(tools.filter((tool) => listed.has(tool.name)));
    block = [shown.json.length === 0 ? '' : specification.renderCatalogue(shown.json), renderOwnFormatTools(shown.own)]
      .filter((piece) => piece !== '')
      .join('\n\n');
  } else {
    // Tools with their own format (`xml`, `ptype`) are declared in that syntax, after the dialect's block.
    const { json, own } = splitToolsByFormat(tools);
    block = [json.length === 0 ? '' : specification.renderProtocol(json), renderOwnFormatTools(own)]
      .filter((piece) => piece !== '')
      .join('\n\n');
  }
  return [block, toolChoiceInstruction(choice)].filter((piece) => piece !== '').join('\n\n');
}

/**
 * One call as a text dialect writes it: in the tool's own format when it has one (`xml`, `ptype`;
 * the dialect's syntax when that format cannot carry the arguments), else in the dialect's syntax.
 */
function renderDialectCall(
  specification: TextDialectSpecification,
  name: string,
  args: unknown,
  tools: readonly ToolSchema[],
): string {
  const tool = tools.find((candidate) => candidate.name === name);
  if (
    tool !== undefined &&
    writesOwnFormat(tool) &&
    typeof args === 'object' &&
    args !== null &&
    !Array.isArray(args)
  ) {
    try {
      return renderToolCall({ name, arguments: args }, tool);
    } catch {
      // The dialect's own syntax below.
    }
  }
  return specification.renderCall(name, args, tools);
}

/**
 * Builds a dialect whose tools live in the prompt and whose calls are read back from text.
 *
 * @internal
 */
export function createTextDialect(specification: TextDialectSpecification): ToolDialect {
  const dialect: ToolDialect = {
    kind: specification.kind,
    shouldSendToolSpecs: false,
    embedsToolCatalogue: specification.embedsToolCatalogue,
    promptInstructions: (tools, choice = { type: 'auto' }, options = {}) =>
      textDialectInstructions(specification, tools, choice, options),
    renderCall: (call, tools) => renderDialectCall(specification, call.name, call.arguments, tools),
    parseResponse(response, tools) {
      const structured = response.toolCalls ?? [];
      if (structured.length > 0) {
        const calls = structured.map(structuredDialectCall);
        return { text: response.content, replayText: response.content, calls, diagnostics: [] };
      }
      const parsed = parseToolCalls(response.content, { tools });
      return { text: parsed.text, replayText: response.content, calls: parsed.calls, diagnostics: parsed.diagnostics };
    },
    formatResults: (results) => foldToolResults(results.map(toolResultEntryFrom)),
    toProviderMessages(history, tools, choice = { type: 'auto' }, options = {}) {
      const renderCall = (name: string, args: unknown): string => renderDialectCall(specification, name, args, tools);
      const coalesced = coalesceToolResults(pairToolCycles(history), { renderCall, tools });
      const instructions = textDialectInstructions(specification, tools, choice, options);
      const messages = appendSystemInstructions(ensureResolvableUserTurn(coalesced), instructions);
      return placeSystemPrompt(messages, options.systemPrompt);
    },
  };
  return dialect;
}
