import {
  type AgentHarness,
  type AgentRunStream,
  InvalidInputError,
  type InvokeOptions,
  type RunContext,
} from '@tiny/harness';
import { ChatApprovalError } from '../errors/chat-approval-error.js';
import { checkBodyDepth } from '../run/body-depth.js';
import { randomId } from '../run/read-run.js';
import { secretStrings } from '../run/scrub-secrets.js';
import { collectPausedRunSecrets, collectSensitiveArguments } from '../run/sensitive-argument-secrets.js';
import { toUIMessageStream, type UIStreamOptions } from '../ui-message/to-ui-message-stream.js';
import { chunksToResponse } from '../ui-message/ui-message-stream-response.js';
import { type ApprovalStateStore, InMemoryApprovalStore } from './approval-store.js';
import { type ApprovalResponse, claimPausedRun, resumePausedRun } from './resume-paused-run.js';
import { type ChatUIMessage, readUIMessages, toolPartName, uiMessagesToMessages } from './ui-messages-to-messages.js';

/** Options for {@link handleChatRequest}. */
export interface ChatRequestOptions
  extends Omit<UIStreamOptions, 'messageId' | 'approvalStore' | 'continuedToolCallIds'> {
  /** The run's context (host values, signal, ...), or a function of the request body making it. */
  readonly context?: RunContext | ((body: Readonly<Record<string, unknown>>) => RunContext) | undefined;
  /**
   * Per-run options for `stream` / `streamResumeDeferred`. `policy.captureToolIo` defaults to `true`
   * here (a chat UI shows tool arguments and results; sensitive fields stay `[redacted]`).
   */
  readonly invoke?: InvokeOptions | undefined;
  /** Where paused runs wait for approval; default: one in-memory store per harness. */
  readonly approvalStore?: ApprovalStateStore | undefined;
  /** What the model reads for a denied call without a reason. Default `The user denied this call.` */
  readonly denialMessage?: string | undefined;
}

const defaultStores = new WeakMap<AgentHarness, ApprovalStateStore>();

/** The in-memory approval store `handleChatRequest` uses for `harness` when given none. */
export function defaultApprovalStore(harness: AgentHarness): ApprovalStateStore {
  let store = defaultStores.get(harness);
  if (store === undefined) {
    store = new InMemoryApprovalStore();
    defaultStores.set(harness, store);
  }
  return store;
}

/**
 * The conversation moved on past any run paused in `messages` (a new user message): the approval
 * ids those messages hold void their paused runs (taken from the store, never run). A late answer
 * to them then finds nothing.
 */
async function voidPassedApprovals(store: ApprovalStateStore, messages: readonly ChatUIMessage[]): Promise<void> {
  const runs = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const part of message.parts) {
      const id = (part.approval as { id?: unknown } | undefined)?.id;
      if (toolPartName(part) === undefined || typeof id !== 'string') continue;
      const paused = await store.get(id);
      if (paused !== undefined) runs.add(paused.runId);
    }
  }
  for (const runId of runs) await store.take(runId);
}

/** The approval responses of the last message, when it is an assistant message carrying any. */
function approvalResponses(last: ChatUIMessage | undefined): ApprovalResponse[] {
  if (last === undefined || last.role !== 'assistant') return [];
  const responses: ApprovalResponse[] = [];
  for (const part of last.parts) {
    if (toolPartName(part) === undefined || part.state !== 'approval-responded') continue;
    const approval = part.approval as { id?: unknown; approved?: unknown; reason?: unknown } | undefined;
    const id = approval?.id;
    if (
      typeof part.toolCallId !== 'string' ||
      typeof id !== 'string' ||
      typeof approval?.approved !== 'boolean' ||
      (approval.reason !== undefined && typeof approval.reason !== 'string')
    )
      throw new ChatApprovalError({
        problem: 'malformed',
        ids: [typeof id === 'string' ? id : String(part.toolCallId)],
      });
    responses.push({
      approvalId: id,
      toolCallId: part.toolCallId,
      approved: approval.approved,
      reason: approval.reason as string | undefined,
    });
  }
  return responses;
}

/** A fetch `Request` (from any realm: Node's, a framework's polyfill), not an already parsed body. */
export function isRequest(value: unknown): value is Request {
  return (
    value instanceof Request ||
    (typeof value === 'object' &&
      value !== null &&
      typeof (value as Request).json === 'function' &&
      typeof (value as Request).headers === 'object')
  );
}

