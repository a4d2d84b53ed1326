import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from './nests-deeper-than.js';

/** `{a: {a: … 1}}` with `depth` levels of objects, built without recursion. */
function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = { a: value };
  return value;
}

describe('nestsDeeperThan', () => {
  it('counts a scalar as 0 levels and each object or array as one', () => {
    expect(nestsDeeperThan('{"a":'.repeat(10_000), 0)).toBe(false);
    expect(nestsDeeperThan(null, 0)).toBe(false);
    expect(nestsDeeperThan({}, 0)).toBe(true);
    expect(nestsDeeperThan({}, 1)).toBe(false);
    expect(nestsDeeperThan([[]], 1)).toBe(true);
    expect(nestsDeeperThan({ a: [1, { b: 2 }] }, 3)).toBe(false);
    expect(nestsDeeperThan({ a: [1, { b: [] }] }, 3)).toBe(true);
  });

  it('finds the bound exactly, and a million levels without overflowing the stack', () => {
    expect(nestsDeeperThan(nested(64), 64)).toBe(false);
    expect(nestsDeeperThan(nested(65), 64)).toBe(true);
    expect(nestsDeeperThan(nested(1_000_000), 64)).toBe(true);
  });

  it('a deep path beside shallow ones is found wherever it is', () => {
    expect(nestsDeeperThan({ first: 1, second: [2, 3], last: nested(70) }, 64)).toBe(true);
    expect(nestsDeeperThan([nested(70), 1, 2], 64)).toBe(true);
  });

  it('a cycle is too deep; a value sharing objects at every level is walked once per level, not per path', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(nestsDeeperThan(cyclic, 64)).toBe(true);
    // 2^60 paths, 61 distinct arrays: answered (no hang) by walking each array once per depth.
    let shared: unknown[] = [];
    for (let level = 0; level < 60; level += 1) shared = [shared, shared];
    expect(nestsDeeperThan(shared, 64)).toBe(false);
    expect(nestsDeeperThan([shared], 60)).toBe(true);
    // The same object first met shallow, then deeper, is checked from the deeper level too.
    const leaf = nested(3);
    expect(nestsDeeperThan({ near: leaf, far: { x: { y: leaf } } }, 5)).toBe(true);
  });
});
