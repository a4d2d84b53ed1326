import { renderPythonCall, renderTypeScriptCall } from '../code-call/render-code-call.js';
import { type CodeLanguage, renderCodeCatalogue } from '../code-call/render-code-catalogue.js';
import { renderCodeProtocol } from '../code-call/render-code-protocol.js';
import { renderJsonCall } from '../prompt/render-json-call.js';
import { createTextDialect } from './create-text-dialect.js';
import { holdsEnvelopeTag } from './holds-envelope-tag.js';
import type { ToolDialect } from './tool-dialect.js';

/** A code call in tags; the JSON form when the arguments are not an object or a value holds a tag. */
function renderTaggedCodeCall(language: CodeLanguage, name: string, args: unknown): string {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return renderJsonCall(name, args);
  const record = args as Record<string, unknown>;
  const body = language === 'python' ? renderPythonCall(name, record) : renderTypeScriptCall(name, record);
  return holdsEnvelopeTag(body) ? renderJsonCall(name, args) : `<tool_call>${body}</tool_call>`;
}

/**
 * The code dialect: calls are Python (`search(query="rust agents", limit=5)`) or TypeScript
 * (`search({query: "rust agents"})`) statements inside `<tool_call>` tags. The prompt holds the
 * code protocol block and a `## Tools` list of signatures (`def …` / `function …`); no schemas go
 * on the wire. A tag whose body is not all literal calls to offered tools is refused as a whole.
 */
export function createCodeDialect(language: CodeLanguage): ToolDialect {
  return createTextDialect({
    kind: language,
    embedsToolCatalogue: false,
    renderProtocol: (tools) => `${renderCodeProtocol(language)}\n\n${renderCodeCatalogue(tools, language)}`,
    renderCatalogue: (tools) => renderCodeCatalogue(tools, language),
    renderCall: (name, args) => renderTaggedCodeCall(language, name, args),
  });
}
