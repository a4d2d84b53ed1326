import { isRecord } from '../own-properties.js';
import type { ToolKnowledge } from '../scan-context.js';

/**
 * @internal Whether the offered tool `tool` declares parameter `parameter` as a string (`type:
 * "string"`, or a type list whose only non-null member is `string`). In element-per-field
 * formats (invoke-XML, GLM) such a value stays text: `5123123` and `true` are kept as written.
 * Without a schema for it, values are decoded as before (numbers, booleans, JSON).
 */
export function declaresString(knowledge: ToolKnowledge, tool: string, parameter: string): boolean {
  const schema = knowledge.tools.find((entry) => entry.name === tool)?.parameters;
  const properties = isRecord(schema) ? schema.properties : undefined;
  const declared = isRecord(properties) ? properties[parameter] : undefined;
  if (!isRecord(declared) || !Object.hasOwn(properties as object, parameter)) return false;
  const type = declared.type;
  if (type === 'string') return true;
  if (!Array.isArray(type)) return false;
  const concrete = type.filter((entry) => entry !== 'null');
  return concrete.length === 1 && concrete[0] === 'string';
}
