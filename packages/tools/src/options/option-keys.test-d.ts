import { describe, expectTypeOf, it } from 'vitest';
import { type OptionKeys, optionKeys } from './option-keys.js';

interface Settings {
  readonly a?: string;
  readonly b: number;
}

describe('optionKeys', () => {
  it('takes a complete list of members', () => {
    expectTypeOf(optionKeys<Settings>()(['a', 'b'])).toEqualTypeOf<OptionKeys>();
  });

  it('refuses a list that misses a member or names a non-member', () => {
    // @ts-expect-error `b` is missing
    optionKeys<Settings>()(['a']);
    // @ts-expect-error `c` is not a member
    optionKeys<Settings>()(['a', 'b', 'c']);
  });
});
