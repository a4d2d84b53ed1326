import type { ModelCallView, TimingSource, ToolCallView } from '../model/trace-view.js';
import { escapeHtml } from './escape-html.js';
import { formatDuration, formatValue, plural } from './format.js';

/** Element id of a call's details (ids are indexes: call ids never reach an attribute unescaped). @internal */
export const callElementId = (call: ToolCallView): string => `call-${call.index}`;
/** @internal */
export const modelElementId = (model: ModelCallView): string => `model-${model.index}`;

/** True when the call, or a call it made, did not simply succeed. @internal */
export function isProblem(call: ToolCallView): boolean {
  return (
    call.status !== 'ok' || call.recovery !== undefined || call.denied !== undefined || call.children.some(isProblem)
  );
}

/** The CSS classes that colour a call's dot and bar. @internal */
export function callClasses(call: ToolCallView): string {
  return `status-${call.status}${call.recovery === undefined ? '' : ' recovered'}`;
}

function recoveryLabel(call: ToolCallView): string | undefined {
  const recovery = call.recovery;
  if (recovery === undefined) return undefined;
  if (recovery.kind === 'unknown_tool') {
    return recovery.recovery.startsWith('rewrite:')
      ? `recovered · unknown tool → ${recovery.recovery.slice('rewrite:'.length)}`
      : 'recovered · unknown tool';
  }
  if (recovery.recovery === 'repaired' || recovery.recovery === 'normalized') {
    return `recovered · arguments ${recovery.recovery}`;
  }
  return 'recovered · invalid arguments';
}

function badges(call: ToolCallView): string {
  const list: [string, string][] = [];
  const recovery = recoveryLabel(call);
  if (recovery !== undefined) list.push(['recovery', recovery]);
  if (call.status === 'deferred') list.push(['deferred', `deferred · ${call.deferredReason ?? ''}`]);
  if (call.approved) list.push(['approved', 'approved']);
  if (call.denied !== undefined) list.push(['denied', 'denied']);
  if (call.status === 'failed') list.push(['failed', 'failed']);
  if (call.status === 'error' && call.recovery === undefined && call.denied === undefined) {
    list.push(['error', 'error result']);
  }
  if (call.status === 'running') list.push(['running', 'unfinished']);
  return list.map(([kind, text]) => `<span class="badge ${kind}">${escapeHtml(text)}</span>`).join('');
}

function block(title: string, text: string, className = ''): string {
  return `<h4>${escapeHtml(title)}</h4><pre${className === '' ? '' : ` class="${className}"`}>${escapeHtml(text)}</pre>`;
}

