import type { PformatParameters } from '../pformat/create-pformat-registry.js';
import { setOwn } from '../pformat/json-value.js';
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
 * its source text (`"5.0"`) so that validation reports it instead of silently accepting it.
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
    setOwn(args, name, floatText !== undefined && parameters.types[slot] === 'integer' ? floatText : value);
  }
  return args;
}
