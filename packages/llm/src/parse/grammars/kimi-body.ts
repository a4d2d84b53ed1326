import { recoverArgumentsObject } from '../../repair/recover-arguments-object.js';
import { parseJsonStrict } from '../extract-json-values.js';
import { isRecord } from '../own-properties.js';
import type { RawCall } from '../scan-types.js';
import { isWordCode } from '../text-scanning.js';

const quoteToken = '<|"|>';

/**
 * @internal Reads a Kimi-family body, `NAME{key:<|"|>value<|"|>, n:1}`: a name of ASCII letters,
 * digits and `_`, then one object with unquoted keys and `<|"|>` in place of `"`. Returns
 * `undefined` for any other shape (a body starting with `{`, a P-Format `name[...]` body, trailing
 * text after the object).
 */
export function readKimiBody(body: string): RawCall | undefined {
  const brace = body.indexOf('{');
  if (brace <= 0) return undefined;
  const name = body.slice(0, brace).trim();
  if (name === '') return undefined;
  for (let index = 0; index < name.length; index++) {
    if (!isWordCode(name.charCodeAt(index))) return undefined;
  }
  const object = body.slice(brace).split(quoteToken).join('"').trim();
  if (!object.endsWith('}')) return undefined;
  const strict = parseJsonStrict(object);
  if (strict !== undefined && isRecord(strict.value)) {
    return { name, arguments: strict.value, source: 'tagged_json' };
  }
  const recovered = recoverArgumentsObject(object);
  if (recovered === undefined) return undefined;
  return { name, arguments: recovered, source: 'tagged_json', repaired: true };
}
