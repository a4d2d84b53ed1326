import { MiddlewareError } from '../errors/middleware-error.js';
import { assertMessages } from '../run/assert-messages.js';
import type { MiddlewareControl } from './agent-middleware.js';

/** The control of one type. */
type Of<T extends MiddlewareControl['type']> = Extract<MiddlewareControl, { type: T }>;

const JUMP_TARGETS: ReadonlySet<unknown> = new Set(['model', 'tools', 'end']);

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

function text(field: string, value: unknown): string {
  if (typeof value === 'string') return value;
  throw new TypeError(`\`${field}\` must be a string, got ${kindOf(value)}`);
}

/** A copy of `control` with each field read once, or a `TypeError` naming the field that breaks its type. */
function copyControl(control: MiddlewareControl): MiddlewareControl {
  const type: unknown = control.type;
  switch (type) {
    case 'continue':
      return { type };
    case 'update_state':
      return { type, update: (control as Of<'update_state'>).update };
    case 'stop_with_final':
      return { type, text: text('text', (control as Of<'stop_with_final'>).text) };
    case 'interrupt': {
      const { node, message } = control as Of<'interrupt'>;
      return { type, node: text('node', node), message: text('message', message) };
    }
    case 'jump_to': {
      const { target, messages } = control as Of<'jump_to'>;
      if (!JUMP_TARGETS.has(target))
        throw new TypeError(`\`target\` must be 'model', 'tools' or 'end', got ${JSON.stringify(String(target))}`);
      if (messages === undefined) return { type, target };
      if (!Array.isArray(messages)) throw new TypeError(`\`messages\` must be an array, got ${kindOf(messages)}`);
      const copy: unknown[] = [...messages];
      // The same checks as the caller's messages: they enter the history and are sent to the model.
      assertMessages('jump_to', copy);
      return { type, target, messages: copy };
    }
    default:
      throw new TypeError(`unknown control type ${JSON.stringify(String(type))}`);
  }
}

/**
 * The harness's own copy of a control a hook returned, each field read once (a getter cannot
 * answer the record one way and the run another) and checked against its type: a control whose
 * text is not a string, say, would otherwise be recorded (`control_applied.detail`, `run.text`)
 * as the hook's live object.
 *
 * @throws {MiddlewareError} naming the middleware and hook, when the control is malformed or of an unknown type.
 * @internal
 */
export function checkedControl(control: MiddlewareControl, middleware: string, hook: string): MiddlewareControl {
  try {
    return copyControl(control);
  } catch (error) {
    throw new MiddlewareError({ middleware, hook, cause: error });
  }
}
