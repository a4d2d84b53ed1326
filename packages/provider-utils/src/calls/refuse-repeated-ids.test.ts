import { describe, expect, it } from 'vitest';
import { refuseRepeatedIds } from './refuse-repeated-ids.js';

describe('refuseRepeatedIds', () => {
  it('leaves calls with distinct ids as they are', () => {
    const calls = [
      { id: 'a', name: 'bash', arguments: { cmd: 'ls' } },
      { id: 'b', name: 'bash', arguments: {} },
    ];
    expect(refuseRepeatedIds(calls)).toBe(calls);
  });

  it('makes every call refused when two share an id, keeping their raw text', () => {
    const out = refuseRepeatedIds([
      { id: 'x', name: 'bash', arguments: { cmd: 'ls' } },
      { id: 'y', name: 'read', arguments: { path: 'a' }, rawArguments: '{"path":"a"}' },
      { id: 'x', name: 'bash', arguments: { cmd: 'rm' } },
      // Merely unreadable before: refused now too, so it is never repaired into a run.
      { id: 'z', name: 'bash', arguments: '{cmd: "rm",}', invalid: 'bad JSON', rawArguments: '{cmd: "rm",}' },
    ]);
    expect(out.map((call) => [call.id, call.arguments])).toEqual([
      ['x', '{"cmd":"ls"}'],
      ['y', '{"path":"a"}'],
      ['x', '{"cmd":"rm"}'],
      ['z', '{cmd: "rm",}'],
    ]);
    for (const call of out) {
      expect(call.invalid).toMatch(/tool call id `x` names two calls/);
      expect(call.refused).toBe(true);
    }
  });
});
