export { TinyError } from './errors/tiny-error.js';
export { ToolInputError } from './errors/tool-input-error.js';
export { ToolNotFoundError } from './errors/tool-not-found-error.js';
export { ModelRetry } from './errors/model-retry.js';
export { ToolFailedError } from './errors/tool-failed-error.js';
export { ApprovalRequiredError } from './errors/approval-required-error.js';
export { CallDeferredError } from './errors/call-deferred-error.js';
export { ToolTimeoutError } from './errors/tool-timeout-error.js';
export { ToolDefinitionError } from './errors/tool-definition-error.js';
export { InjectedArgumentError } from './errors/injected-argument-error.js';
export { InvalidToolPolicyError } from './errors/invalid-tool-policy-error.js';

export type { JsonSchema, JsonValue } from './validation/json-schema.js';
export { type ValidationIssue, formatValidationIssues } from './validation/validation-issue.js';
export {
  type ValidationResult,
  type Validator,
  SchemaCompileFailure,
  createValidator,
} from './validation/create-validator.js';

export type {
  ToolContent,
  TextContent,
  JsonContent,
  ImageContent,
  FileContent,
  ImageData,
  FileData,
} from './result/tool-content.js';
export { renderToolContent, isToolContent } from './result/tool-content.js';
export { type ToolControl, resolveReturnDirect } from './result/tool-control.js';
export { ToolResult, type ToolResultJson, type ToolErrorKind } from './result/tool-result.js';

export {
  ToolPolicy,
  type ToolPolicyJson,
  type ToolSideEffects,
  type ToolRuntimePolicy,
  type ToolAccess,
  type ToolDisplay,
  type SandboxMode,
} from './policy/tool-policy.js';
export { type ToolExposure, TOOL_EXPOSURES } from './policy/tool-exposure.js';
export {
  type ToolTimeout,
  type ToolTimeoutSettings,
  type ResolvedToolTimeout,
  createToolTimeoutSettings,
  resolveToolTimeout,
} from './timeout/tool-timeout.js';

export {
  type Tool,
  type ToolOutput,
  type PermissionLevel,
  type ToolScope,
  type ToolCategory,
  toToolResult,
} from './tool/tool.js';
export {
  type ToolExecutionContext,
  type ToolProgress,
  type WorkspaceDescriptor,
  createToolExecutionContext,
} from './tool/tool-execution-context.js';
export { type CompleteTool, completeTool } from './tool/complete-tool.js';
export {
  type InferToolArguments,
  type ToolDefinition,
  defineTool,
  modelFacingParameters,
} from './tool/define-tool.js';
export { type ExecuteToolOptions, executeTool } from './tool/execute-tool.js';
export {
  type InjectedArgument,
  projectInjectedArguments,
  prepareToolArguments,
} from './tool/injected-arguments.js';
export {
  TOOL_NAME_MAX_LENGTH,
  type ToolNameProblem,
  checkToolName,
  describeToolNameProblem,
} from './tool/tool-name.js';
