import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createValidator } from './create-validator.js';

/**
 * Every case of these JSON-Schema-Test-Suite files (tests/draft2020-12/, MIT, copied unchanged into
 * __fixtures__/json-schema-test-suite/): json-schema-org/JSON-Schema-Test-Suite
 * 44401e0c046704b476ec9d2e2fccdaee618f259d. `dependentRequired` once made every validation throw
 * (`deps.join is not a function`); `properties`/`required` hold the cases named like
 * `Object.prototype` members (`__proto__`, `constructor`, `toString`); `multipleOf` the decimal ones.
 */
const files = ['dependentRequired', 'dependentSchemas', 'multipleOf', 'properties', 'required'];

interface SuiteGroup {
  readonly description: string;
  readonly schema: Record<string, unknown>;
  readonly tests: readonly { readonly description: string; readonly data: unknown; readonly valid: boolean }[];
}

const load = (name: string): SuiteGroup[] =>
  JSON.parse(
    readFileSync(new URL(`./__fixtures__/json-schema-test-suite/${name}.json`, import.meta.url), 'utf8'),
  ) as SuiteGroup[];

describe.each(files)('JSON-Schema-Test-Suite draft2020-12 %s', (file) => {
  const groups = load(file);

  it('has cases', () => {
    expect(groups.length).toBeGreaterThan(0);
  });

  for (const group of groups)
    describe(group.description, () => {
      for (const test of group.tests)
        it(`${test.description}: ${test.valid ? 'valid' : 'invalid'}`, () => {
          // Both the issue-collecting check and the first-failure check agree with the suite.
          const validator = createValidator(group.schema);
          expect(validator.validate(test.data).ok).toBe(test.valid);
          expect(validator.test(test.data)).toBe(test.valid);
        });
    });
});
