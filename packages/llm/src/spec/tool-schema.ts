import type { JsonSchema } from '@tiny/tools';
import type { ToolFormat } from './tool-format.js';

/**
 * A tool as the model sees it: name, description, the model-facing parameters schema (injected
 * arguments already projected out) and an optional rendering preference. An absent `format`
 * means `json`.
 */
export interface ToolSchema {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
  readonly format?: ToolFormat | undefined;
}

/** The format a schema asks for, `json` when none is set. */
export function toolFormatOf(schema: ToolSchema): ToolFormat {
  return schema.format ?? { type: 'json' };
}

/** Serialises a schema for storage; the default `json` format is omitted. */
export function serializeToolSchema(schema: ToolSchema): {
  name: string;
  description: string;
  parameters: JsonSchema;
  format?: ToolFormat;
} {
  const { name, description, parameters, format } = schema;
  if (format === undefined || format.type === 'json') return { name, description, parameters };
  return { name, description, parameters, format };
}
