import { createHash } from 'node:crypto';
import { buildTrace } from '../model/build-trace.js';
import { normalizeInput, type TraceInput } from '../model/trace-input.js';
import type { RunView, TraceView } from '../model/trace-view.js';
import { escapeHtml } from './escape-html.js';
import { formatDuration, plural } from './format.js';
import { PAGE_SCRIPT } from './page-script.js';
import { PAGE_STYLE } from './page-style.js';
import { renderNotes, renderTurn } from './render-turn.js';

/** Options for {@link renderTraceHtml}. */
export interface RenderTraceOptions {
  /** Page title and heading. Default `Run <runId>`. */
  readonly title?: string | undefined;
  /**
   * Arrival time of each event (epoch ms), index for index, when the input is an `AgentRun` or a
   * bare event array. A recording from `recordEvents` brings its own. Without times, only tool
   * calls have durations and the timeline follows event order.
   */
  readonly timestamps?: readonly number[] | undefined;
}

const scriptHash = createHash('sha256').update(PAGE_SCRIPT).digest('base64');
const policy = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  `script-src 'sha256-${scriptHash}'`,
  "img-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

function stat(count: number, one: string, many: string, hot = false): string {
  return `<li class="${hot && count > 0 ? 'hot' : ''}"><b>${count}</b> ${escapeHtml(count === 1 ? one : many)}</li>`;
}

/** The run's end reason as a badge, with what stopped it and the way there (`deferred → resumed → final`). */
function renderOutcome(run: RunView | undefined): string {
  const outcome = run?.outcome ?? 'unknown';
  const badge = `<span class="outcome ${escapeHtml(outcome)}">${escapeHtml(outcome)}</span>`;
  const reason = run?.reason === undefined ? '' : ` <span class="dim">(${escapeHtml(run.reason)})</span>`;
  const path =
    run !== undefined && run.parts.length > 1
      ? ` <span class="dim parts">${escapeHtml(
          run.parts.map((part) => `${part.resumed ? 'resumed → ' : ''}${part.outcome ?? 'unfinished'}`).join(' → '),
        )}</span>`
      : '';
  return `${badge}${reason}${path}`;
}

function renderHeader(view: TraceView, title: string): string {
  const single = view.runs.length <= 1;
  const duration =
    view.timing === 'none'
      ? undefined
      : `${view.timing === 'tools' ? '≈ ' : ''}${formatDuration(view.end - view.start)}`;
  const started = view.timing === 'none' ? undefined : new Date(view.start).toISOString();
  const meta = [
    single
      ? view.runId === undefined
        ? ''
        : `run <code>${escapeHtml(view.runId)}</code>`
      : `<b>${view.runs.length}</b> runs, one section each`,
    single ? renderOutcome(view.runs[0]) : '',
    duration === undefined ? '' : escapeHtml(duration),
    started === undefined ? '' : `<span class="dim">started ${escapeHtml(started)}</span>`,
  ].filter((part) => part !== '');
  const { totals } = view;
  const stats = [
    stat(totals.turns, 'turn', 'turns'),
    stat(totals.modelCalls, 'model call', 'model calls'),
    stat(totals.toolCalls, 'tool call', 'tool calls'),
    `<li><b>${totals.inputTokens}</b> → <b>${totals.outputTokens}</b> tokens</li>`,
    stat(totals.recoveries, 'recovery', 'recoveries'),
    stat(totals.deferrals, 'deferral', 'deferrals'),
    stat(totals.failures, 'failure', 'failures', true),
    stat(totals.retries, 'retry', 'retries'),
  ];
  const timingNote =
    view.timing === 'recorded'
      ? ''
      : `<p class="timing-note">${
          view.timing === 'tools' ? 'Only tool calls carry times' : 'No times in this trace'
        }: record the run with <code>recordEvents()</code> for model-call and turn durations.</p>`;
  const failure =
    view.failure === undefined ? '' : renderNotes([{ tone: 'error', label: 'run failed', text: view.failure }]);
  const finalText =
    view.finalText === undefined || view.finalText === ''
      ? ''
      : `<details class="final"><summary>Final answer</summary><div class="body"><pre>${escapeHtml(view.finalText)}</pre></div></details>`;
  return `<header class="run">
<h1>${escapeHtml(title)}</h1>
<div class="meta">${meta.join(' · ')}</div>
<ul class="stats">${stats.join('')}</ul>
${timingNote}${failure}${finalText}
<div class="controls"><button type="button" data-action="expand">Expand all</button><button type="button" data-action="collapse">Collapse all</button><button type="button" data-action="problems" aria-pressed="false">Only problems</button></div>
</header>`;
}

/** One run of a trace that holds several: its heading (id, end reason, counts), notes and turns. */
function renderRun(run: RunView, view: TraceView): string {
  const facts = [
    plural(run.totals.turns, 'turn'),
    plural(run.totals.modelCalls, 'model call'),
    plural(run.totals.toolCalls, 'tool call'),
    view.timing === 'recorded' ? formatDuration(run.end - run.start) : undefined,
  ].filter((fact) => fact !== undefined);
  const id = run.runId === undefined ? 'without an id' : `<code>${escapeHtml(run.runId)}</code>`;
  const finalText =
    run.finalText === undefined || run.finalText === ''
      ? ''
      : `<details class="final"><summary>Final answer</summary><div class="body"><pre>${escapeHtml(run.finalText)}</pre></div></details>`;
  return `<section class="run-section" data-run-id="${escapeHtml(run.runId ?? '')}" data-outcome="${escapeHtml(run.outcome ?? 'unknown')}">
<h2 class="run-heading">Run ${id} ${renderOutcome(run)} <span class="dim">${escapeHtml(facts.join(' · '))}</span></h2>
${renderNotes(run.notes)}${finalText}
${run.turns.map((turn) => renderTurn(turn, view.start, view.timing)).join('\n')}
</section>`;
}

/**
 * Renders a run as one self-contained HTML page: a header with totals, then per turn a timeline
 * (model call, tool calls on parallel lanes when they overlap, nested calls marked ↳) and
 * expandable rows with each call's captured arguments, output, errors and events. Recoveries,
 * deferrals, approvals, denials and failures are badged.
 *
 * The page loads nothing: CSS and script are inline, and its Content-Security-Policy forbids any
 * fetch and admits only its own script (by hash). Every piece of run data is HTML-escaped, so tool
 * output such as `<script>` shows as text. The output depends only on the input.
 */
export function renderTraceHtml(input: TraceInput, options: RenderTraceOptions = {}): string {
  const view = buildTrace(normalizeInput(input, options.timestamps));
  const title = options.title ?? (view.runId === undefined ? 'Agent run' : `Run ${view.runId}`);
  const body =
    view.runs.length <= 1
      ? view.turns.map((turn) => renderTurn(turn, view.start, view.timing)).join('\n')
      : view.runs.map((run) => renderRun(run, view)).join('\n');
  const empty = view.turns.length === 0 ? '<p class="dim">No turns in this trace.</p>' : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="@tiny/trace">
<title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
${renderHeader(view, title)}
<main>
${renderNotes(view.notes)}${empty}
${body}
</main>
<footer>@tiny/trace · a self-contained page: no network, no external files.</footer>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}
