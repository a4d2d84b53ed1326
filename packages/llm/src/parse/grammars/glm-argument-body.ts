import { setOwn } from '../own-properties.js';
import type { ToolKnowledge } from '../scan-context.js';
import type { RawCall } from '../scan-types.js';
import { declaresString } from './declared-string.js';
import { parameterValue, templateTrim } from './invoke-xml-arguments.js';

const KEY_OPEN = '<arg_key>';
const KEY_CLOSE = '</arg_key>';
const VALUE_OPEN = '<arg_value>';
const VALUE_CLOSE = '</arg_value>';
const namePattern = /^[A-Za-z0-9_.-]+$/;

/**
 * @internal Reads a GLM-4.5-style tag body, `NAME<arg_key>k</arg_key><arg_value>v</arg_value>...`
 * (whitespace allowed between the pieces; source `glm`). Values are JSON when they are numbers,
 * booleans, null, arrays or objects, else the text less the template's one newline on each side
 * (`templateTrim`); a parameter the offered tool declares as a string stays that text. A body that is only a name is a call
 * without arguments, but only when that name is an offered tool. `undefined` for any other shape.
 */
export function readGlmArgumentBody(body: string, knowledge: ToolKnowledge): RawCall | undefined {
  const firstKey = body.indexOf(KEY_OPEN);
  const name = (firstKey < 0 ? body : body.slice(0, firstKey)).trim();
  if (!namePattern.test(name)) return undefined;
  if (firstKey < 0) return knowledge.isKnown(name) ? { name, arguments: {}, source: 'glm' } : undefined;
  const args: Record<string, unknown> = {};
  let position = firstKey;
  while (position < body.length) {
    const keyStart = position + KEY_OPEN.length;
    const keyEnd = body.indexOf(KEY_CLOSE, keyStart);
    if (!body.startsWith(KEY_OPEN, position) || keyEnd < 0) return undefined;
    const valueOpen = skipBlank(body, keyEnd + KEY_CLOSE.length);
    if (!body.startsWith(VALUE_OPEN, valueOpen)) return undefined;
    const valueStart = valueOpen + VALUE_OPEN.length;
    const valueEnd = body.indexOf(VALUE_CLOSE, valueStart);
    if (valueEnd < 0) return undefined;
    const key = body.slice(keyStart, keyEnd).trim();
    if (key === '') return undefined;
    const raw = body.slice(valueStart, valueEnd);
    setOwn(args, key, declaresString(knowledge, name, key) ? templateTrim(raw) : parameterValue(raw));
    position = skipBlank(body, valueEnd + VALUE_CLOSE.length);
  }
  return { name, arguments: args, source: 'glm' };
}

function skipBlank(text: string, index: number): number {
  let position = index;
  while (position < text.length && text.charCodeAt(position) <= 32) position++;
  return position;
}
