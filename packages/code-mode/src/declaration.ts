import { renderTypeScriptDeclaration } from '@tiny/llm';
import { type CompleteTool, modelFacingParameters } from '@tiny/tools';

/** A tool as code mode sees it: callable from programs, or listed with why it is not. */
export interface CodeModeEntry {
  readonly name: string;
  /** The global function name (the tool name with characters outside `[A-Za-z0-9_$]` replaced by `_`). */
  readonly global: string;
  readonly tool: CompleteTool<never>;
  /** Why the tool cannot be called from code (approval), or `undefined` when it can. */
  readonly unavailable: string | undefined;
}

/** The global function name a program calls a tool by. @internal */
export function globalNameOf(name: string): string {
  return name.replace(/[^A-Za-z0-9_$]/g, '_');
}

/**
 * Renders the TypeScript declarations of the callable tools, as the model reads them: one
 * `declare function name(args: {...}): Promise<Result>;` per tool (arguments as the model sees
 * them, injected host values left out; the result type from the output schema when declared),
 * then `declare const tools`, which holds every function under its tool name, then a comment
 * listing the tools that cannot be called from code and why.
 * @internal
 */
export function renderDeclarations(entries: readonly CodeModeEntry[]): string {
  const callable = entries.filter((entry) => entry.unavailable === undefined);
  const lines: string[] = [];
  for (const entry of callable) {
    lines.push(
      renderTypeScriptDeclaration(
        { name: entry.global, description: entry.tool.description, parameters: modelFacingParameters(entry.tool) },
        entry.tool.outputSchema === undefined ? {} : { outputSchema: entry.tool.outputSchema },
      ),
    );
  }
  const members = callable.map((entry) => `${JSON.stringify(entry.name)}: typeof ${entry.global}`);
  lines.push(`declare const tools: { readonly ${members.join('; ')} };`);
  const unavailable = entries.filter((entry) => entry.unavailable !== undefined);
  if (unavailable.length > 0) {
    lines.push(
      `// Not callable from code: ${unavailable.map((entry) => `${entry.name} (${entry.unavailable})`).join(', ')}`,
    );
  }
  return lines.join('\n');
}
