import { FormatParseError } from '../errors/format-parse-error.js';
import { FormatRenderError } from '../errors/format-render-error.js';
import { isRecord, setOwn } from '../schema/map-subschemas.js';
import {
  admits,
  allowedTypes,
  arrayItemSchema,
  chooseObjectVariant,
  derefSchema,
  type JsonTypeName,
  objectVariants,
  propertySchema,
} from '../schema/schema-shape.js';
import type { ToolSchema } from '../spec/tool-schema.js';
import { clipName, type FormatParseResult } from './format-parse-result.js';
import { escapeXmlText, isXmlName, readXmlTree, type XmlElement } from './xml-tree.js';

export { renderXmlDeclaration } from './xml-declaration.js';

/** The element name of each array entry. */
const itemName = 'item';
const jsonNumber = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/**
 * Writes a call in the `xml` format: the tool name is the root element and each argument one
 * child element, `<weather><city>Oslo</city></weather>`, on one line. Typing rules, which
 * {@link parseXmlCall} reverses exactly for arguments valid against the schema:
 * - `null` is a self-closing element `<field/>`; `""`, `{}` and `[]` are an empty pair `<field></field>`.
 * - strings are written verbatim with `&`, `<`, `>` escaped; numbers and booleans as JSON text.
 * - objects nest one element per property; arrays repeat an `<item>` element per entry.
 * - a field whose schema states no type (`{}`) holds its value as JSON text.
 *
 * @throws {FormatRenderError} when the tool or a property name is not a valid element name.
 */
export function renderXmlCall(call: { readonly name: string; readonly arguments: unknown }, tool: ToolSchema): string {
  if (!isXmlName(call.name)) {
    throw new FormatRenderError({ format: 'xml', reason: `\`${call.name}\` is not a valid element name` });
  }
  return renderElement(call.name, call.arguments ?? {}, tool.parameters, tool.parameters);
}

function renderElement(name: string, value: unknown, schema: unknown, root: unknown): string {
  if (value === null) return `<${name}/>`;
  const types = allowedTypes(schema, root);
  let body: string;
  if (types === 'any') body = escapeXmlText(JSON.stringify(value) ?? 'null');
  else if (Array.isArray(value)) {
    body = value
      .map((entry, index) => renderElement(itemName, entry, arrayItemSchema(schema, root, index), root))
      .join('');
  } else if (isRecord(value)) {
    const keys = Object.keys(value).filter((key) => value[key] !== undefined);
    const variant = chooseObjectVariant(objectVariants(schema, root), keys);
    body = keys
      .map((key) => {
        if (!isXmlName(key)) {
          throw new FormatRenderError({ format: 'xml', reason: `property "${key}" is not a valid element name` });
        }
        return renderElement(key, value[key], variant ? (propertySchema(variant, key) ?? true) : true, root);
      })
      .join('');
  } else if (typeof value === 'string') body = escapeXmlText(value);
  else body = escapeXmlText(JSON.stringify(value) ?? 'null');
  return `<${name}>${body}</${name}>`;
}

/**
 * Reads a call written in the `xml` format and types every value through the tool's schema
 * (integers, numbers, booleans and `null` from their text; a field that admits strings keeps its
 * text verbatim, even `5` or `true`). Whitespace between elements is ignored; CDATA sections,
 * the five named entities and numeric references are decoded; comments are skipped. Lenient
 * only where nothing is guessed: a stray `&` or `<` is kept as text, and an object or array field
 * may hold its value as JSON text. In a field admitting both strings and other scalars, text is
 * read as a string; in an enum, a member whose text matches wins (a string member first).
 *
 * Errors (`ok: false`), never guesses: a root element other than the tool's name
 * (`unknown_tool`), an element the schema does not declare (`unknown_field`; extra elements are
 * allowed only when `additionalProperties` is `true` or a schema, or the object declares no
 * `properties`), the same element twice in an object, an array entry not named `item`, text that
 * is not of the field's type (`type_mismatch`), text mixed with elements, unclosed or mismatched
 * tags, attributes, and text around the root element.
 */
export function parseXmlCall(text: string, tool: ToolSchema): FormatParseResult {
  try {
    const root = readXmlTree(text);
    if (root.name !== tool.name) {
      return fail('unknown_tool', `expected <${tool.name}>, got <${clipName(root.name)}>`, root.offset);
    }
    const blank = root.children.every((child) => child.kind === 'text' && child.text.trim() === '');
    const value = blank ? {} : readValue(root, tool.parameters, tool.parameters, root.name);
    if (!isRecord(value))
      return fail('type_mismatch', `<${tool.name}> must hold one element per argument`, root.offset);
    return { ok: true, call: { name: tool.name, arguments: value } };
  } catch (error) {
    if (FormatParseError.isInstance(error)) return { ok: false, error };
    throw error;
  }
}

function fail(kind: FormatParseError['kind'], reason: string, offset: number): FormatParseResult {
  return { ok: false, error: new FormatParseError({ format: 'xml', kind, reason, offset }) };
}

