import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../errors/invalid-input-error.js';
import { checkOptionKeys, optionKeys, suggestOptionKey } from './option-keys.js';

interface Settings {
  readonly baseURL?: string;
  readonly apiKey?: string;
  readonly maxRetries?: number;
}

const KEYS = optionKeys<Settings>()(['baseURL', 'apiKey', 'maxRetries'], { baseUrl: 'baseURL', apiKey: 'never used' });

function reason(value: unknown, prefix?: string): string {
  try {
    checkOptionKeys('test', value, KEYS, { prefix });
  } catch (error) {
    expect(InvalidInputError.isInstance(error)).toBe(true);
    return (error as InvalidInputError).reason;
  }
  return 'accepted';
}

describe('checkOptionKeys', () => {
  it('accepts the known keys, and non-objects (left to the shape check)', () => {
    expect(reason({ baseURL: 'x', apiKey: 'k', maxRetries: 1 })).toBe('accepted');
    expect(reason({})).toBe('accepted');
    expect(reason(undefined)).toBe('accepted');
  });

  it('names the key with its prefix and suggests a known mistake before an edit-distance match', () => {
    expect(reason({ baseUrl: 'x' }, 'settings.')).toBe('unknown option `settings.baseUrl`; did you mean `baseURL`?');
    expect(reason({ maxRetires: 1 })).toBe('unknown option `maxRetires`; did you mean `maxRetries`?');
    expect(reason({ APIKEY: 'k' })).toBe('unknown option `APIKEY`; did you mean `apiKey`?');
    expect(reason({ temperature: 1 })).toBe('unknown option `temperature`');
  });

  it('ignores a mistake entry that is a real key, and inherited keys', () => {
    expect(suggestOptionKey('apiKye', KEYS)).toBe('apiKey');
    const inherited = Object.create({ stray: 1 }) as object;
    expect(reason(inherited)).toBe('accepted');
  });
});