/** One tool call as an expandable row, with the calls it made nested inside. @internal */
export function renderToolCall(call: ToolCallView, runStart: number): string {
  const facts: [string, string][] = [
    ['call id', call.callId],
    ['tool', call.toolName],
  ];
  if (call.format !== undefined) {
    facts.push(['written as', call.grammar === undefined ? call.format : `${call.format} (read with ${call.grammar})`]);
  }
  if (call.parentCallId !== undefined) facts.push(['called by', call.parentCallId]);
  if (call.status !== 'deferred') facts.push(['duration', formatDuration(call.durationMs)]);
  if (call.outputBytes !== undefined) facts.push(['output size', `${call.outputBytes} bytes`]);
  const parts = [
    `<dl>${facts.map(([term, value]) => `<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl>`,
  ];
  if (call.hasInput) parts.push(block('Arguments', formatValue(call.input)));
  else if (call.recovery !== undefined)
    parts.push(block('Arguments (as the model sent them)', formatValue(call.recovery.arguments)));
  if (call.recovery?.detail !== undefined) parts.push(block('Validation', call.recovery.detail, 'error'));
  if (call.status === 'deferred') {
    parts.push(`<p class="dim">Deferred (${escapeHtml(call.deferredReason ?? '')}): the run paused for the host.</p>`);
  }
  if (call.denied !== undefined) parts.push(block('Denied', call.denied, 'error'));
  if (call.status === 'failed' || call.status === 'error') parts.push(block('Error', call.error ?? '', 'error'));
  else if (call.output !== undefined) parts.push(block('Output', call.output));
  if (!call.hasInput && call.recovery === undefined && call.status !== 'deferred') {
    parts.push(
      '<p class="dim">Arguments and output not captured: run with <code>policy: { captureToolIo: true }</code>.</p>',
    );
  }
  if (call.notes.length > 0) {
    parts.push(`<h4>Events</h4><ul>${call.notes.map((note) => `<li>${escapeHtml(note)}</li>`).join('')}</ul>`);
  }
  if (call.children.length > 0) {
    parts.push(
      `<h4>Calls made</h4><div class="children">${call.children.map((child) => renderToolCall(child, runStart)).join('')}</div>`,
    );
  }
  const offset = call.start - runStart;
  return `<details class="call" id="${callElementId(call)}" data-call-id="${escapeHtml(call.callId)}" data-status="${call.status}" data-problem="${isProblem(call)}">
<summary><span class="dot ${callClasses(call)}"></span><span class="name">${escapeHtml(call.toolName)}</span><code class="dim">${escapeHtml(call.callId)}</code><span class="dim">${call.status === 'deferred' ? '' : escapeHtml(formatDuration(call.durationMs))}</span>${badges(call)}<span class="dim">at +${escapeHtml(formatDuration(offset))}</span></summary>
<div class="body">${parts.join('')}</div></details>`;
}

/** One model call as an expandable row. @internal */
export function renderModelCall(model: ModelCallView, timing: TimingSource): string {
  const duration =
    timing === 'recorded' && model.end !== undefined ? formatDuration(model.end - model.start) : undefined;
  const tokens =
    model.inputTokens === undefined && model.outputTokens === undefined
      ? undefined
      : `${model.inputTokens ?? '?'}${model.cachedInputTokens === undefined ? '' : ` (${model.cachedInputTokens} cached)`} → ${model.outputTokens ?? '?'} tokens`;
  const summary = [
    duration,
    model.finishReason === undefined ? 'unfinished' : `finish: ${model.finishReason}`,
    tokens,
    model.toolCallCount === undefined ? undefined : plural(model.toolCallCount, 'tool call'),
  ].filter((part) => part !== undefined);
  const retryBadge =
    model.retries.length === 0
      ? ''
      : `<span class="badge retry">${`${model.retries.length} ${model.retries.length === 1 ? 'retry' : 'retries'}`}</span>`;
  const droppedBadge =
    model.dropped === 0 ? '' : `<span class="badge error">dropped calls · nudge ${model.dropped}</span>`;
  const refusedBadge =
    model.refused.length === 0
      ? ''
      : `<span class="badge error">refused ${model.refused.length} call${model.refused.length === 1 ? '' : 's'} · ${escapeHtml(model.refused[0]?.reason ?? '')}</span>`;
  const breakBadge =
    model.prefixBreak === undefined
      ? ''
      : `<span class="badge cache-break">cache break · ~${model.prefixBreak.lostTokens} tokens</span>`;
  const parts: string[] = [`<dl><dt>model call id</dt><dd>${escapeHtml(model.modelCallId)}</dd></dl>`];
  if (model.prefixBreak !== undefined)
    parts.push(
      `<h4>Prompt prefix changed</h4><ul>${model.prefixBreak.changes.map((change) => `<li>${escapeHtml(change)}</li>`).join('')}</ul>`,
    );
  if (model.retries.length > 0) {
    parts.push(
      `<h4>Retries</h4><ul>${model.retries.map((retry) => `<li>attempt ${retry.attempt}: ${escapeHtml(retry.error)}</li>`).join('')}</ul>`,
    );
  }
  if (model.text !== '') parts.push(block('Streamed text', model.text));
  return `<details class="model-call" id="${modelElementId(model)}" data-problem="${model.retries.length > 0 || model.dropped > 0 || model.refused.length > 0}">
<summary><span class="dot model"></span><span class="name">model</span><span class="dim">${escapeHtml(summary.join(' · '))}</span>${retryBadge}${droppedBadge}${refusedBadge}${breakBadge}</summary>
<div class="body">${parts.join('')}</div></details>`;
}
