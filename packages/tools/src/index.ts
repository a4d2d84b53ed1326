/**
 * Typed tools for LLM agents: tool interface, results, safety policy, validation and errors.
 * @module @tiny/tools
 */
export { CONTEXT_DETAIL_MAX_CHARS, contextDetailFromArgs } from './display/context-detail-from-args.js';
export { humanizeToolName } from './display/humanize-tool-name.js';
export { ApprovalRequiredError } from './errors/approval-required-error.js';
export { CallDeferredError } from './errors/call-deferred-error.js';
export { InjectedArgumentError } from './errors/injected-argument-error.js';
export { InvalidInputError } from './errors/invalid-input-error.js';
export { InvalidRankingIntentError } from './errors/invalid-ranking-intent-error.js';
export { InvalidToolPolicyError } from './errors/invalid-tool-policy-error.js';
export { ModelRetry } from './errors/model-retry.js';
export { isMarked, TinyError } from './errors/tiny-error.js';
export { ToolDefinitionError } from './errors/tool-definition-error.js';
export { ToolFailedError } from './errors/tool-failed-error.js';
export { ToolInputError } from './errors/tool-input-error.js';
export { ToolNotFoundError } from './errors/tool-not-found-error.js';
export { ToolOutputError } from './errors/tool-output-error.js';
export { ToolTimeoutError } from './errors/tool-timeout-error.js';
export {
  type CheckOptionKeysOptions,
  checkOptionKeys,
  type MissingOptionKeys,
  type OptionKeyListIsIncomplete,
  type OptionKeys,
  optionKeys,
  suggestOptionKey,
} from './options/option-keys.js';
export { TOOL_EXPOSURES, type ToolExposure } from './policy/tool-exposure.js';
export {
  type SandboxMode,
  type ToolAccess,
  type ToolDisplay,
  ToolPolicy,
  type ToolPolicyJson,
  type ToolRuntimePolicy,
  type ToolSideEffects,
} from './policy/tool-policy.js';
export {
  createBm25Ranker,
  type RankCandidate,
  type RankedCandidate,
  type ToolRanker,
  tokenize,
} from './ranking/bm25-ranker.js';
export type {
  FileContent,
  FileData,
  ImageContent,
  ImageData,
  JsonContent,
  TextContent,
  ToolContent,
} from './result/tool-content.js';
export { isToolContent, renderToolContent } from './result/tool-content.js';
export { resolveReturnDirect, type ToolControl } from './result/tool-control.js';
export { type ToolErrorKind, ToolResult, type ToolResultJson } from './result/tool-result.js';
export {
  type SanitizeToolMetadataOptions,
  sanitizeToolMetadata,
  stripControlCharacters,
  stripInstructionFences,
  truncateUtf8,
} from './sanitize/sanitize-metadata.js';
export {
  isRecord,
  LIST_SUBSCHEMA_KEYWORDS,
  MAP_SUBSCHEMA_KEYWORDS,
  mapSubschemas,
  SINGLE_SUBSCHEMA_KEYWORDS,
  setOwn,
} from './schema/map-subschemas.js';
export { isStandardSchema, type ResolvedSchema, resolveSchema, type SchemaSide } from './schema/resolve-schema.js';
export type {
  InferSchemaInput,
  InferSchemaOutput,
  SchemaInput,
  StandardSchemaInput,
} from './schema/schema-input.js';
export { type ValidateSchemaValueOptions, validateSchemaValue } from './schema/validate-schema-value.js';
export {
  createToolTimeoutSettings,
  type ResolvedToolTimeout,
  resolveToolTimeout,
  type ToolTimeout,
  type ToolTimeoutSettings,
} from './timeout/tool-timeout.js';
export { type CompleteTool, completeTool } from './tool/complete-tool.js';
export {
  type CheckObjectRoot,
  defineTool,
  type InferToolArguments,
  modelFacingParameters,
  type ParametersMustBeAnObjectSchema,
  type ToolDefinition,
  type ToolReturn,
  type ToolSchemaInput,
} from './tool/define-tool.js';
export { type ExecuteToolOptions, executeTool } from './tool/execute-tool.js';
export {
  type InjectedArgument,
  prepareToolArguments,
  projectInjectedArguments,
} from './tool/injected-arguments.js';
export { HOST_ANNOTATION_PREFIX, stripHostAnnotations } from './tool/strip-host-annotations.js';
export {
  type AnyTool,
  type PermissionLevel,
  type Tool,
  type ToolCategory,
  type ToolOutput,
  type ToolScope,
  toToolResult,
} from './tool/tool.js';
export {
  createToolExecutionContext,
  type ToolExecutionContext,
  type ToolProgress,
  type WorkspaceDescriptor,
} from './tool/tool-execution-context.js';
export {
  checkToolName,
  describeToolNameProblem,
  TOOL_NAME_MAX_LENGTH,
  type ToolNameProblem,
} from './tool/tool-name.js';
export { recordToolOrigin, toolOrigin } from './tool/tool-origin.js';
export { checkToolOutput } from './tool/tool-output.js';
export { validateToolArguments } from './tool/validate-tool-arguments.js';
export {
  checkSchema,
  createValidator,
  MAX_SCHEMA_DEPTH,
  MAX_SCHEMA_NODES,
  MAX_SUBSCHEMA_ENTRIES,
  MAX_UNEVALUATED_ENTRIES,
  SchemaCompileFailure,
  type SchemaLimit,
  type UnknownFormats,
  type UnsupportedKeyword,
  type ValidationResult,
  type Validator,
  type ValidatorOptions,
} from './validation/create-validator.js';
export type { JsonSchema, JsonValue } from './validation/json-schema.js';
export { formatValidationIssues, type ValidationIssue } from './validation/validation-issue.js';
