import type { AgentEvent } from '@tiny/harness';

/** What the markers at the start of each printed line mean. */
export const LEGEND = [
  'legend:  == run   -- turn   ~ streamed model text   > tool runs   < tool result   x tool failed',
  '         ! recovery (the model got a call wrong)   ? waits for the host   + host decision',
  '         = structured answer (an output tool: checked, never executed)',
].join('\n');

/** At most `max` characters, cut at a word boundary (never mid-word), with an ellipsis when cut. */
export function short(value: unknown, max = 90): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

/**
 * Turns events into readable lines. Calls the harness answered without running them (an unknown
 * tool, arguments it could not repair) are shown as recoveries, never as started tools.
 */
export function createEventFormatter(
  options: { readonly outputTools?: readonly string[] } = {},
): (event: AgentEvent) => string | undefined {
  const recovered = new Set<string>();
  const outputTools = new Set(options.outputTools ?? []);
  /** The last turn shown per run: a resume numbers its turns from 1 again, the demo goes on counting. */
  const lastTurn = new Map<string, number>();
  let run = '';
  let offset = 0;
  let advertised = false;
  let outputCall: { readonly toolName: string; readonly callId: string } | undefined;
  let answered = false;
  return (event) => {
    switch (event.type) {
      case 'run_started': {
        const resumed = lastTurn.has(event.runId);
        const first = run === '';
        run = event.runId;
        offset = lastTurn.get(event.runId) ?? 0;
        answered = false;
        return resumed ? `== run ${event.runId} resumes` : `${first ? '' : '\n'}== run ${event.runId}`;
      }
      case 'tools_advertised':
        if (advertised) return undefined;
        advertised = true;
        return `tools offered (${event.dialect}): ${event.direct.join(', ')} [${event.schemaBytes} bytes of schema]`;
      case 'turn_started':
        lastTurn.set(run, offset + event.turn);
        return `\n-- turn ${offset + event.turn}`;
      case 'unknown_tool_call':
        recovered.add(event.callId);
        return `! unknown tool \`${event.requestedName}\` -> the model is told the valid tools (${event.recovery})`;
      case 'invalid_tool_args':
        if (event.recovery === 'tool_error') recovered.add(event.callId);
        return `! bad arguments for ${event.toolName}: ${short(event.arguments)} -> ${event.recovery}`;
      case 'tool_started':
        if (recovered.has(event.callId)) return undefined;
        if (outputTools.has(event.toolName)) {
          // An output tool's arguments are the answer: shown once checked (control_applied below).
          outputCall = { toolName: event.toolName, callId: event.callId };
          return event.input === undefined ? undefined : `= ${event.toolName} [${event.callId}] ${short(event.input)}`;
        }
        return `> ${event.toolName} [${event.callId}] ${event.input === undefined ? '' : short(event.input)}`;
      case 'tool_completed':
        if (recovered.has(event.callId)) return `  the model reads: ${short(event.error ?? event.output ?? '', 110)}`;
        if (outputTools.has(event.toolName)) return undefined;
        return `< ${event.toolName} [${event.callId}] ${event.error ? `error: ${short(event.error)}` : short(event.output ?? '')}${event.metadata === undefined ? '' : `  (host-only metadata ${short(event.metadata)})`}`;
      case 'tool_failed':
        return `x ${event.toolName} [${event.callId}] ${event.error}`;
      case 'tool_deferred':
        return `? ${event.toolName} [${event.callId}] waits for the host (${event.reason})`;
      case 'tool_approved':
        return `+ ${event.toolName} [${event.callId}] approved by the host${event.edited ? ' with edited arguments' : ''}`;
      case 'tool_denied':
        return `+ ${event.toolName} [${event.callId}] denied: ${event.message}`;
      case 'output_retry':
        return `! structured output \`${event.schemaName}\` failed (${event.errorKind}), asking again`;
      case 'control_applied':
        if (event.control !== 'stop_with_final' || outputCall === undefined) return undefined;
        answered = true;
        return `= ${outputCall.toolName} [${outputCall.callId}] answer checked against the schema: ${short(event.detail)}`;
      case 'run_completed':
        // An output tool ends its run with `stopped`: the run succeeded, with the structured answer.
        return answered && event.outcome === 'stopped'
          ? `run ${event.runId}: done, the structured answer ended it (outcome \`stopped\`)`
          : `run ${event.runId}: ${event.outcome}`;
      default:
        return undefined;
    }
  };
}
