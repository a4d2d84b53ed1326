import { collapseDescription } from '../pformat/collapse-description.js';
import { isRecord } from '../pformat/json-value.js';
import { pformatParameterOrder } from '../pformat/pformat-parameter-order.js';
import type { ToolSchema } from '../spec/tool-schema.js';
import { renderTypeScriptType } from './render-typescript-type.js';

/**
 * Renders a tool as one TypeScript declaration line for the code dialect's catalogue:
 * `function search(query: string, limit?: number): string;  // Search the web.`
 *
 * Parameters follow the P-Format order (required first, in declared order, then the rest
 * alphabetically), so positional calls bind as shown; optional ones are marked `?`. Enums become
 * literal unions and objects inline types up to depth 4 and 16 properties; see the type rules of
 * `renderTypeScriptType`. The return type is the tool's `outputSchema` rendered by the same rules, or
 * `string` without one. The description is collapsed to one
 * line and the comment is left out when it is empty.
 */
export function renderTypeScriptSignature(tool: ToolSchema): string {
  const properties = isRecord(tool.parameters.properties) ? tool.parameters.properties : {};
  const required = Array.isArray(tool.parameters.required) ? tool.parameters.required : [];
  const parameters = pformatParameterOrder(tool.parameters).map((name) => {
    const type = renderTypeScriptType(Object.hasOwn(properties, name) ? properties[name] : undefined);
    return required.includes(name) ? `${name}: ${type}` : `${name}?: ${type}`;
  });
  const description = collapseDescription(tool.description);
  const returns = tool.outputSchema === undefined ? 'string' : renderTypeScriptType(tool.outputSchema);
  const signature = `function ${tool.name}(${parameters.join(', ')}): ${returns};`;
  return description === '' ? signature : `${signature}  // ${description}`;
}
