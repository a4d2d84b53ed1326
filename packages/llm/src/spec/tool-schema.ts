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
} {
  const { name, description, parameters, format } = schema;
  const described = description === undefined ? { name } : { name, description };
  if (format === undefined || format.type === 'json') return { ...described, parameters };
  return { ...described, parameters, format };
}
