import type { Message, ToolSchema } from '@tiny/llm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffPrefix } from './diff-prefix.js';
import { fingerprintPrefix, type PrefixFingerprint, type PrefixSettings } from './prefix-fingerprint.js';
import { createPrefixTracker, type PrefixState } from './prefix-tracker.js';

const tools: ToolSchema[] = [{ name: 'a', description: 'a', parameters: { type: 'object' } }];

/** One change to a message list between two requests. */
type Step =
  | { kind: 'append'; role: 'user' | 'assistant' | 'system'; text: string }
  | { kind: 'replace'; at: number; text: string }
  | { kind: 'copy'; at: number }
  | { kind: 'insertSystem'; at: number; text: string }
  | { kind: 'drop'; at: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'newArray' }
  | { kind: 'copyAll' }
  | { kind: 'save' }
  | { kind: 'resume' }
  /** A request JSON cannot write (from `at` on, or appended: a new message, then one with a bigint): it throws and changes nothing. */
  | { kind: 'fail'; at: number; append: boolean };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('append' as const),
      role: fc.constantFrom('user' as const, 'assistant' as const, 'system' as const),
      text: fc.constantFrom('x', 'y', 'z'),
    }),
  },
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), text: fc.constantFrom('x', 'y', 'w') }),
  fc.record({ kind: fc.constant('copy' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('insertSystem' as const), at: fc.nat(), text: fc.constantFrom('s', 't') }),
  fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.constant({ kind: 'newArray' as const }),
  fc.constant({ kind: 'copyAll' as const }),
  fc.constant({ kind: 'save' as const }),
  fc.constant({ kind: 'resume' as const }),
  fc.record({ kind: fc.constant('fail' as const), at: fc.nat(), append: fc.boolean() }),
);

/** The request a `fail` step sends: `list` with a message JSON cannot write at its place (a new array). */
function failing(list: readonly Message[], change: Step & { kind: 'fail' }): Message[] {
  const bad = { role: 'user', content: [{ type: 'text', text: 'x', n: 1n }] } as unknown as Message;
  const sent = list.slice(0, change.append || list.length === 0 ? list.length : change.at % list.length);
  // A rewrite the fold takes before the message it cannot: what it replaced must come back.
  sent.push({ role: 'user', content: 'f' }, bad);
  return sent;
}

function apply(list: Message[], change: Step): Message[] {
  const at = list.length === 0 ? 0 : ((change as { at?: number }).at ?? 0);
  const index = list.length === 0 ? 0 : at % list.length;
  switch (change.kind) {
    case 'append':
      list.push({ role: change.role, content: change.text } as Message);
      return list;
    case 'replace':
      if (list.length > 0) list[index] = { ...(list[index] as Message), content: change.text } as Message;
      return list;
    case 'copy':
      if (list.length > 0) list[index] = { ...(list[index] as Message) };
      return list;
    case 'insertSystem':
      list.splice(index, 0, { role: 'system', content: change.text });
      return list;
    case 'drop':
      list.splice(index, 1);
      return list;
    case 'truncate':
      list.length = index;
      return list;
    case 'newArray':
      return [...list];
    case 'copyAll':
      return list.map((message) => ({ ...message }));
    case 'save':
    case 'resume':
    case 'fail':
      return list;
  }
}

describe('createPrefixTracker over any sequence of requests', () => {
  it('reports what a tracker that reads every message afresh reports: the same digest and the same changes', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        // `tracker` sees the list as a harness passes it (the same objects, appended, edited, reused);
        // `fresh` sees new objects each time, so it can never take the append-only reading.
        const tracker = createPrefixTracker();
        const fresh = createPrefixTracker();
        let list: Message[] = [
          { role: 'system', content: 's' },
          { role: 'user', content: 'u' },
        ];
        let tracked = tracker;
        for (const change of steps) {
          const got = tracked.observe(tools, list);
          const want = fresh.observe(
            tools,
            list.map((message) => ({ ...message })),
          );
          expect(got.digest).toBe(want.digest);
          expect(got.broke).toEqual(want.broke);
          list = apply(list, change);
          if (change.kind === 'fail') expect(() => tracked.observe(tools, failing(list, change))).toThrow(TypeError);
          // A saved state holds every message's part; a tracker resumed from it goes on alike.
          if (change.kind === 'save' || change.kind === 'resume') {
            const saved = JSON.parse(JSON.stringify(tracked.state([]))) as PrefixState;
            expect(saved.fingerprint?.history).toEqual(fresh.state([]).fingerprint?.history);
            if (change.kind === 'resume') tracked = createPrefixTracker(saved);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('createPrefixTracker against fingerprints computed from scratch', () => {
  const toolSets: ToolSchema[][] = [
    tools,
    [...tools, { name: 'b', description: 'b', parameters: { type: 'object' } }],
    [{ name: 'a', description: 'another a', parameters: { type: 'object' } }],
  ];
  const choices: PrefixSettings[] = [{}, { toolChoice: { type: 'required' } }];
  /** A request's tools and settings: which tool set, which choice, drawn per request. */
  const head = fc.record({ tools: fc.nat({ max: 2 }), choice: fc.nat({ max: 1 }) });

  it('gives each request the digest fingerprintPrefix gives it, and the break diffPrefix names', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(step, head), { maxLength: 30 }), fc.boolean(), (steps, hoisted) => {
        let tracker = createPrefixTracker();
        let list: Message[] = [{ role: 'user', content: 'u' }];
        let before: PrefixFingerprint | undefined;
        for (const [change, request] of steps) {
          const offered = toolSets[request.tools] as ToolSchema[];
          const settings: PrefixSettings = {
            ...choices[request.choice],
            ...(hoisted ? { systemMessages: 'hoisted' as const } : {}),
          };
          const got = tracker.observe(offered, list, settings);
          // Deep copies: the from-scratch fingerprint reads every message's JSON anew.
          const want = fingerprintPrefix(offered, structuredClone(list), settings);
          expect(got.digest).toBe(want.digest);
          expect(got.broke).toEqual(before === undefined ? undefined : diffPrefix(before, want));
          before = want;
          list = apply(list, change);
          if (change.kind === 'fail') {
            // Left exactly as after the last good request: the next one is compared with `before`.
            const kept = tracker.state([]);
            expect(() => tracker.observe(offered, failing(list, change), settings)).toThrow(TypeError);
            expect(tracker.state([])).toEqual(kept);
          }
          if (change.kind === 'save') expect(tracker.state([]).fingerprint?.history).toEqual(want.history);
          if (change.kind === 'resume') tracker = createPrefixTracker(structuredClone(tracker.state([])));
        }
      }),
      { numRuns: 200 },
    );
  });
});
