import { coercePformatValue } from './coerce-pformat-value.js';
import type { PformatRegistry } from './create-pformat-registry.js';
import { setOwn } from './json-value.js';

/** A call read from a P-Format body. */
export interface PformatCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

/**
 * Reads one P-Format call such as `search[0|rust agents|1|5]` from the trimmed body of a call tag.
 * Returns `undefined` (refuse, so other grammars may try) unless all of these hold: the body is a
 * name of ASCII letters, digits and `_` (optionally followed by spaces), `[`, slot pairs, and one
 * unescaped `]` as its last character; the name is in the registry; the parts between `|`
 * separators come in pairs; every index is decimal digits naming an existing slot.
 *
 * An empty value removes its key and a repeated slot overwrites, so the last write wins.
 * `\|`, `\]` and `\\` are the only escapes; any other backslash is kept. Values are coerced with
 * their declared parameter types (numbers, booleans, JSON arrays and objects; a value that does not
 * convert stays a string); `name[]` gives `{}`. Runs in linear time and never throws.
 */
export function parsePformatBody(body: string, registry: PformatRegistry): PformatCall | undefined {
  const text = body.trim();
  const open = text.indexOf('[');
  if (open <= 0 || !text.endsWith(']')) return undefined;
  const name = text.slice(0, open).trimEnd();
  if (!isPformatName(name)) return undefined;
  const parameters = registry.get(name);
  if (parameters === undefined) return undefined;
  const parts = splitSlots(text, open + 1);
  if (parts === undefined || parts.length % 2 !== 0) return undefined;

  const args: Record<string, unknown> = {};
  for (let index = 0; index < parts.length; index += 2) {
    const slot = slotIndex(parts[index] ?? '', parameters.names.length);
    if (slot === undefined) return undefined;
    const key = parameters.names[slot] ?? '';
    const value = parts[index + 1] ?? '';
    if (value === '') delete args[key];
    else setOwn(args, key, coercePformatValue(value, parameters.types[slot] ?? 'any'));
  }
  return { name, arguments: args };
}

/**
 * Splits the text after `[` on unescaped `|`, decoding escapes. Returns `undefined` unless the first
 * unescaped `]` is the last character. An empty bracket gives no parts.
 */
function splitSlots(text: string, start: number): string[] | undefined {
  const parts: string[] = [];
  let chunks: string[] = [];
  let runStart = start;
  let index = start;
  while (index < text.length) {
    const character = text[index];
    if (character === '\\') {
      const next = text[index + 1];
      if (next === '|' || next === ']' || next === '\\') {
        chunks.push(text.slice(runStart, index), next);
        index += 2;
        runStart = index;
      } else {
        index++;
      }
      continue;
    }
    if (character === '|') {
      chunks.push(text.slice(runStart, index));
      parts.push(chunks.join(''));
      chunks = [];
      runStart = index + 1;
    } else if (character === ']') {
      if (index !== text.length - 1) return undefined;
      if (index === start) return parts;
      chunks.push(text.slice(runStart, index));
      parts.push(chunks.join(''));
      return parts;
    }
    index++;
  }
  return undefined;
}

function slotIndex(text: string, count: number): number | undefined {
  const trimmed = text.trim();
  if (trimmed.length === 0 || trimmed.length > 9) return undefined;
  for (let index = 0; index < trimmed.length; index++) {
    const code = trimmed.charCodeAt(index);
    if (code < 48 || code > 57) return undefined;
  }
  const slot = Number(trimmed);
  return slot < count ? slot : undefined;
}

/** @internal Whether `name` is non-empty ASCII letters, digits and underscores. */
export function isPformatName(name: string): boolean {
  if (name.length === 0) return false;
  for (let index = 0; index < name.length; index++) {
    const code = name.charCodeAt(index);
    const ok = (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
    if (!ok) return false;
  }
  return true;
}
