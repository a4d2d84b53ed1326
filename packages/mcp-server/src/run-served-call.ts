import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  type AgentEvent,
  AgentHarness,
  type AgentHarnessOptions,
  type DeferredToolHandler,
  DeferredToolResults,
  type RunContext,
  type RunPolicy,
  redactToolArguments,
  type ToolMessage,
  type ToolRegistry,
} from '@tiny/harness';
import { type AnyTool, type ResolvedSchema, TinyError, validateSchemaValue } from '@tiny/tools';
import { singleCallModel } from './single-call-model.js';

/** Events a run emits about itself (not about the served call): kept from the served `onEvent`. */
const RUN_ONLY_EVENTS = new Set([
  'run_started',
  'run_completed',
  'turn_started',
  'turn_completed',
  'model_started',
  'model_delta',
  'model_completed',
  'model_retried',
  'tool_call_delta',
  'tools_advertised',
]);

/** What one served call needs from its server and session. @internal */
export interface ServedCall {
  readonly server: Server;
  readonly registry: ToolRegistry;
  readonly tool: AnyTool;
  readonly callId: string;
  readonly arguments: unknown;
  readonly context: RunContext;
  readonly harness: Omit<AgentHarnessOptions, 'model' | 'tools' | 'deferredToolHandler' | 'toolSets' | 'discovery'>;
  readonly onEvent: ((event: AgentEvent) => void) | undefined;
  readonly signal: AbortSignal;
  readonly requestId: string | number;
  /** Whether the server still serves this call's tool under the definition the call began with. */
  readonly stillServed: () => boolean;
}

const errorResult = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

/**
 * The call's arguments as the harness's events show them, for the approval question a human reads:
 * every sensitive field (`x-tiny-sensitive` at any depth, `policy.access.redact`) is `[redacted]`.
 */
function shownArguments(tool: AnyTool, args: unknown): string {
  return JSON.stringify(redactToolArguments(tool, args)) ?? 'null';
}

/**
 * Decides the served call's approval by asking the client (MCP elicitation): approved only on an
 * `accept` whose form says `approve: true`. A client without elicitation, a decline, a cancel, an
 * error or a malformed answer is a denial. Deferrals other than approvals cannot wait over MCP.
 */
function approvalHandler(served: ServedCall): DeferredToolHandler {
  return async (pending) => {
    const results = new DeferredToolResults();
    for (const call of pending.calls) results.fail(call, `tool \`${call.toolName}\` cannot be deferred over MCP`);
    for (const call of pending.approvals) {
      const elicitation = served.server.getClientCapabilities()?.elicitation;
      if (elicitation === undefined) {
        results.deny(
          call,
          `tool \`${call.toolName}\` requires approval and this MCP client does not support elicitation, so it was not run`,
        );
        continue;
      }
      let answer: { action: string; content?: Record<string, unknown> } | undefined;
      try {
        answer = await served.server.elicitInput(
          {
            message: `Allow the tool \`${call.toolName}\` to run with ${shownArguments(served.tool, call.arguments)}?`,
            requestedSchema: {
              type: 'object',
              properties: {
                approve: {
                  type: 'boolean',
                  title: 'Run this tool',
                  description: 'true to run the call, false to refuse it',
                },
              },
              required: ['approve'],
            },
          },
          { relatedRequestId: served.requestId, signal: served.signal },
        );
      } catch {
        answer = undefined;
      }
      if (answer?.action === 'accept' && answer.content?.approve === true) {
        // The tool set may have changed while the human answered: an approval covers the definition it was asked for.
        if (served.stillServed()) results.approve(call);
        else
          results.deny(
            call,
            `tool \`${call.toolName}\` was removed or changed while its approval was pending (needs_reapproval), so it was not run`,
          );
      } else {
        const how = answer === undefined ? 'the approval request failed' : `the client answered \`${answer.action}\``;
        results.deny(call, `tool \`${call.toolName}\` was not approved (${how}), so it was not run`);
      }
    }
    return results;
  };
}

/** The MCP content of the harness's tool message (text and images; other parts as a note). */
function contentOf(message: ToolMessage): CallToolResult['content'] {
  if (typeof message.content === 'string') return [{ type: 'text', text: message.content }];
  return message.content.map((part) => {
    if (part.type === 'text') return { type: 'text' as const, text: part.text };
    if (part.type === 'image' && part.data.kind === 'base64')
      return { type: 'image' as const, data: part.data.value, mimeType: part.mediaType };
    return { type: 'text' as const, text: `[${part.type} part not sent over MCP]` };
  });
}

/**
 * Runs one MCP `tools/call` through the harness's own admission and execution: a one-call run whose
 * model turn is the client's call. Validation, injected host values, approval (via elicitation),
 * middleware, the ledger, timeouts, result limits and artifacts, events and redaction are the
 * harness's; this only maps the tool message back to an MCP result. @internal
 */
export async function runServedCall(served: ServedCall): Promise<CallToolResult> {
  const name = served.tool.name;
  const policy: Partial<RunPolicy> = {
    toolErrors: { kind: 'return_error' },
    ...served.harness.policy,
    // Whatever the host set: a name the server does not serve is refused, never rewritten.
    unknownTool: { kind: 'return_tool_error' },
  };
  const harness = new AgentHarness({
    ...served.harness,
    policy,
    model: singleCallModel({ id: served.callId, name, arguments: served.arguments }),
    tools: served.registry,
    deferredToolHandler: approvalHandler(served),
  });
  const sink = served.onEvent;
  let run: Awaited<ReturnType<AgentHarness['invoke']>>;
  try {
    run = await harness.invoke(
      { ...served.context, signal: served.context.signal ?? served.signal },
      [{ role: 'user', content: `MCP client call of \`${name}\`` }],
      {
        recordEvents: false,
        ...(sink === undefined
          ? {}
          : { onEvent: (event) => (RUN_ONLY_EVENTS.has(event.type) ? undefined : sink(event)) }),
      },
    );
  } catch (error) {
    // The harness's own error types name what stopped the call; their text may quote the host's setup, so only the type goes out.
    const kind = TinyError.isInstance(error) ? error.name : 'an internal error';
    return errorResult(`tool \`${name}\` did not complete: ${kind} (see the server's events)`);
  }
  const message = run.messages.find(
    (item): item is ToolMessage => item.role === 'tool' && item.toolCallId === served.callId,
  );
  if (message === undefined) return errorResult(`tool \`${name}\` did not complete (run outcome \`${run.outcome}\`)`);
  const content = contentOf(message);
  if (message.isError === true) return { content, isError: true };
  const output = served.tool.outputSchema;
  if (output === undefined || typeof output !== 'object' || (output as { type?: unknown }).type !== 'object')
    return { content };
  const text = content.length === 1 && content[0]?.type === 'text' ? content[0].text : undefined;
  let structured: unknown;
  try {
    structured = text === undefined ? undefined : JSON.parse(text);
  } catch {
    structured = undefined;
  }
  const checked =
    structured === undefined ? undefined : validateSchemaValue({ jsonSchema: output } as ResolvedSchema, structured);
  if (
    checked instanceof Promise ||
    checked?.ok !== true ||
    typeof structured !== 'object' ||
    structured === null ||
    Array.isArray(structured)
  )
    return {
      content: [
        ...content,
        {
          type: 'text',
          text: 'the result could not be sent as structured content for the output schema (cut or not JSON)',
        },
      ],
      isError: true,
    };
  return { content, structuredContent: structured as Record<string, unknown> };
}
