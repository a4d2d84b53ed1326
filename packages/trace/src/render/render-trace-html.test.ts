import type { AgentEvent, AgentRun } from '@tiny/harness';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTrace } from '../model/build-trace.js';
import { normalizeInput } from '../model/trace-input.js';
import type { TraceRecording } from '../record/record-events.js';
import { DEMO_SECRET, recordDemoRun } from './demo-run.test-helper.js';
import { renderTraceHtml } from './render-trace-html.js';

const hostile = '</pre></details><script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">';
let run: AgentRun;
let recording: TraceRecording;
let html: string;

beforeAll(async () => {
  ({ run, recording } = await recordDemoRun({ pageText: hostile }));
  html = renderTraceHtml(recording);
});

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

describe('renderTraceHtml', () => {
  it('renders one section per turn with the run totals', () => {
    expect(run.outcome).toBe('deferred');
    expect(count(html, /<section class="turn"/g)).toBe(3);
    expect(html).toContain('<b>3</b> turns');
    expect(html).toContain('<b>2</b> recoveries');
    expect(html).toContain('<b>1</b> deferral');
    expect(html).toContain('<span class="outcome deferred">deferred</span>');
  });

  it('badges recoveries, deferrals and error results', () => {
    expect(html).toContain('<span class="badge recovery">recovered · unknown tool</span>');
    expect(html).toContain('<span class="badge recovery">recovered · invalid arguments</span>');
    expect(html).toContain('<span class="badge deferred">deferred · approval_required</span>');
    expect(html).toContain('<span class="badge error">error result</span>');
  });

  it('puts concurrent calls on separate lanes and nests calls made by a tool', () => {
    const view = buildTrace(normalizeInput(recording));
    const first = view.turns.find((turn) => turn.turn === 1);
    const weather = first?.tools.filter((call) => call.toolName === 'weather') ?? [];
    expect(weather.map((call) => call.lane).sort()).toEqual([0, 1]);
    const second = view.turns.find((turn) => turn.turn === 2);
    const plan = second?.roots.find((call) => call.toolName === 'plan_trip');
    expect(plan?.children.map((call) => [call.callId, call.toolName])).toEqual([['call_p1/1', 'distance']]);
    expect(second?.roots.some((call) => call.toolName === 'distance')).toBe(false);
    expect(html).toContain('↳ distance');
  });

  it('shows captured arguments and outputs inside the call rows', () => {
    expect(html).toContain('&quot;city&quot;: &quot;Oslo&quot;');
    expect(html).toContain('Oslo → Bergen: 463 km');
    expect(html).not.toContain(DEMO_SECRET);
  });

  it('escapes everything from the run: tool output cannot inject markup', () => {
    expect(count(html, /<script/g)).toBe(1);
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;/pre&gt;&lt;/details&gt;&lt;script&gt;window.__pwned = 1&lt;/script&gt;');
    const events: AgentEvent[] = [
      { type: 'run_started', runId: '"><script>1</script>' },
      { type: 'turn_started', turn: 1 },
      { type: 'tool_started', callId: '" onmouseover="x', toolName: '<b>x</b>' },
      {
        type: 'tool_completed',
        callId: '" onmouseover="x',
        toolName: '<b>x</b>',
        startedAtMs: 1,
        durationMs: 1,
        outputBytes: 1,
      },
    ];
    const page = renderTraceHtml(events, { title: '<i>t</i>' });
    expect(count(page, /<script/g)).toBe(1);
    expect(page).not.toMatch(/<b>x<\/b>|<i>t<\/i>|" onmouseover/);
  });

  it('is self-contained: inline style and script, a CSP that blocks all fetches, no URLs', () => {
    expect(html).toMatch(
      /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; [^"]*script-src 'sha256-/,
    );
    expect(html).not.toMatch(/(?:src|href)=["']?(?:https?:)?\/\//);
    expect(html).not.toMatch(/<link|@import|url\(/);
  });

  it('is deterministic for the same input', () => {
    expect(renderTraceHtml(recording)).toBe(html);
  });

  it('reads an AgentRun, bare events, or events with a timestamps array', () => {
    const fromRun = renderTraceHtml(run);
    expect(count(fromRun, /<section class="turn"/g)).toBe(3);
    expect(fromRun).toContain('Only tool calls carry times');
    expect(renderTraceHtml(run.events)).toContain('Only tool calls carry times');
    const timed = renderTraceHtml(
      recording.events.map((entry) => entry.event),
      { timestamps: recording.events.map((entry) => entry.at) },
    );
    expect(timed).not.toContain('class="timing-note"');
    expect(buildTrace(normalizeInput(run)).timing).toBe('tools');
    expect(buildTrace(normalizeInput([{ type: 'turn_started', turn: 1 }])).timing).toBe('none');
  });

  it('renders a failed run with its error and an empty trace without throwing', () => {
    const failed = renderTraceHtml([
      { type: 'run_started', runId: 'r1' },
      { type: 'turn_started', turn: 1 },
      { type: 'limit_reached', limitKind: 'model_calls', limit: 1 },
      { type: 'run_failed', runId: 'r1', error: 'model_calls budget of 1 spent' },
    ]);
    expect(failed).toContain('<span class="outcome failed">failed</span>');
    expect(failed).toContain('<b>limit reached</b>');
    expect(renderTraceHtml([])).toContain('No turns in this trace.');
  });
});

describe('tool definition events in the viewer', () => {
  it('shows a visible row for each definition added, changed or removed, escaped', () => {
    const page = renderTraceHtml([
      { type: 'run_started', runId: 'r1' },
      {
        type: 'tool_definition_changed',
        toolSet: 'mcp:changing',
        toolName: 'greet',
        changed: ['description', 'inputSchema'],
        pinned: 'a'.repeat(64),
        current: 'b'.repeat(64),
        withheld: true,
      },
      { type: 'turn_started', turn: 1 },
      {
        type: 'tool_definition_added',
        toolSet: 'mcp:changing',
        toolName: '<b>wave</b>',
        current: 'c'.repeat(64),
        withheld: false,
      },
      { type: 'tool_definition_removed', toolSet: 'mcp:changing', toolName: 'old', previous: 'd'.repeat(64) },
      { type: 'run_completed', runId: 'r1', outcome: 'final' },
    ]);
    expect(page).toContain('<b>tool definition changed</b>');
    expect(page).toContain(
      'mcp:changing: greet changed description, inputSchema, withheld until approved (aaaaaaaaaaaa → bbbbbbbbbbbb)',
    );
    expect(page).toContain('<b>tool definition added</b>');
    expect(page).toContain('&lt;b&gt;wave&lt;/b&gt; offered (cccccccccccc)');
    expect(page).toContain('<b>tool definition removed</b>');
    expect(page).toContain('mcp:changing: old is no longer listed');
  });
});

describe('discovery events in the viewer', () => {
  it('notes searches and deferred calls on their tool calls', async () => {
    const { AgentHarness } = await import('@tiny/harness');
    const { ScriptedModel, scriptedToolCall } = await import('@tiny/harness/testkit');
    const { defineTool, ToolPolicy } = await import('@tiny/tools');
    const archive = defineTool({
      name: 'archive_ticket',
      description: 'Archive a support ticket.',
      parameters: { type: 'object', properties: { id: { type: 'string' } } },
      exposure: 'deferred',
      policy: ToolPolicy.readOnly(),
      execute: () => 'archived',
    });
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('tool_search', { query: 'archive a ticket' }, 'q1')] },
        { toolCalls: [scriptedToolCall('tool_call', { name: 'archive_ticket', arguments: '{"id":"t-1"}' }, 'a1')] },
        { content: 'done' },
      ],
    });
    const run = await new AgentHarness({ model, tools: [archive] }).invoke({}, [
      { role: 'user', content: 'archive t-1' },
    ]);
    const html = renderTraceHtml(run);
    expect(html).toContain('searched with bm25: archive_ticket');
    expect(html).toContain('deferred tool, called through tool_call');
  });
});