/** The body `useChat` posted: a `Request` (read as JSON) or the parsed object. */
async function readBody(request: Request | unknown): Promise<Record<string, unknown>> {
  let body: unknown = request;
  if (isRequest(request)) {
    try {
      body = await request.json();
    } catch (error) {
      throw new InvalidInputError({ entryPoint: 'handleChatRequest', reason: 'the body is not JSON', cause: error });
    }
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new InvalidInputError({ entryPoint: 'handleChatRequest', reason: 'the body must be a JSON object' });
  checkBodyDepth(body, 'handleChatRequest');
  return body as Record<string, unknown>;
}

/** What a chat request starts: the run, the message it streams into, and the calls it continues. */
export interface ChatRun {
  readonly run: AgentRunStream;
  /** The assistant message id: a new one for a new run, the continued message's for a resume. */
  readonly messageId: string;
  /** The approval decisions of a resume (tool call ids), empty for a new run. */
  readonly decided: readonly string[];
  /** The context the run was started with. */
  readonly context: RunContext;
  /**
   * What the stream must scrub: `options.secrets`, the values of `context.hostValues`, and (added
   * as the run goes) the sensitive argument values of each call the model makes.
   */
  readonly secrets: readonly string[];
  /** The conversation (`useChat`'s chat `id` in the body), when the client sent one. */
  readonly conversationId?: string | undefined;
}

/**
 * Reads a `useChat` request and starts what it asks for, without streaming it: a new run over the
 * client's messages (the conversation moved on: runs paused in those messages are voided, their
 * approvals never run), or, when the last message is an assistant message carrying approval responses
 * (`addToolApprovalResponse`), the resume of the paused run they answer with
 * `harness.streamResumeDeferred`, from the state the server kept (never from anything the client
 * sent). Each approval is bound to the pending call's digest, so only the call the client saw runs.
 *
 * @throws {InvalidInputError} for a body that is not `{ messages: UIMessage[] }`.
 * @throws {ChatApprovalError} for approval responses the server did not issue, already used, for
 * another call, or missing for a pending call: nothing runs.
 */
export async function startChatRun(
  harness: AgentHarness,
  request: Request | unknown,
  options: ChatRequestOptions = {},
): Promise<ChatRun> {
  const body = await readBody(request);
  const messages = readUIMessages(body.messages);
  const conversationId = typeof body.id === 'string' && body.id !== '' ? body.id : undefined;
  const context = (typeof options.context === 'function' ? options.context(body) : options.context) ?? {};
  const secrets = [...(options.secrets ?? []), ...secretStrings(context.hostValues ?? {})];
  const invoke: InvokeOptions = {
    ...options.invoke,
    policy: { captureToolIo: true, ...options.invoke?.policy },
    middleware: [...(options.invoke?.middleware ?? []), collectSensitiveArguments(options.tools ?? harness, secrets)],
  };
  const last = messages.at(-1);
  const responses = approvalResponses(last);
  if (responses.length === 0) {
    const transcript = uiMessagesToMessages(messages);
    const store = options.approvalStore ?? defaultApprovalStore(harness);
    await voidPassedApprovals(store, messages);
    // A new turn voids every run paused in this conversation, whatever history the client sent.
    if (conversationId !== undefined) await store.voidConversation?.(conversationId);
    const run = harness.stream(context, transcript, invoke);
    return { run, messageId: randomId(), decided: [], context, secrets, conversationId };
  }
  const store = options.approvalStore ?? defaultApprovalStore(harness);
  const paused = await claimPausedRun(store, responses);
  collectPausedRunSecrets(options.tools ?? harness, paused.state, secrets);
  const { run, decided } = resumePausedRun(harness, context, paused, responses, invoke, options.denialMessage);
  const messageId = (last as ChatUIMessage).id || (paused.messageId ?? randomId());
  return { run, messageId, decided, context, secrets, conversationId: paused.conversationId ?? conversationId };
}

/**
 * The whole `useChat` endpoint: {@link startChatRun}, then the run as an AI SDK UI message stream
 * response (see `toUIMessageStreamResponse`), paused runs kept in the approval store. A bad body
 * answers 400 and refused approval responses 409, as JSON `{ error, problem?, message }`; nothing runs.
 */
export async function handleChatRequest(
  harness: AgentHarness,
  request: Request | unknown,
  options: ChatRequestOptions = {},
): Promise<Response> {
  let started: ChatRun;
  try {
    started = await startChatRun(harness, request, options);
  } catch (error) {
    if (ChatApprovalError.isInstance(error))
      return Response.json({ error: error.name, problem: error.problem, message: error.message }, { status: 409 });
    if (InvalidInputError.isInstance(error))
      return Response.json({ error: error.name, message: error.message }, { status: 400 });
    throw error;
  }
  const chunks = toUIMessageStream(started.run, {
    ...options,
    tools: options.tools ?? harness,
    messageId: started.messageId,
    approvalStore: options.approvalStore ?? defaultApprovalStore(harness),
    continuedToolCallIds: started.decided,
    secrets: started.secrets,
    conversationId: started.conversationId,
  });
  return chunksToResponse(chunks);
}
