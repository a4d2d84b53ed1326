import { isMarked, TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.SchemaNameCollisionError');

/**
 * The tool strategy's output tool would have the name of a registered tool. Thrown before any
 * model call; rename the response schema.
 */
export class SchemaNameCollisionError extends TinyError {
  readonly [marker] = true;
  readonly schemaName: string;
  /** The output tool name that collides (the schema name, or `<name>_<variant>` for unions). */
  readonly toolName: string;

  constructor(options: { schemaName: string; toolName: string }) {
    super(
      'SchemaNameCollisionError',
      `the structured output tool \`${options.toolName}\` (schema \`${options.schemaName}\`) collides with a registered tool of the same name; rename the response schema`,
    );
    this.schemaName = options.schemaName;
    this.toolName = options.toolName;
  }

  static override isInstance(value: unknown): value is SchemaNameCollisionError {
    return isMarked(value, marker);
  }
}
