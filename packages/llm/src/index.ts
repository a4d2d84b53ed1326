export type { ToolFormat } from './spec/tool-format.js';
export { type ToolSchema, toolFormatOf, serializeToolSchema } from './spec/tool-schema.js';
export type { ToolChoice } from './spec/tool-choice.js';
export { type ToolCall, createInvalidToolCall, isInvalidToolCall } from './spec/tool-call.js';
export type { CallSource, ParsedCall, ParseDiagnostic, ParsedText } from './parse/parse-types.js';
export {
  type Message,
  type MessagePart,
  type SystemMessage,
  type UserMessage,
  type AssistantMessage,
  type ToolMessage,
  type AssistantToolCall,
  type TextPart,
  type ImagePart,
  type FilePart,
  type ReasoningPart,
  messageText,
} from './messages/message.js';
