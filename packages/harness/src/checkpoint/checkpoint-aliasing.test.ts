import { defineTool } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import type { RunState } from '../deferral/run-state.js';
import { ScriptedModel, scriptedToolCall } from '../testkit/index.js';

// The run state given to `onCheckpoint` is the host's to keep: it never aliases the live run.

const open = { type: 'object', properties: {}, additionalProperties: true } as const;
const echo = defineTool({ name: 'echo', description: 'echo', parameters: open, execute: () => 'ok' });

describe('a checkpoint', () => {
  it('cannot edit the run: its usage and prefix fingerprint parts are frozen copies', async () => {
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('echo', {}, 'c1')], usage: { inputTokens: 10, outputTokens: 1 } },
        { content: 'done', usage: { inputTokens: 20, outputTokens: 2 } },
      ],
    });
    const saved: string[] = [];
    let edits = 0;
    const tryEdit = (edit: () => void) => {
      try {
        edit();
        edits += 1;
      } catch {
        // Refused: the checkpoint is frozen.
      }
    };
    const run = await new AgentHarness({ model, tools: [echo] }).invoke('go', {
      onCheckpoint(state: RunState) {
        saved.push(JSON.stringify(state));
        const edited = state as unknown as {
          usage: Record<string, number>;
          prefix: { fingerprint: Record<string, { hash: string }[] & { hash: string }> };
        };
        const fingerprint = edited.prefix.fingerprint as unknown as Record<string, unknown>;
        tryEdit(() => {
          edited.usage.inputTokens = 1_000_000;
        });
        const targets = [
          ...['tools', 'history', 'systems'].map((key) => (fingerprint[key] as { hash: string }[] | undefined)?.[0]),
          fingerprint.system as { hash: string } | undefined,
          fingerprint.settings as { hash: string } | undefined,
        ];
        for (const part of targets)
          if (part)
            tryEdit(() => {
              part.hash = 'forged';
            });
        tryEdit(() => {
          (fingerprint.history as unknown[]).push({ hash: 'forged', chars: 1 });
        });
      },
    });
    expect(saved.length).toBeGreaterThan(0);
    expect(edits).toBe(0);
    expect(run.usage.inputTokens).toBe(30);
    expect(JSON.stringify(run.events)).not.toContain('forged');
  });
});
