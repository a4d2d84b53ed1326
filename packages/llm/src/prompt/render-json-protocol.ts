import type { ToolSchema } from '../spec/tool-schema.js';
import { renderJsonCall } from './render-json-call.js';

/** A placeholder value for an example call, by schema type. */
function placeholder(name: string, schema: unknown): unknown {
  const type = typeof schema === 'object' && schema !== null ? (schema as { type?: unknown }).type : undefined;
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return true;
  if (type === 'array') return [];
  if (type === 'object') return {};
  return `<${name}>`;
}

/** Example arguments for the protocol block: the first tool's required parameters (at most two). */
function exampleArguments(tool: ToolSchema | undefined): Record<string, unknown> {
  const parameters = tool?.parameters;
  if (typeof parameters !== 'object' || parameters === null) return {};
  const { properties, required } = parameters as { properties?: unknown; required?: unknown };
  const declared = typeof properties === 'object' && properties !== null ? (properties as Record<string, unknown>) : {};
  const names = Array.isArray(required) ? required.filter((name): name is string => typeof name === 'string') : [];
  return Object.fromEntries(names.slice(0, 2).map((name) => [name, placeholder(name, declared[name])]));
}

/**
 * The full-schema catalogue of the JSON dialect, under `## Tools`: per tool a line
 * `- **name**: description` and an indented `Parameters: <compact JSON Schema>` line, in the
 * order given. Empty when there are no tools.
 */
export function renderJsonCatalogue(tools: readonly ToolSchema[]): string {
  if (tools.length === 0) return '';
  const entries = tools.map(
    (tool) => `- **${tool.name}**: ${tool.description}\n  Parameters: ${JSON.stringify(tool.parameters ?? {})}`,
  );
  return `## Tools\n\n${entries.join('\n')}`;
}

/**
 * The "Tool Use Protocol" block for models that write calls as JSON inside `<tool_call>` tags:
 * how to write a call (one example, using the first tool and placeholders for its required
 * parameters), that several calls may go in one reply, and that results come back in
 * `<tool_result>` blocks; followed by the catalogue from {@link renderJsonCatalogue}. Empty
 * when there are no tools.
 */
export function renderJsonProtocol(tools: readonly ToolSchema[]): string {
  if (tools.length === 0) return '';
  const first = tools[0];
  const example = renderJsonCall(first?.name ?? 'tool_name', exampleArguments(first));
  const protocol = [
    '## Tool Use Protocol',
    '',
    'You can call the tools listed below. To call one, write a `<tool_call>` block that holds a JSON object with the tool `name` and its `arguments`:',
    '',
    example,
    '',
    '- `arguments` is a JSON object that matches the tool parameters; use `{}` when the tool takes none.',
    '- Write one block per call. You may write several blocks in one reply when the calls do not depend on each other.',
    '- After your calls, stop. The results come back in the next turn as `<tool_result>` blocks.',
    '- When no tool is needed, answer in plain text without a block.',
  ].join('\n');
  return `${protocol}\n\n${renderJsonCatalogue(tools)}`;
}
