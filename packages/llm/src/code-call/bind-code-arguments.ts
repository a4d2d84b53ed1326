import type { PformatParameters } from '../pformat/create-pformat-registry.js';
import { setOwn } from '../pformat/json-value.js';
import type { PformatParameterType } from '../pformat/pformat-parameter-type.js';
import type { CodeLiteral } from './read-code-literal.js';

/** @internal One argument as written: positional, or `name=value`. */
export type CodeArgument =
  | { readonly kind: 'positional'; readonly literal: CodeLiteral }
  | { readonly kind: 'keyword'; readonly name: string; readonly literal: CodeLiteral };

/**
 * @internal Binds written arguments to a tool's parameters, or returns `undefined` to refuse.
 *
 * A lone positional object literal is the single-object form: its members become keyword
 * arguments when every key is a parameter, else the object is the value of the tool's only
 * parameter, else the call is refused. Otherwise positional arguments fill slots in parameter
 * order; keywords must name a parameter; refused are: positional after keyword, a parameter bound
 * twice, more positional arguments than parameters. A top-level `None`/`null` binds its slot but
 * omits the argument. A number with a fraction or exponent bound to an `integer` parameter keeps
 * its source text (`"5.0"`) so that validation reports it instead of silently accepting it. A
 * quoted scalar bound to a parameter of exactly one scalar type becomes that type when its text
 * writes it unambiguously (`"5"` for an `integer`, `"true"` for a `boolean`).
 */
export function bindCodeArguments(
  written: readonly CodeArgument[],
  parameters: PformatParameters,
): Record<string, unknown> | undefined {
  const [first] = written;
  if (written.length === 1 && first?.kind === 'positional' && first.literal.members !== undefined) {
    const members = first.literal.members;
    if ([...members.keys()].every((key) => parameters.names.includes(key))) {
      return bindCodeArguments(
        [...members].map(([name, literal]) => ({ kind: 'keyword', name, literal })),
        parameters,
      );
    }
    if (parameters.names.length !== 1) return undefined;
  }

  const args: Record<string, unknown> = {};
  const bound = new Set<string>();
  let nextSlot = 0;
  let sawKeyword = false;
  for (const argument of written) {
    let slot: number;
    if (argument.kind === 'keyword') {
      sawKeyword = true;
      slot = parameters.names.indexOf(argument.name);
      if (slot < 0) return undefined;
    } else {
      if (sawKeyword || nextSlot >= parameters.names.length) return undefined;
      slot = nextSlot++;
    }
    const name = parameters.names[slot] ?? '';
    if (bound.has(name)) return undefined;
    bound.add(name);
    const { value, floatText } = argument.literal;
    if (value === null) continue;
    const type = parameters.types[slot];
    setOwn(args, name, floatText !== undefined && type === 'integer' ? floatText : quotedScalar(value, type));
  }
  return args;
}

const INTEGER_TEXT = /^-?(?:0|[1-9]\d*)$/;
const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * A quoted scalar (`limit="5"`, `exact="true"`) bound to a parameter whose schema admits exactly
 * one scalar type: the value that text unambiguously writes (canonical integer or decimal text, a
 * safe integer, a finite number, `true` / `false`); anything else, and every value for a
 * parameter of several types or of type `string`, stays as written.
 */
function quotedScalar(value: unknown, type: PformatParameterType | undefined): unknown {
  if (typeof value !== 'string') return value;
  if (type === 'integer' && INTEGER_TEXT.test(value)) {
    const number = Number(value);
    return Number.isSafeInteger(number) ? number : value;
  }
  if (type === 'number' && NUMBER_TEXT.test(value)) {
    const number = Number(value);
    return Number.isFinite(number) ? number : value;
  }
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}
