import { describe, expect, it } from 'vitest';
import { exceedsWireDepth, MAX_WIRE_DEPTH, stringifyWire } from './wire-depth.js';

const deepArray = (depth: number): unknown => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);

describe('exceedsWireDepth', () => {
  it('counts a scalar as depth 0 and each array or object as one level', () => {
    expect(exceedsWireDepth(5)).toBe(false);
    expect(exceedsWireDepth(deepArray(MAX_WIRE_DEPTH))).toBe(false);
    expect(exceedsWireDepth(deepArray(MAX_WIRE_DEPTH + 1))).toBe(true);
    expect(exceedsWireDepth({ a: [{ b: 1 }] }, 2)).toBe(true);
    expect(exceedsWireDepth({ a: [{ b: 1 }] }, 3)).toBe(false);
  });

  it('walks 100,000 levels without overflowing the stack', () => {
    expect(exceedsWireDepth(deepArray(100_000))).toBe(true);
  });
});

describe('stringifyWire', () => {
  it('serialises a shallow value and falls back for a deep one instead of throwing', () => {
    expect(stringifyWire({ a: 1 }, 'x')).toBe('{"a":1}');
    expect(stringifyWire(deepArray(10_000), 'too deep')).toBe('too deep');
  });
});
