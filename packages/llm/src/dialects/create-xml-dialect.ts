import { renderJsonCall } from '../prompt/render-json-call.js';
import { renderJsonCatalogue, renderJsonProtocol } from '../prompt/render-json-protocol.js';
import { createTextDialect } from './create-text-dialect.js';
import type { ToolDialect } from './tool-dialect.js';

/**
 * The XML dialect: calls are JSON objects inside `<tool_call>` tags, the system prompt carries
 * the Tool Use Protocol block with the full-schema catalogue embedded, and no schemas go on the
 * wire. Its prompt equals `toolInstructions(tools, choice)`.
 */
export function createXmlDialect(): ToolDialect {
  return createTextDialect({
    kind: 'xml',
    embedsToolCatalogue: true,
    renderProtocol: renderJsonProtocol,
    renderCatalogue: renderJsonCatalogue,
    renderCall: (name, args) => renderJsonCall(name, args),
  });
}
