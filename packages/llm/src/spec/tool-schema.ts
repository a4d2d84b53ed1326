import type { JsonSchema } from '@tiny/tools';
import type { ToolFormat } from './tool-format.js';

/**
 * A tool as the model sees it: name, an optional description, the model-facing parameters schema
 * (injected arguments already projected out) and an optional rendering preference. An absent
 * `format` means `json`; an absent `description` is left out of the request (adapters send no
 * empty description).
 */
export interface ToolSchema {
  readonly name: string;
  readonly description?: string | undefined;
  readonly parameters: JsonSchema;
  readonly format?: ToolFormat | undefined;
  /**
   * JSON Schema of the tool's structured result, when it declares one (`defineTool({ outputSchema })`,
   * an MCP server's `outputSchema`). Native requests do not send it; the `typescript` and `python`
   * code dialects render it as the signature's return type instead of `string`/`str`.
   */
  readonly outputSchema?: JsonSchema | undefined;
}

/** The format a schema asks for, `json` when none is set. */
export function toolFormatOf(schema: ToolSchema): ToolFormat {
  return schema.format ?? { type: 'json' };
}

/** Serialises a schema for storage; the default `json` format is omitted. */
export function serializeToolSchema(schema: ToolSchema): {
  name: string;
  description?: string;
  parameters: JsonSchema;
  format?: ToolFormat;
  outputSchema?: JsonSchema;
} {
  const { name, description, parameters, format, outputSchema } = schema;
  const described = description === undefined ? { name } : { name, description };
  const output = outputSchema === undefined ? {} : { outputSchema };
  if (format === undefined || format.type === 'json') return { ...described, parameters, ...output };
  return { ...described, parameters, format, ...output };
}
