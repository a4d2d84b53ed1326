import { barExtent } from '../model/assign-lanes.js';
import type { ModelCallView, NoteView, TimingSource, TurnView } from '../model/trace-view.js';
import { escapeHtml } from './escape-html.js';
import { barStyle, formatDuration, plural } from './format.js';
import { callClasses, callElementId, modelElementId, renderModelCall, renderToolCall } from './render-calls.js';

/** A list of run or turn notes (limits, controls, failures). @internal */
export function renderNotes(notes: readonly NoteView[]): string {
  if (notes.length === 0) return '';
  const items = notes.map(
    (note) => `<li class="${note.tone}"><b>${escapeHtml(note.label)}</b> ${escapeHtml(note.text)}</li>`,
  );
  return `<ul class="notes">${items.join('')}</ul>`;
}

function bar(className: string, target: string, placement: string, label: string, title: string): string {
  return `<a class="bar ${className}" href="#${target}" data-target="${target}" style="${placement}" title="${escapeHtml(title)}">${escapeHtml(label)}</a>`;
}

function modelStyle(model: ModelCallView, turn: TurnView): string {
  const span = Math.max(turn.end - turn.start, 1);
  const width = Math.min(1, Math.max(((model.end ?? turn.end) - model.start) / span, 0.03));
  return barStyle({ left: Math.min(Math.max((model.start - turn.start) / span, 0), 1 - width), width });
}

/** One turn: its timeline (a model row, then one row per lane of overlapping tool calls) and its calls. @internal */
export function renderTurn(turn: TurnView, runStart: number, timing: TimingSource): string {
  const modelBars = turn.models.map((model) => {
    const duration =
      timing === 'recorded' && model.end !== undefined ? ` · ${formatDuration(model.end - model.start)}` : '';
    const broke = model.prefixBreak;
    return bar(
      broke === undefined ? 'model' : 'model cache-break',
      modelElementId(model),
      modelStyle(model, turn),
      `${broke === undefined ? '' : '⚡ '}model${duration}`,
      broke === undefined
        ? `model call ${model.modelCallId}`
        : `model call ${model.modelCallId}: prompt prefix changed (${broke.changes.join(', ')}; ~${broke.lostTokens} cached tokens lost)`,
    );
  });
  const lanes: string[][] = Array.from({ length: turn.lanes }, () => []);
  for (const call of turn.tools) {
    const label = `${call.parentCallId === undefined ? '' : '↳ '}${call.toolName}${call.status === 'deferred' ? ' · deferred' : ''}`;
    const title = `${call.toolName} (${call.callId}) ${call.status === 'deferred' ? 'deferred' : formatDuration(call.durationMs)}`;
    const classes = `tool ${callClasses(call)}${call.parentCallId === undefined ? '' : ' nested'}`;
    const placement = barStyle(barExtent(call, turn.start, turn.end));
    lanes[call.lane]?.push(bar(classes, callElementId(call), placement, label, title));
  }
  const rows = [
    turn.models.length === 0
      ? ''
      : `<div class="row"><span class="row-label">model</span><div class="track">${modelBars.join('')}</div></div>`,
    ...(turn.tools.length === 0
      ? []
      : lanes.map(
          (bars, lane) =>
            `<div class="row lane"><span class="row-label">${lane === 0 ? 'tools' : ''}</span><div class="track">${bars.join('')}</div></div>`,
        )),
  ];
  const heading =
    turn.turn === 0
      ? 'Before the first turn'
      : turn.resumed
        ? `Turn ${turn.turn}, resumed: the decided calls run`
        : `Turn ${turn.turn}`;
  const facts = [
    `at +${formatDuration(turn.start - runStart)}`,
    timing === 'recorded' ? formatDuration(turn.end - turn.start) : undefined,
    plural(turn.tools.length, 'tool call'),
    turn.lanes > 1 ? `${turn.lanes} lanes` : undefined,
  ].filter((fact) => fact !== undefined);
  const calls = [
    ...turn.models.map((model) => renderModelCall(model, timing)),
    ...turn.roots.map((call) => renderToolCall(call, runStart)),
  ];
  return `<section class="turn" data-turn="${turn.turn}"${turn.resumed ? ' data-resumed="true"' : ''}>
<h2>${escapeHtml(heading)} <span class="dim">${escapeHtml(facts.join(' · '))}</span></h2>
<div class="timeline">${rows.join('')}</div>
${renderNotes(turn.notes)}
<div class="calls">${calls.join('\n')}</div>
</section>`;
}