function mismatch(path: string, reason: string, offset: number): FormatParseError {
  return new FormatParseError({ format: 'xml', kind: 'type_mismatch', reason: `${path} ${reason}`, offset });
}

function readValue(element: XmlElement, schema: unknown, root: unknown, path: string): unknown {
  const types = allowedTypes(schema, root);
  const elements = element.children.filter((child): child is XmlElement => child.kind === 'element');
  const text = element.children.map((child) => (child.kind === 'text' ? child.text : '')).join('');
  if (elements.length > 0) {
    if (text.trim() !== '') throw mismatch(path, 'mixes text and elements', element.offset);
    return readContainer(element, elements, schema, types, root, path);
  }
  if (text === '' || (text.trim() === '' && !admits(types, 'string'))) return readEmpty(element, types, path);
  return readScalar(text, derefSchema(schema, root), types, path, element.offset);
}

function readEmpty(element: XmlElement, types: ReadonlySet<JsonTypeName> | 'any', path: string): unknown {
  if (types === 'any') return element.selfClosing ? null : '';
  if (element.selfClosing && types.has('null')) return null;
  if (types.has('string')) return '';
  if (types.has('object')) return {};
  if (types.has('array')) return [];
  if (types.has('null')) return null;
  throw mismatch(path, `is empty but must be ${[...types].join(' or ') || 'absent'}`, element.offset);
}

function readScalar(
  text: string,
  node: unknown,
  types: ReadonlySet<JsonTypeName> | 'any',
  path: string,
  offset: number,
): unknown {
  if (isRecord(node) && Array.isArray(node.enum)) {
    const member = matchEnum(node.enum, text) ?? matchEnum(node.enum, text.trim());
    if (member !== undefined) return member.value;
  }
  const trimmed = text.trim();
  if (types === 'any') {
    try {
      return JSON.parse(trimmed) as unknown;
    } catch {
      return text;
    }
  }
  if (types.has('string')) return text;
  if (types.has('boolean') && (trimmed === 'true' || trimmed === 'false')) return trimmed === 'true';
  if ((types.has('number') || types.has('integer')) && jsonNumber.test(trimmed)) {
    const number = Number(trimmed);
    if (Number.isFinite(number)) return number;
  }
  if (types.has('null') && trimmed === 'null') return null;
  if ((types.has('object') && trimmed.startsWith('{')) || (types.has('array') && trimmed.startsWith('['))) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (Array.isArray(parsed) ? types.has('array') : isRecord(parsed)) return parsed;
    } catch {
      // Reported below as a type mismatch.
    }
  }
  throw mismatch(path, `must be ${[...types].join(' or ') || 'absent'}`, offset);
}

function matchEnum(members: readonly unknown[], text: string): { value: unknown } | undefined {
  let found: { value: unknown } | undefined;
  for (const member of members) {
    const written = typeof member === 'string' ? member : JSON.stringify(member);
    if (written !== text) continue;
    if (typeof member === 'string') return { value: member };
    found ??= { value: member };
  }
  return found;
}

function readContainer(
  element: XmlElement,
  elements: readonly XmlElement[],
  schema: unknown,
  types: ReadonlySet<JsonTypeName> | 'any',
  root: unknown,
  path: string,
): unknown {
  const allItems = elements.every((child) => child.name === itemName);
  if (admits(types, 'array') && (!admits(types, 'object') || allItems)) {
    return elements.map((child, index) => {
      const entryPath = `${path}[${index}]`;
      if (child.name !== itemName) {
        throw new FormatParseError({
          format: 'xml',
          kind: 'unknown_field',
          reason: `${path} is a list: write each entry as <${itemName}>, not <${clipName(child.name)}>`,
          offset: child.offset,
        });
      }
      return readValue(child, arrayItemSchema(schema, root, index), root, entryPath);
    });
  }
  if (!admits(types, 'object'))
    throw mismatch(path, `must be ${[...types].join(' or ')}, not elements`, element.offset);
  const seen = new Set<string>();
  for (const child of elements) {
    if (seen.has(child.name)) {
      throw new FormatParseError({
        format: 'xml',
        kind: 'duplicate_field',
        reason: `${path} has <${clipName(child.name)}> more than once`,
        offset: child.offset,
      });
    }
    seen.add(child.name);
  }
  const variants = objectVariants(schema, root);
  // Without a fitting variant, the first one names the element it does not declare.
  const variant = chooseObjectVariant(variants, [...seen]) ?? variants[0];
  const out: Record<string, unknown> = {};
  for (const child of elements) {
    const childSchema = variant ? propertySchema(variant, child.name) : true;
    if (childSchema === undefined) {
      throw new FormatParseError({
        format: 'xml',
        kind: 'unknown_field',
        reason: `${path} has no field <${clipName(child.name)}>`,
        offset: child.offset,
      });
    }
    setOwn(out, child.name, readValue(child, childSchema, root, `${path}.${child.name}`));
  }
  return out;
}
