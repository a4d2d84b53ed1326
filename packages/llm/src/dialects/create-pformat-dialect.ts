import { createPformatRegistry, type PformatRegistry } from '../pformat/create-pformat-registry.js';
import { renderPformatCall } from '../pformat/render-pformat-call.js';
import { renderPformatCatalogue } from '../pformat/render-pformat-catalogue.js';
import { renderPformatProtocol } from '../pformat/render-pformat-protocol.js';
import { renderJsonCall } from '../prompt/render-json-call.js';
import type { ToolSchema } from '../spec/tool-schema.js';
import { createTextDialect } from './create-text-dialect.js';
import { holdsEnvelopeTag } from './holds-envelope-tag.js';
import type { ToolDialect } from './tool-dialect.js';

const registries = new WeakMap<readonly ToolSchema[], PformatRegistry>();

/** The registry for a tool list, built once per list object. */
function registryOf(tools: readonly ToolSchema[]): PformatRegistry {
  let registry = registries.get(tools);
  if (registry === undefined) {
    registry = createPformatRegistry(tools);
    registries.set(tools, registry);
  }
  return registry;
}

/** A P-Format call in tags; the JSON form when P-Format cannot carry the arguments or a value holds a tag. */
function renderTaggedPformatCall(name: string, args: unknown, tools: readonly ToolSchema[]): string {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return renderJsonCall(name, args);
  const body = renderPformatCall(name, args as Record<string, unknown>, registryOf(tools));
  if (holdsEnvelopeTag(body)) return renderJsonCall(name, args);
  return `<tool_call>${body}</tool_call>`;
}

/**
 * The P-Format dialect: calls are `name[0|<a>|1|<b>]` inside `<tool_call>` tags, with slots in
 * the registry order (required first, then the rest alphabetically). The prompt holds the
 * P-Format protocol block and a separate `## Tools` catalogue of `Call as:` signatures; no
 * schemas go on the wire. A body that breaks the P-Format rules is refused, never guessed at;
 * the JSON form in the same tags is still read.
 */
export function createPformatDialect(): ToolDialect {
  return createTextDialect({
    kind: 'pformat',
    embedsToolCatalogue: false,
    renderProtocol: (tools) => `${renderPformatProtocol()}\n\n${renderPformatCatalogue(tools)}`,
    renderCatalogue: renderPformatCatalogue,
    renderCall: renderTaggedPformatCall,
  });
}
