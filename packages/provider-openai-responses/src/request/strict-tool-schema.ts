import { type ToolSchema, toStrictSchema } from '@tiny/llm';

type JsonSchema = ToolSchema['parameters'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * True when `strict` (what `toStrictSchema` made of `declared`) differs from `declared` only by
 * `additionalProperties: false` where the declared object set none (keys the schema does not name
 * are no longer sent: every value the model can still send is valid against the declared schema)
 * and by the order of `required` (an empty `required` equals an absent one). A property made
 * nullable, a map or a free-form object closed (`properties: {}` added) is a difference.
 */
function sameLanguage(declared: unknown, strict: unknown): boolean {
  if (Array.isArray(declared) || Array.isArray(strict)) {
    if (!Array.isArray(declared) || !Array.isArray(strict) || declared.length !== strict.length) return false;
    return declared.every((item, index) => sameLanguage(item, strict[index]));
  }
  if (!isRecord(declared) || !isRecord(strict)) return Object.is(declared, strict);
  const keys = new Set([...Object.keys(declared), ...Object.keys(strict)]);
  for (const key of keys) {
    const left = declared[key];
    const right = strict[key];
    if (key === 'additionalProperties' && left === undefined && right === false) continue;
    if (key === 'required') {
      const a = Array.isArray(left) ? left : [];
      const b = Array.isArray(right) ? right : [];
      if (a.length !== b.length || !a.every((name) => b.includes(name))) return false;
      continue;
    }
    if (!sameLanguage(left, right)) return false;
  }
  return true;
}

/**
 * The schema to send with `strict: true` when strict mode would not change what the tool
 * accepts (every property required, no open objects or maps): `toStrictSchema` of it. `undefined`
 * when it would (an optional property made nullable, a map closed), so the tool is sent
 * non-strict and its arguments mean what the declared schema says.
 * @internal
 */
export function strictToolSchema(schema: JsonSchema): JsonSchema | undefined {
  const strict = toStrictSchema(schema);
  return sameLanguage(schema, strict) ? strict : undefined;
}
