/**
 * Model-facing contract for `@tiny` tools: tool calls, schemas, formats, dialects, parsers and the provider spec.
 * @module @tiny/llm
 */
// Each layer re-exports the error classes beneath it (STYLE.md).
// The option-key check every layer and adapter uses (`checkOptionKeys`, `optionKeys`).
export {
  ApprovalRequiredError,
  CallDeferredError,
  type CheckOptionKeysOptions,
  checkOptionKeys,
  InjectedArgumentError,
  InvalidInputError,
  InvalidToolPolicyError,
  type MissingOptionKeys,
  ModelRetry,
  type OptionKeyListIsIncomplete,
  type OptionKeys,
  optionKeys,
  suggestOptionKey,
  TinyError,
  ToolDefinitionError,
  ToolFailedError,
  ToolInputError,
  ToolNotFoundError,
  ToolTimeoutError,
} from '@tiny/tools';
// Schema-guided recovery of final answers.
export {
  type AnswerCoercion,
  type ParseWithSchemaOptions,
  parseWithSchema,
  type SchemaAnswer,
} from './answer/parse-with-schema.js';
export { type CodeCall, type ParseCodeCallOptions, parseCodeCallBody } from './code-call/parse-code-call-body.js';
export { renderPythonCall, renderTypeScriptCall } from './code-call/render-code-call.js';
export { type CodeLanguage, renderCodeCatalogue } from './code-call/render-code-catalogue.js';
export { renderCodeProtocol } from './code-call/render-code-protocol.js';
export { renderPythonSignature } from './code-call/render-python-signature.js';
export {
  renderTypeScriptDeclaration,
  type TypeScriptDeclarationOptions,
} from './code-call/render-typescript-declaration.js';
export { renderTypeScriptSignature } from './code-call/render-typescript-signature.js';
export {
  CALL_ENVELOPE_ANSWER_KEY,
  CALL_ENVELOPE_SCHEMA_NAME,
  type CallEnvelope,
  callEnvelopeSchema,
  readCallEnvelope,
  shouldConstrainCalls,
} from './constrained/call-envelope.js';
export { createCodeDialect } from './dialects/create-code-dialect.js';
export { createNativeDialect, nativeDeclaredTools, nativeToolChoice } from './dialects/create-native-dialect.js';
export { createPformatDialect } from './dialects/create-pformat-dialect.js';
export { createToolDialect } from './dialects/create-tool-dialect.js';
export { createTaggedJsonDialect, createXmlDialect } from './dialects/create-xml-dialect.js';
export { recordAssistantTurn } from './dialects/record-assistant-turn.js';
export type {
  DialectCall,
  DialectParse,
  DialectParseOptions,
  DialectResponse,
  ToolDialect,
  ToolDialectKind,
  ToolPromptOptions,
} from './dialects/tool-dialect.js';
export { canonicalDialectKind, type DeprecatedToolDialectKind } from './dialects/tool-dialect.js';
export { escapeEnvelopeAttribute, unescapeEnvelopeAttribute } from './envelope/escape-envelope-attribute.js';
export { escapeResultBody, unescapeResultBody } from './envelope/escape-result-body.js';
export { foldToolResults } from './envelope/fold-tool-results.js';
export { type ParsedToolResult, parseToolResultsEnvelope } from './envelope/parse-tool-results-envelope.js';
// Result envelope, transcript, prompt-guided helpers, dialects.
export {
  renderToolResultBlock,
  renderToolResultsEnvelope,
  TOOL_RESULTS_HEADER,
  type ToolResultEntry,
} from './envelope/render-tool-results-envelope.js';
export { toolResultEntryFrom } from './envelope/tool-result-entry-from.js';
export { isToolResultsTurn } from './envelope/tool-results-turn.js';
export { FormatParseError, type FormatParseErrorKind } from './errors/format-parse-error.js';
export { FormatRenderError } from './errors/format-render-error.js';
export { ModelCallError } from './errors/model-call-error.js';
export {
  isRetryableKind,
  isRetryableStatus,
  kindFromStatus,
  MODEL_CALL_ERROR_KINDS,
  type ModelCallErrorKind,
} from './errors/model-call-error-kind.js';
// Seed tool formats (json, xml, ptype).
export type { FormatCall, FormatParseResult } from './formats/format-parse-result.js';
export { parseJsonCall, renderJsonCall, renderJsonDeclaration } from './formats/json-format.js';
export { parsePtypeCall, renderPtypeCall, renderPtypeDeclaration } from './formats/ptype-format.js';
export {
  formatOfGrammar,
  grammarOfFormat,
  renderOwnFormatTools,
  splitToolsByFormat,
  withOwnFormatGrammars,
  writesOwnFormat,
} from './formats/render-format-tools.js';
export { parseToolCall, renderToolCall, renderToolDeclaration } from './formats/tool-format-dispatch.js';
export { parseXmlCall, renderXmlCall, renderXmlDeclaration } from './formats/xml-format.js';
export { nestsDeeperThan } from './json/nests-deeper-than.js';
export {
  type AssistantMessage,
  type AssistantToolCall,
  type FilePart,
  type ImagePart,
  type Message,
  type MessagePart,
  messageText,
  type ReasoningPart,
  type SystemMessage,
  type TextPart,
  type ToolMessage,
  type UserMessage,
} from './messages/message.js';
export {
  type ResolvedToolName,
  resolveToolName,
  resolveToolNameDetailed,
  type ToolNameStatus,
  trimToolNameJunk,
} from './names/resolve-tool-name.js';
export {
  createStreamScrubber,
  type StreamScrubber,
  type StreamScrubberOptions,
} from './parse/create-stream-scrubber.js';
export { normalizeNarrative } from './parse/normalize-narrative.js';
// Reading calls out of text.
export { type ParseToolCallsOptions, parseToolCalls } from './parse/parse-tool-calls.js';
export type { CallGrammar, CallSource, ParseDiagnostic, ParsedCall, ParsedText } from './parse/parse-types.js';
export {
  createPformatRegistry,
  type PformatParameters,
  type PformatRegistry,
} from './pformat/create-pformat-registry.js';
export { type PformatCall, parsePformatBody } from './pformat/parse-pformat-body.js';
// P-Format and code calls.
export { pformatParameterOrder } from './pformat/pformat-parameter-order.js';
export { type PformatParameterType, pformatParameterType } from './pformat/pformat-parameter-type.js';
export { renderPformatCall } from './pformat/render-pformat-call.js';
export { renderPformatCatalogue } from './pformat/render-pformat-catalogue.js';
export { renderPformatProtocol } from './pformat/render-pformat-protocol.js';
export { renderPformatSignature } from './pformat/render-pformat-signature.js';
export { type CoalesceToolResultsOptions, coalesceToolResults } from './prompt/coalesce-tool-results.js';
export { CONTINUATION_PROMPT, ensureResolvableUserTurn } from './prompt/ensure-resolvable-user-turn.js';
export { placeSystemPrompt, type SystemPromptPlacement } from './prompt/place-system-prompt.js';
export { renderJsonCall as renderToolCallTag, renderJsonCalls } from './prompt/render-json-call.js';
export { renderJsonCatalogue, renderJsonProtocol } from './prompt/render-json-protocol.js';
export { renderNativeProtocol } from './prompt/render-native-protocol.js';
export { toolChoiceInstruction, toolInstructions } from './prompt/tool-instructions.js';
export { appendSystemInstructions, withToolInstructions } from './prompt/with-tool-instructions.js';
export { acceptsObject } from './repair/accepts-object.js';
export { type CoercedArguments, coerceToSchema } from './repair/coerce-to-schema.js';
export { decodeArguments } from './repair/decode-arguments.js';
export { findNonFiniteNumber } from './repair/find-non-finite-number.js';
export { type LenientJson, type LenientJsonRepair, parseLenientJson } from './repair/parse-lenient-json.js';
export { recoverLeadingObject } from './repair/recover-leading-object.js';
// Repair.
export { recoverRelaxedObject } from './repair/recover-relaxed-object.js';
export { recoverToolArguments } from './repair/recover-tool-arguments.js';
export { stripCodeFence } from './repair/strip-code-fence.js';
export { unwrapArgumentsEnvelope } from './repair/unwrap-arguments-envelope.js';
// Schema projection.
export { cleanSchema, type SchemaCleaningStrategy } from './schema/clean-schema.js';
export { inlineLocalRefs } from './schema/inline-local-refs.js';
export { normalizeParameters } from './schema/normalize-parameters.js';
export { applySchemaTransform, type SchemaTransform } from './schema/schema-transform.js';
export { fromStrictValue, toStrictValue } from './schema/strict-value.js';
export { toStrictSchema } from './schema/to-strict-schema.js';
export type { LanguageModelV1CallWarning } from './spec/call-warning.js';
export { collectStream, collectStreamSettled, type SettledStream } from './spec/collect-stream.js';
// Provider contract.
export type { LanguageModelV1FinishReason } from './spec/finish-reason.js';
export type {
  LanguageModelV1,
  LanguageModelV1Choice,
  LanguageModelV1RawRequest,
  LanguageModelV1RawResponse,
  LanguageModelV1Request,
  LanguageModelV1Response,
  LanguageModelV1StreamResult,
  LanguageModelV1ToolCall,
} from './spec/language-model-v1.js';
export { createModelProfile, type ModelProfile } from './spec/model-profile.js';
export type { LanguageModelV1ResponseFormat } from './spec/response-format.js';
export type { LanguageModelV1StreamPart } from './spec/stream-part.js';
export {
  createInvalidToolCall,
  createRefusedToolCall,
  isInvalidToolCall,
  isRefusedToolCall,
  type ToolCall,
} from './spec/tool-call.js';
export type { ToolChoice } from './spec/tool-choice.js';
export type { ToolFormat } from './spec/tool-format.js';
export { serializeToolSchema, type ToolSchema, toolFormatOf } from './spec/tool-schema.js';
export { addUsage, type LanguageModelV1Usage } from './spec/usage.js';
export { pairToolCycles } from './transcript/pair-tool-cycles.js';
export { fromTranscriptEntries, type TranscriptEntry, toTranscriptEntries } from './transcript/transcript-entry.js';
