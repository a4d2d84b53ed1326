/**
 * Code mode for `@tiny/harness`: the model writes one program that calls the tools, run in a QuickJS WebAssembly sandbox with every nested call admitted by the harness.
 * @module @tiny/code-mode
 */
export { type CodeModeArguments, type CodeModeToolOptions, codeModeTool } from './code-mode-tool.js';
export { CodeModeLimitError, type CodeModeLimitKind } from './errors/code-mode-limit-error.js';
export { CodeProgramError, type CodeProgramFailure } from './errors/code-program-error.js';
export { CodeSandboxError } from './errors/code-sandbox-error.js';
export { type CodeModeLimits, DEFAULT_CODE_MODE_LIMITS, resolveCodeModeLimits } from './limits.js';
export { runSandboxed, type SandboxHost, type SandboxOptions, type SandboxOutcome } from './sandbox/run-sandboxed.js';
