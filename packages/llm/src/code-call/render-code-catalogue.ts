import type { ToolSchema } from '../spec/tool-schema.js';
import { renderPythonSignature } from './render-python-signature.js';
import { renderTypeScriptSignature } from './render-typescript-signature.js';

/** The language a code-call dialect speaks. */
export type CodeLanguage = 'python' | 'typescript';

/**
 * Renders the `## Tools` section of a code dialect: the heading, a blank line, then one signature
 * line per tool in the given order (`renderPythonSignature` or `renderTypeScriptSignature`).
 * No tools gives `''`.
 */
export function renderCodeCatalogue(tools: readonly ToolSchema[], language: CodeLanguage): string {
  if (tools.length === 0) return '';
  const render = language === 'python' ? renderPythonSignature : renderTypeScriptSignature;
  return `## Tools\n\n${tools.map(render).join('\n')}`;
}
