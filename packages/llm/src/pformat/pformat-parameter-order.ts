import type { JsonSchema } from '@tiny/tools';
import { isRecord } from './json-value.js';

/**
 * The positional order of a tool's parameters, shared by every P-Format and code-call renderer and
 * parser: the names in `required` in their declared order, then the remaining `properties` sorted
 * by UTF-16 code unit (locale-independent, so prompts stay byte-stable).
 *
 * A required name without a matching property still gets a slot; duplicate and non-string
 * `required` entries are skipped. A schema without `properties` or `required` has no parameters.
 */
export function pformatParameterOrder(schema: JsonSchema): string[] {
  const order: string[] = [];
  const seen = new Set<string>();
  const required = schema.required;
  if (Array.isArray(required)) {
    for (const entry of required) {
      if (typeof entry !== 'string' || seen.has(entry)) continue;
      seen.add(entry);
      order.push(entry);
    }
  }
  const properties = schema.properties;
  if (isRecord(properties)) {
    const rest = Object.keys(properties).filter((key) => !seen.has(key));
    rest.sort(compareCodeUnits);
    order.push(...rest);
  }
  return order;
}

function compareCodeUnits(left: string, right: string): number {
  if (left < right) return -1;
  return left > right ? 1 : 0;
}
