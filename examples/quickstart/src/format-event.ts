import type { AgentEvent } from '@tiny/harness';

const short = (value: unknown) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 90 ? `${text.slice(0, 87)}...` : text;
};

/** One readable line per event (or `undefined` for events the demo skips). */
export function formatEvent(event: AgentEvent): string | undefined {
  switch (event.type) {
    case 'tools_advertised':
      return `tools offered (${event.dialect}): ${event.direct.join(', ')} [${event.schemaBytes} bytes of schema]`;
    case 'turn_started':
      return `\n-- turn ${event.turn}`;
    case 'model_completed':
      return `model: finish=${event.finishReason}, ${event.toolCallCount} tool call(s)`;
    case 'unknown_tool_call':
      return `! unknown tool \`${event.requestedName}\` -> recovery: ${event.recovery}`;
    case 'invalid_tool_args':
      return `! bad arguments for ${event.toolName} (${event.error}) -> recovery: ${event.recovery}`;
    case 'tool_started':
      return `> ${event.toolName} [${event.callId}] ${event.input === undefined ? '' : short(event.input)}`;
    case 'tool_completed':
      return `< ${event.toolName} [${event.callId}] ${event.error ? `error: ${short(event.error)}` : short(event.output ?? '')}${event.metadata === undefined ? '' : `  (host-only metadata ${short(event.metadata)})`}`;
    case 'tool_failed':
      return `x ${event.toolName} [${event.callId}] ${event.error}`;
    case 'run_completed':
      return `\nrun ${event.runId} completed: ${event.outcome}`;
    default:
      return undefined;
  }
}
