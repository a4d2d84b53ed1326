import { recoverToolArguments } from '@tiny/llm';
import { TOOL_CALL_NAME } from './bridge-schemas.js';

/** The fields of a pending call that {@link unwrapBridgeCall} reads and rewrites. */
export interface BridgeableCall {
  readonly name: string;
  readonly arguments: unknown;
  /** Set when the provider could not parse the arguments string. */
  readonly invalid?: string | undefined;
}

/** The outcome of {@link unwrapBridgeCall}. */
export type BridgeUnwrap<TCall extends BridgeableCall> =
  /** Not a `tool_call`: admit it as it is. */
  | { readonly kind: 'not_bridge'; readonly call: TCall }
  /** A `tool_call`: admit `call` (the real tool and its arguments) instead of `bridgeCall`. */
  | { readonly kind: 'unwrapped'; readonly call: TCall; readonly bridgeCall: TCall }
  /** A malformed `tool_call`: answer it with `message` as a tool error (it spends its slot). */
  | { readonly kind: 'invalid'; readonly call: TCall; readonly message: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Turns a `tool_call {name, arguments}` call into a call of the named tool, so that `beforeTool`
 * hooks, allow-lists, policies and approvals see the real tool. Call it **before admission**, and
 * only when the intrinsic bridge is offered this turn (a host tool named `tool_call` wins: do not
 * unwrap calls to it).
 *
 * `arguments` may be a JSON string (as advertised; relaxed repair is tried on malformed text), an
 * object, or missing/`null`/blank (no arguments, `{}`). An empty name, a `tool_call` naming
 * `tool_call`, or arguments that are not an object give `invalid`. Pure: the call is not mutated.
 * Other fields of the call (id, …) are kept.
 */
export function unwrapBridgeCall<TCall extends BridgeableCall>(
  call: TCall,
  options: { bridgeName?: string } = {},
): BridgeUnwrap<TCall> {
  const bridgeName = options.bridgeName ?? TOOL_CALL_NAME;
  if (call.name !== bridgeName) return { kind: 'not_bridge', call };
  let outer: unknown = call.arguments;
  if (call.invalid !== undefined || typeof outer === 'string') {
    const raw = typeof outer === 'string' ? outer : '';
    outer = raw.trim() === '' ? {} : recoverToolArguments(raw);
    if (outer === undefined) {
      return invalid(
        call,
        `could not parse the arguments of \`${bridgeName}\`; send {"name": "...", "arguments": "{...}"}`,
      );
    }
  }
  if (!isObject(outer)) return invalid(call, `\`${bridgeName}\` needs an object {"name": "...", "arguments": "{...}"}`);
  const name = typeof outer.name === 'string' ? outer.name.trim() : '';
  if (name === '') return invalid(call, `\`${bridgeName}\` needs the \`name\` of the tool to call`);
  if (name === bridgeName) return invalid(call, `\`${bridgeName}\` cannot call \`${bridgeName}\``);
  const inner = decodeArguments(outer.arguments);
  if (inner === undefined) {
    return invalid(
      call,
      `\`${bridgeName}\` arguments for \`${name}\` must be a JSON object (or a string holding one), got ${describe(outer.arguments)}`,
    );
  }
  const { invalid: _dropped, ...rest } = call;
  const unwrapped = { ...rest, name, arguments: inner } as unknown as TCall;
  return { kind: 'unwrapped', call: unwrapped, bridgeCall: call };
}

function decodeArguments(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return {};
  if (isObject(value)) return value;
  if (typeof value !== 'string') return undefined;
  if (value.trim() === '') return {};
  return recoverToolArguments(value);
}

function invalid<TCall extends BridgeableCall>(call: TCall, message: string): BridgeUnwrap<TCall> {
  return { kind: 'invalid', call, message };
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)}`;
  return typeof value;
}
