import { isMarked, TinyError } from './tiny-error.js';

const marker = Symbol.for('tiny.error.InjectedArgumentError');

/**
 * Host-injected arguments could not be prepared: the model's arguments are not an object,
 * a name is declared twice, or the host did not supply a declared value.
 * The message names the argument, never its value.
 */
export class InjectedArgumentError extends TinyError {
  readonly [marker] = true;
  readonly toolName: string | undefined;
  readonly argumentName: string | undefined;
  readonly reason: 'not_an_object' | 'declared_twice' | 'missing_host_value';
  constructor(options: {
    reason: 'not_an_object' | 'declared_twice' | 'missing_host_value';
    argumentName?: string;
    toolName?: string;
    cause?: unknown;
  }) {
    super('InjectedArgumentError', describeInjectedFailure(options), options);
    this.toolName = options.toolName;
    this.argumentName = options.argumentName;
    this.reason = options.reason;
  }

  static override isInstance(value: unknown): value is InjectedArgumentError {
    return isMarked(value, marker);
  }
}

function describeInjectedFailure(options: { reason: string; argumentName?: string; toolName?: string }): string {
  const where = options.toolName === undefined ? '' : ` for tool \`${options.toolName}\``;
  switch (options.reason) {
    case 'not_an_object':
      return `arguments${where} must be a JSON object to receive injected values`;
    case 'declared_twice':
      return `injected argument \`${options.argumentName}\` is declared twice${where}`;
    default:
      return `the host did not supply injected argument \`${options.argumentName}\`${where}`;
  }
}
