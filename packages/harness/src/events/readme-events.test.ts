import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AgentEventType } from './agent-event.js';

/**
 * Every member of the union, once. `satisfies` makes a missing or unknown key a type error
 * (`pnpm typecheck`), so this list cannot drift from `AgentEvent`.
 */
const everyEventType = {
  run_started: true,
  model_profiled: true,
  tools_advertised: true,
  turn_started: true,
  model_started: true,
  prompt_prefix_changed: true,
  model_delta: true,
  tool_call_delta: true,
  model_completed: true,
  model_retried: true,
  tool_call_dropped: true,
  tool_choice_ignored: true,
  tool_call_refused: true,
  tools_filtered: true,
  tool_definition_added: true,
  tool_definition_changed: true,
  tool_definition_removed: true,
  tool_searched: true,
  deferred_tool_call: true,
  unknown_tool_call: true,
  invalid_tool_args: true,
  tool_deferred: true,
  tool_approved: true,
  tool_denied: true,
  tool_started: true,
  tool_progress: true,
  tool_completed: true,
  tool_failed: true,
  tool_effect_reconciled: true,
  ledger_write_failed: true,
  tool_returned_undefined: true,
  custom: true,
  control_applied: true,
  output_retry: true,
  output_fallback: true,
  limit_reached: true,
  turn_completed: true,
  run_completed: true,
  run_failed: true,
} as const satisfies Record<AgentEventType, true>;

/** The event names in the first column of the README's `## Events` table. */
function readmeEventTypes(): string[] {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.split(/^## /m).find((part) => part.startsWith('Events\n'));
  if (section === undefined) throw new Error('README.md has no "## Events" section');
  return [...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((match) => match[1] as string);
}

describe('the README event list', () => {
  it('names every AgentEvent type exactly once, and nothing else', () => {
    const listed = readmeEventTypes();
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual(Object.keys(everyEventType).sort());
  });
});
