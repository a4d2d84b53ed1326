import type { ToolSchema } from '../spec/tool-schema.js';
import { pformatParameterOrder } from './pformat-parameter-order.js';

/**
 * Renders how a tool is called in P-Format: `search[0|<query>|1|<limit>]`, slots in
 * {@link pformatParameterOrder}, each parameter shown as a `<name>` placeholder (models copy bare
 * names literally); a tool without parameters is `name[]`.
 */
export function renderPformatSignature(tool: ToolSchema): string {
  const names = pformatParameterOrder(tool.parameters);
  const slots = names.map((name, slot) => `${slot}|<${name}>`);
  return `${tool.name}[${slots.join('|')}]`;
}
