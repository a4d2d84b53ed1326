/**
 * Stream `@tiny/harness` runs to web UIs: the AI SDK 6 UI message stream that `useChat` reads, and
 * AG-UI events; approvals resumed from the client's responses with the server-kept, signed state.
 * @module @tiny/ui-stream
 */
export type { AgUiEvent, AgUiInterrupt, AgUiTokenUsage } from './ag-ui/ag-ui-event.js';
export { toAgUiResponse } from './ag-ui/ag-ui-response.js';
export { type AgUiRequestOptions, handleAgUiRequest } from './ag-ui/handle-ag-ui-request.js';
export { type AgUiStreamOptions, toAgUiEvents } from './ag-ui/to-ag-ui-events.js';
export {
  type ApprovalStateStore,
  DEFAULT_APPROVAL_TTL_MS,
  InMemoryApprovalStore,
  type InMemoryApprovalStoreOptions,
  type IssuedApproval,
  type PausedRun,
} from './chat/approval-store.js';
export {
  type ChatRequestOptions,
  type ChatRun,
  defaultApprovalStore,
  handleChatRequest,
  startChatRun,
} from './chat/handle-chat-request.js';
export type { ApprovalResponse } from './chat/resume-paused-run.js';
export {
  type ChatUIMessage,
  type ChatUIPart,
  readUIMessages,
  uiMessagesToMessages,
} from './chat/ui-messages-to-messages.js';
export { ChatApprovalError, type ChatApprovalProblem } from './errors/chat-approval-error.js';
export type { ToolLookup } from './run/tool-display.js';
export { type NodeResponseLike, pipeResponseToNode } from './sse/sse.js';
export { toUIMessageStream, type UIStreamOptions } from './ui-message/to-ui-message-stream.js';
export type { UIDataChunk, UIFinishReason, UIMessageChunk, UIRunMetadata } from './ui-message/ui-message-chunk.js';
export {
  pipeUIMessageStreamToNodeResponse,
  toUIMessageStreamResponse,
  UI_MESSAGE_STREAM_HEADERS,
  type UIStreamResponseOptions,
} from './ui-message/ui-message-stream-response.js';
