import { collapseDescription } from '../pformat/collapse-description.js';
import { isRecord } from '../pformat/json-value.js';
import { pformatParameterOrder } from '../pformat/pformat-parameter-order.js';
import type { ToolSchema } from '../spec/tool-schema.js';
import { renderPythonType } from './render-python-type.js';

/**
 * Renders a tool as one Python signature line for the code dialect's catalogue:
 * `def search(query: str, limit: int = None) -> str  # Search the web.`
 *
 * Parameters follow the P-Format order (required first, in declared order, then the rest
 * alphabetically), so positional calls bind as shown; optional ones get `= None`. Every object is
 * `dict`; enums become `Literal[...]`; see the type rules of `renderPythonType`. The return type is
 * the tool's `outputSchema` rendered by the same rules (`dict` for an object), or `str` without one. The description is collapsed to one line and the comment is left out when it is empty.
 * Names are written as given, even when they are not Python identifiers.
 */
export function renderPythonSignature(tool: ToolSchema): string {
  const properties = isRecord(tool.parameters.properties) ? tool.parameters.properties : {};
  const required = Array.isArray(tool.parameters.required) ? tool.parameters.required : [];
  const parameters = pformatParameterOrder(tool.parameters).map((name) => {
    const type = renderPythonType(Object.hasOwn(properties, name) ? properties[name] : undefined);
    return required.includes(name) ? `${name}: ${type}` : `${name}: ${type} = None`;
  });
  const description = collapseDescription(tool.description);
  const returns = tool.outputSchema === undefined ? 'str' : renderPythonType(tool.outputSchema);
  const signature = `def ${tool.name}(${parameters.join(', ')}) -> ${returns}`;
  return description === '' ? signature : `${signature}  # ${description}`;
}
