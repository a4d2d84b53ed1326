import { isRecord } from '../pformat/json-value.js';
import { isTypeScriptIdentifier, propertyKey } from './render-typescript-type.js';

const pythonKeywords = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
);

/**
 * Writes a call as Python for the code dialect, the inverse of `parseCodeCallBody`:
 * `search(query="rust agents", limit=5)` with keywords in the order of `args`, or the single-dict
 * form `search({"max-results": 5})` when a key is not a usable Python keyword name.
 * Strings are double-quoted with JSON escapes; `True`/`False`/`None`; a number that is not finite
 * is written as `None`. `undefined` values are skipped; no arguments gives `search()`.
 */
export function renderPythonCall(name: string, args: Record<string, unknown>): string {
  const entries = Object.entries(args).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return `${name}()`;
  if (entries.every(([key]) => isTypeScriptIdentifier(key) && !key.includes('$') && !pythonKeywords.has(key))) {
    return `${name}(${entries.map(([key, value]) => `${key}=${pythonValue(value)}`).join(', ')})`;
  }
  return `${name}(${pythonValue(Object.fromEntries(entries))})`;
}

/**
 * Writes a call as TypeScript for the code dialect, the inverse of `parseCodeCallBody`:
 * `search({query: "rust agents", limit: 5})`, the single-object form, keys bare when they are
 * identifiers and quoted otherwise. A number that is not finite is written as `null`.
 * `undefined` values are skipped; no arguments gives `search()`.
 */
export function renderTypeScriptCall(name: string, args: Record<string, unknown>): string {
  const entries = Object.entries(args).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return `${name}()`;
  return `${name}(${typeScriptValue(Object.fromEntries(entries))})`;
}

function numberText(value: number): string | undefined {
  if (!Number.isFinite(value)) return undefined;
  return Object.is(value, -0) ? '-0' : String(value);
}

function pythonValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return numberText(value) ?? 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (Array.isArray(value)) return `[${value.map(pythonValue).join(', ')}]`;
  if (isRecord(value)) {
    const members = Object.entries(value).filter(([, member]) => member !== undefined);
    return `{${members.map(([key, member]) => `${JSON.stringify(key)}: ${pythonValue(member)}`).join(', ')}}`;
  }
  return 'None';
}

function typeScriptValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return numberText(value) ?? 'null';
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(typeScriptValue).join(', ')}]`;
  if (isRecord(value)) {
    const members = Object.entries(value).filter(([, member]) => member !== undefined);
    return `{${members.map(([key, member]) => `${propertyKey(key)}: ${typeScriptValue(member)}`).join(', ')}}`;
  }
  return 'null';
}
