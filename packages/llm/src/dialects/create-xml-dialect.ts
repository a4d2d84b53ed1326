import { renderJsonCall } from '../prompt/render-json-call.js';
import { renderJsonCatalogue, renderJsonProtocol } from '../prompt/render-json-protocol.js';
import { createTextDialect } from './create-text-dialect.js';
import type { ToolDialect } from './tool-dialect.js';

/**
 * The tagged-JSON dialect: calls are JSON objects inside `<tool_call>` tags, the system prompt
 * carries the Tool Use Protocol block with the full-schema catalogue embedded, and no schemas go
 * on the wire. Its prompt equals `toolInstructions(tools, choice)` when no tool has its own format
 * (`xml` and `ptype` tools are declared after the block, in their own syntax).
 */
export function createTaggedJsonDialect(): ToolDialect {
  return createTextDialect({
    kind: 'tagged_json',
    embedsToolCatalogue: true,
    renderProtocol: renderJsonProtocol,
    renderCatalogue: renderJsonCatalogue,
    renderCall: (name, args) => renderJsonCall(name, args),
  });
}

/**
 * @deprecated The old name of {@link createTaggedJsonDialect} (the dialect writes JSON inside tags,
 * not XML elements); it creates the same `tagged_json` dialect.
 */
export function createXmlDialect(): ToolDialect {
  return createTaggedJsonDialect();
}