describe('a call refused from a broken turn', () => {
  it('badges the model call and records the refusal', () => {
    const events: AgentEvent[] = [
      { type: 'run_started', runId: 'r1' },
      { type: 'turn_started', turn: 1 },
      { type: 'model_started', modelCallId: 'r1-m0', turn: 1 },
      {
        type: 'model_completed',
        modelCallId: 'r1-m0',
        finishReason: 'length',
        toolCallCount: 1,
      },
      { type: 'tool_call_refused', modelCallId: 'r1-m0', callId: 'c1', toolName: 'write_file', reason: 'length' },
      { type: 'run_completed', runId: 'r1', outcome: 'final' },
    ];
    const view = buildTrace(normalizeInput(events));
    const model = view.turns.flatMap((turn) => turn.models)[0];
    expect(model?.refused).toEqual([{ callId: 'c1', toolName: 'write_file', reason: 'length' }]);
    expect(renderTraceHtml(events)).toContain('<span class="badge error">refused 1 call · length</span>');
  });
});

describe('renderTraceHtml with hostile recorded values', () => {
  it('shows a progress message as its recorded JSON, never through its own toString', () => {
    const secret = 'sk-live-trace-toString-1234';
    const message = { toString: () => `key ${secret}`, shown: 'visible' };
    const events = [
      { type: 'run_started', runId: 'r1' },
      { type: 'tool_started', callId: 'c1', toolName: 'api' },
      { type: 'tool_progress', callId: 'c1', message, fraction: 0.5 },
      { type: 'tool_completed', callId: 'c1', toolName: 'api', startedAtMs: 0, durationMs: 1, outputBytes: 2 },
    ] as unknown as AgentEvent[];
    const page = renderTraceHtml(events);
    expect(page).not.toContain(secret);
    expect(page).toContain('visible');
  });
});
