import {
  applySchemaTransform,
  type LanguageModelV1CallWarning,
  type ModelProfile,
  normalizeParameters,
  type ToolChoice,
  type ToolSchema,
} from '@tiny/llm';

/** The tool fields of a request body, and whether a named choice went out in its native form. @internal */
export interface WireTools {
  readonly tools: unknown[];
  readonly toolChoice: unknown;
  readonly namedChoiceSent: boolean;
}

function wireTool(tool: ToolSchema, profile: ModelProfile): unknown {
  const parameters = normalizeParameters(tool.parameters);
  return {
    type: 'function',
    function: {
      name: tool.name,
      ...(tool.description === undefined || tool.description === '' ? {} : { description: tool.description }),
      parameters:
        profile.schemaTransform === undefined ? parameters : applySchemaTransform(parameters, profile.schemaTransform),
    },
  };
}

/**
 * Maps tools and the tool choice onto `tools` / `tool_choice`. Every tool is declared as a JSON
 * function, whatever its `format` (an OpenAI-compatible server only takes JSON declarations; the
 * format stays in the harness's metadata), with `normalizeParameters` and the profile's schema
 * transform applied. A named choice is `{"type":"function","function":{"name":…}}` when
 * `namedToolChoice` holds; otherwise it is `"required"` with the tools narrowed to the named one,
 * or the tools left intact (and a warning) when no tool has that name.
 * @internal
 */
export function toWireTools(
  tools: readonly ToolSchema[],
  choice: ToolChoice | undefined,
  options: { readonly profile: ModelProfile; readonly namedToolChoice: boolean },
  warnings: LanguageModelV1CallWarning[],
): WireTools {
  const wire = (list: readonly ToolSchema[]) => list.map((tool) => wireTool(tool, options.profile));
  const selected = choice ?? { type: 'auto' };
  if (selected.type !== 'tool') return { tools: wire(tools), toolChoice: selected.type, namedChoiceSent: false };
  if (options.namedToolChoice) {
    return {
      tools: wire(tools),
      toolChoice: { type: 'function', function: { name: selected.toolName } },
      namedChoiceSent: true,
    };
  }
  const named = tools.filter((tool) => tool.name === selected.toolName);
  if (named.length === 0) {
    warnings.push({
      type: 'other',
      message: `tool choice names \`${selected.toolName}\`, which is not among the tools; sent as "required"`,
    });
    return { tools: wire(tools), toolChoice: 'required', namedChoiceSent: false };
  }
  return { tools: wire(named), toolChoice: 'required', namedChoiceSent: false };
}
