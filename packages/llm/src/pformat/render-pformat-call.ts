import { coercePformatValue } from './coerce-pformat-value.js';
import type { PformatRegistry } from './create-pformat-registry.js';
import { jsonEqual } from './json-value.js';
import { isPformatName } from './parse-pformat-body.js';

/**
 * Writes a call as a P-Format body (`search[0|rust agents|1|5]`), the inverse of
 * `parsePformatBody`: slots in parameter order, `\`, `|` and `]` escaped, arrays and objects as
 * JSON. Arguments whose value is `undefined` are skipped.
 *
 * When the call cannot be written so that it parses back to the same arguments (the tool is not
 * in the registry, its name is not a P-Format name, a key is not a parameter, a value is the empty
 * string, or a value would be read back as another type, like the string `"5"` for an integer
 * slot), it returns the JSON fallback body `{"name":…,"arguments":{…}}` instead.
 */
export function renderPformatCall(name: string, args: Record<string, unknown>, registry: PformatRegistry): string {
  const fallback = JSON.stringify({ name, arguments: args });
  const parameters = registry.get(name);
  if (parameters === undefined || !isPformatName(name)) return fallback;
  const present = Object.keys(args).filter((key) => args[key] !== undefined);
  const slots: string[] = [];
  for (const [slot, key] of parameters.names.entries()) {
    if (!Object.hasOwn(args, key) || args[key] === undefined) continue;
    const value = args[key];
    const text = slotText(value);
    if (text === undefined || text === '') return fallback;
    if (!jsonEqual(coercePformatValue(text, parameters.types[slot] ?? 'any'), value)) return fallback;
    slots.push(String(slot), escapePformatValue(text));
  }
  if (slots.length / 2 !== present.length) return fallback;
  return `${name}[${slots.join('|')}]`;
}

/** @internal Escapes `\`, `|` and `]` in a slot value. */
export function escapePformatValue(text: string): string {
  let escaped = '';
  let runStart = 0;
  for (let index = 0; index < text.length; index++) {
    const character = text[index];
    if (character === '\\' || character === '|' || character === ']') {
      escaped += `${text.slice(runStart, index)}\\${character}`;
      runStart = index + 1;
    }
  }
  return escaped + text.slice(runStart);
}

function slotText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    return Object.is(value, -0) ? '-0' : String(value);
  }
  if (typeof value === 'boolean') return String(value);
  if (value === null) return 'null';
  if (typeof value === 'object') {
    try {
      return JSON.stringify(value);
    } catch {
      return undefined;
    }
  }
  return undefined;
}
