import { FormatParseError } from '../errors/format-parse-error.js';
import { FormatRenderError } from '../errors/format-render-error.js';
import { isRecord, setOwn } from '../schema/map-subschemas.js';
import { allowsNull, derefSchema } from '../schema/schema-shape.js';
import type { ToolSchema } from '../spec/tool-schema.js';
import { describeSchemaType } from './describe-schema-type.js';
import { clipName, type FormatParseResult, formatFailure } from './format-parse-result.js';
import { readLiteral } from './read-literal.js';

/**
 * The positional parameter names of a tool: `format.parameters` for a `ptype` tool, else the
 * schema's property names in declaration order.
 */
function parameterNames(tool: ToolSchema): readonly string[] {
  if (tool.format?.type === 'ptype') return tool.format.parameters;
  const root = derefSchema(tool.parameters, tool.parameters);
  return isRecord(root) && isRecord(root.properties) ? Object.keys(root.properties) : [];
}

function parameterSchema(tool: ToolSchema, name: string): unknown {
  const root = derefSchema(tool.parameters, tool.parameters);
  if (!isRecord(root) || !isRecord(root.properties) || !Object.hasOwn(root.properties, name)) return true;
  return root.properties[name];
}

function isCallName(name: string): boolean {
  return name !== '' && !/[\s(),"']/.test(name);
}

/**
 * Describes a tool for a prompt in the `ptype` format: the signature with one typed slot per
 * parameter in positional order (`search(query: string, limit?: integer)`, `?` marking optional
 * ones), the description, and one line per parameter that has a description.
 */
export function renderPtypeDeclaration(tool: ToolSchema): string {
  const root = derefSchema(tool.parameters, tool.parameters);
  const required = new Set(isRecord(root) && Array.isArray(root.required) ? root.required : []);
  const names = parameterNames(tool);
  const slots = names.map((name) => {
    const type = describeSchemaType(parameterSchema(tool, name), tool.parameters, { quoteStrings: true });
    return `${name}${required.has(name) ? '' : '?'}: ${type}`;
  });
  const lines = [`${tool.name}(${slots.join(', ')})`];
  if ((tool.description ?? '').trim() !== '') lines.push(`  ${(tool.description ?? '').trim()}`);
  for (const name of names) {
    const schema = derefSchema(parameterSchema(tool, name), tool.parameters);
    if (isRecord(schema) && typeof schema.description === 'string' && schema.description.trim() !== '') {
      lines.push(`  ${name}: ${schema.description.trim()}`);
    }
  }
  return lines.join('\n');
}

/**
 * Writes a call in the `ptype` format, `search("rust agents", 5)`: values in the order of
 * `format.parameters`, each as a JSON literal. Omitted parameters after the last present one are
 * left out. An omitted parameter *before* a present one (a gap) is written as `null` when the
 * parameter does not admit `null` (the parser reads such a `null` as "omitted"), and as an empty
 * slot (`search("x", , "en")`) when it does, so `parsePtypeCall(renderPtypeCall(call))` gives the
 * call back exactly.
 *
 * @throws {FormatRenderError} when an argument has no position in `format.parameters`, or the
 *   tool name cannot be written as a call name.
 */
export function renderPtypeCall(
  call: { readonly name: string; readonly arguments: unknown },
  tool: ToolSchema,
): string {
  if (!isCallName(call.name)) {
    throw new FormatRenderError({ format: 'ptype', reason: `\`${call.name}\` cannot be written as a call name` });
  }
  const args = isRecord(call.arguments) ? call.arguments : {};
  const names = parameterNames(tool);
  const present = (name: string): boolean => Object.hasOwn(args, name) && args[name] !== undefined;
  const stray = Object.keys(args).find((key) => args[key] !== undefined && !names.includes(key));
  if (stray !== undefined) {
    throw new FormatRenderError({
      format: 'ptype',
      reason: `argument "${stray}" has no position in format.parameters`,
    });
  }
  let last = -1;
  names.forEach((name, index) => {
    if (present(name)) last = index;
  });
  const slots = names.slice(0, last + 1).map((name) => {
    if (present(name)) return JSON.stringify(args[name]);
    return allowsNull(parameterSchema(tool, name), tool.parameters) ? '' : 'null';
  });
  return `${call.name}(${slots.join(', ')})`;
}

/**
 * Reads a call written in the `ptype` format: `name(value, value, ...)` with JSON literal values
 * (strings in double or single quotes with the JSON escapes, numbers, `true`, `false`, `null`,
 * arrays, objects), whitespace allowed between tokens. Values map to `format.parameters` by
 * position. Fewer values than parameters leave the trailing parameters out; an empty slot leaves
 * its parameter out; `null` for a parameter that does not admit `null` leaves it out too.
 *
 * Errors (`ok: false`), never guesses: another tool's name (`unknown_tool`), more values than
 * parameters (`too_many_values`), an unterminated string or argument list (`unterminated`), a
 * malformed literal (`syntax`), or any text after the closing parenthesis (`trailing_text`).
 */
export function parsePtypeCall(text: string, tool: ToolSchema): FormatParseResult {
  try {
    return parse(text, tool);
  } catch (error) {
    if (FormatParseError.isInstance(error)) return { ok: false, error };
    throw error;
  }
}

function skip(text: string, index: number): number {
  let at = index;
  while (at < text.length && /\s/.test(text[at] ?? '')) at++;
  return at;
}

function parse(text: string, tool: ToolSchema): FormatParseResult {
  let index = skip(text, 0);
  const nameStart = index;
  while (index < text.length && text[index] !== '(' && !/\s/.test(text[index] ?? '')) index++;
  const name = text.slice(nameStart, index);
  if (name === '') return formatFailure('ptype', 'syntax', 'the call has no tool name', nameStart);
  if (name !== tool.name) {
    return formatFailure(
      'ptype',
      'unknown_tool',
      `expected a call to \`${tool.name}\`, got \`${clipName(name)}\``,
      nameStart,
    );
  }
  index = skip(text, index);
  if (text[index] !== '(') {
    return index >= text.length
      ? formatFailure('ptype', 'unterminated', 'the argument list is missing', index)
      : formatFailure('ptype', 'syntax', 'expected ( after the tool name', index);
  }
  const open = index;
  const slots: { readonly value?: unknown; readonly offset: number }[] = [];
  index = skip(text, index + 1);
  if (text[index] === ')') index++;
  else {
    for (;;) {
      index = skip(text, index);
      const offset = index;
      if (text[index] === ',' || text[index] === ')') slots.push({ offset });
      else if (index >= text.length)
        return formatFailure('ptype', 'unterminated', 'the argument list is never closed', open);
      else {
        const literal = readLiteral(text, index, 'ptype');
        slots.push({ value: literal.value, offset });
        index = skip(text, literal.end);
      }
      if (text[index] === ',') {
        index++;
        continue;
      }
      if (text[index] === ')') {
        index++;
        break;
      }
      return index >= text.length
        ? formatFailure('ptype', 'unterminated', 'the argument list is never closed', open)
        : formatFailure('ptype', 'syntax', 'expected , or ) between values', index);
    }
  }
  index = skip(text, index);
  if (index < text.length) return formatFailure('ptype', 'trailing_text', 'text follows the call', index);
  const names = parameterNames(tool);
  if (slots.length > names.length) {
    const extra = slots[names.length];
    return formatFailure(
      'ptype',
      'too_many_values',
      `\`${tool.name}\` takes ${names.length} value(s), got ${slots.length}`,
      extra?.offset,
    );
  }
  const args: Record<string, unknown> = {};
  slots.forEach((slot, position) => {
    const parameter = names[position];
    if (parameter === undefined || !('value' in slot)) return;
    if (slot.value === null && !allowsNull(parameterSchema(tool, parameter), tool.parameters)) return;
    setOwn(args, parameter, slot.value);
  });
  return { ok: true, call: { name: tool.name, arguments: args } };
}
