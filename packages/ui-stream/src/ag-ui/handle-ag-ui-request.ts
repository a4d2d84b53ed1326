import type { AgentHarness, AgentRunStream, InvokeOptions, Message, RunContext } from '@tiny/harness';
import { InvalidInputError } from '@tiny/tools';
import type { ApprovalStateStore } from '../chat/approval-store.js';
import { defaultApprovalStore, isRequest } from '../chat/handle-chat-request.js';
import { type ApprovalResponse, claimPausedRun, resumePausedRun } from '../chat/resume-paused-run.js';
import { ChatApprovalError } from '../errors/chat-approval-error.js';
import { checkBodyDepth } from '../run/body-depth.js';
import { secretStrings } from '../run/scrub-secrets.js';
import { collectPausedRunSecrets, collectSensitiveArguments } from '../run/sensitive-argument-secrets.js';
import { toAgUiResponse } from './ag-ui-response.js';
import type { AgUiStreamOptions } from './to-ag-ui-events.js';

/** Options for {@link handleAgUiRequest}. */
export interface AgUiRequestOptions extends Omit<AgUiStreamOptions, 'threadId' | 'approvalStore'> {
  /** The run's context, or a function of the `RunAgentInput` making it. */
  readonly context?: RunContext | ((input: Readonly<Record<string, unknown>>) => RunContext) | undefined;
  /** Per-run options; `policy.captureToolIo` defaults to `true` (sensitive fields stay `[redacted]`). */
  readonly invoke?: InvokeOptions | undefined;
  /** Where paused runs wait; default: the same per-harness in-memory store `handleChatRequest` uses. */
  readonly approvalStore?: ApprovalStateStore | undefined;
  /** What the model reads for a denied or cancelled interrupt without a reason. */
  readonly denialMessage?: string | undefined;
}

const ENTRY = 'handleAgUiRequest';

function fail(reason: string): never {
  throw new InvalidInputError({ entryPoint: ENTRY, reason });
}

/** AG-UI messages (`RunAgentInput.messages`) as a tiny transcript: user, assistant (with tool calls) and tool messages; system and developer messages from the client are dropped. */
function agUiMessages(value: unknown): Message[] {
  if (!Array.isArray(value)) fail('`messages` must be an array');
  const out: Message[] = [];
  for (const [index, raw] of value.entries()) {
    if (typeof raw !== 'object' || raw === null) fail(`\`messages[${index}]\` must be an object`);
    const message = raw as Record<string, unknown>;
    const content = typeof message.content === 'string' ? message.content : '';
    if (message.role === 'user') out.push({ role: 'user', content });
    else if (message.role === 'assistant') {
      const calls = Array.isArray(message.toolCalls) ? message.toolCalls : [];
      const toolCalls = calls.flatMap((call: unknown) => {
        const { id, function: fn } = (call ?? {}) as {
          id?: unknown;
          function?: { name?: unknown; arguments?: unknown };
        };
        return typeof id === 'string' && typeof fn?.name === 'string'
          ? [{ id, name: fn.name, arguments: typeof fn.arguments === 'string' ? fn.arguments : '{}' }]
          : [];
      });
      out.push({ role: 'assistant', content, ...(toolCalls.length > 0 ? { toolCalls } : {}) });
    } else if (message.role === 'tool' && typeof message.toolCallId === 'string')
      out.push({ role: 'tool', toolCallId: message.toolCallId, content });
  }
  return out;
}

/** The `resume` entries as approval responses: `resolved` with `payload.approved`, or `cancelled` (a denial). */
function resumeResponses(value: unknown): ApprovalResponse[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail('`resume` must be an array of resume entries');
  return value.map((raw) => {
    const entry = (raw ?? {}) as { interruptId?: unknown; status?: unknown; payload?: unknown };
    const payload = (entry.payload ?? {}) as { approved?: unknown; reason?: unknown };
    const id = typeof entry.interruptId === 'string' ? entry.interruptId : '';
    const resolved = entry.status === 'resolved';
    if (
      id === '' ||
      (!resolved && entry.status !== 'cancelled') ||
      (resolved && typeof payload.approved !== 'boolean') ||
      (payload.reason !== undefined && typeof payload.reason !== 'string')
    )
      throw new ChatApprovalError({ problem: 'malformed', ids: [id || String(entry.interruptId)] });
    return {
      approvalId: id,
      toolCallId: undefined,
      approved: resolved && payload.approved === true,
      reason: payload.reason as string | undefined,
    };
  });
}

/**
 * An AG-UI endpoint: reads a `RunAgentInput` (a `Request` or the parsed object) and answers with the
 * run's AG-UI events as server-sent events (`toAgUiResponse`). Without `resume` entries it starts a
 * new run over the input's messages (the run id is the harness's own, never the client's). With
 * them, it resumes the paused run whose interrupts they answer, from the state the server kept: an
 * entry `{ interruptId, status: 'resolved', payload: { approved: true } }` approves that call,
 * `approved: false` (with an optional `payload.reason`) or `status: 'cancelled'` denies it. Unknown,
 * replayed or incomplete entries answer 409 (`ChatApprovalError`) and run nothing; a malformed body 400.
 */
export async function handleAgUiRequest(
  harness: AgentHarness,
  request: Request | unknown,
  options: AgUiRequestOptions = {},
): Promise<Response> {
  let run: AgentRunStream;
  let input: Record<string, unknown>;
  let context: RunContext;
  let secrets: string[];
  try {
    const body = isRequest(request) ? await request.json().catch(() => fail('the body is not JSON')) : request;
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      fail('the body must be a RunAgentInput object');
    checkBodyDepth(body, 'handleAgUiRequest');
    input = body as Record<string, unknown>;
    context = (typeof options.context === 'function' ? options.context(input) : options.context) ?? {};
    // The host's secrets, then the sensitive argument values of the run's calls as the model makes them.
    secrets = [...(options.secrets ?? []), ...secretStrings(context.hostValues ?? {})];
    const invoke: InvokeOptions = {
      ...options.invoke,
      policy: { captureToolIo: true, ...options.invoke?.policy },
      middleware: [...(options.invoke?.middleware ?? []), collectSensitiveArguments(options.tools ?? harness, secrets)],
    };
    const store = options.approvalStore ?? defaultApprovalStore(harness);
    const responses = resumeResponses(input.resume);
    if (responses.length === 0) {
      const messages = agUiMessages(input.messages);
      // A new turn in the thread voids every run paused in it: its interrupts never resume.
      if (typeof input.threadId === 'string' && input.threadId !== '') await store.voidConversation?.(input.threadId);
      run = harness.stream(context, messages, invoke);
    } else {
      const paused = await claimPausedRun(store, responses);
      collectPausedRunSecrets(options.tools ?? harness, paused.state, secrets);
      run = resumePausedRun(harness, context, paused, responses, invoke, options.denialMessage).run;
    }
  } catch (error) {
    if (ChatApprovalError.isInstance(error))
      return Response.json({ error: error.name, problem: error.problem, message: error.message }, { status: 409 });
    if (InvalidInputError.isInstance(error))
      return Response.json({ error: error.name, message: error.message }, { status: 400 });
    throw error;
  }
  return toAgUiResponse(run, {
    ...options,
    threadId: typeof input.threadId === 'string' ? input.threadId : undefined,
    tools: options.tools ?? harness,
    approvalStore: options.approvalStore ?? defaultApprovalStore(harness),
    secrets,
  });
}
