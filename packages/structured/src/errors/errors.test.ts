import { TinyError } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { OutputLimitError } from './output-limit-error.js';
import { OutputRefusedError } from './output-refused-error.js';
import { SchemaNameCollisionError } from './schema-name-collision-error.js';
import { StructuredOutputError } from './structured-output-error.js';

const raw = { role: 'assistant', content: '{}' } as const;
const attempt = { attempt: 1, kind: 'validation', error: '/age is required', raw, strategy: 'provider' } as const;

describe('structured errors', () => {
  it('OutputRefusedError carries the refusal and is recognised by its marker only', () => {
    const error = new OutputRefusedError({ schemaName: 'person', refusal: "I can't help with that.", attempts: [] });
    expect(TinyError.isInstance(error)).toBe(true);
    expect(OutputRefusedError.isInstance(error)).toBe(true);
    expect(OutputLimitError.isInstance(error)).toBe(false);
    expect(error.refusal).toBe("I can't help with that.");
    expect(error.message).toBe("the model refused to write the `person` output: I can't help with that.");
  });

  it('are TinyErrors recognised by their global marker', () => {
    const errors = [
      new StructuredOutputError({ schemaName: 'person', attempts: [attempt] }),
      new OutputLimitError({ schemaName: 'person', attempts: [] }),
      new SchemaNameCollisionError({ schemaName: 'weather', toolName: 'weather' }),
    ];
    for (const error of errors) expect(TinyError.isInstance(error)).toBe(true);
    expect(StructuredOutputError.isInstance(errors[0])).toBe(true);
    expect(StructuredOutputError.isInstance(errors[1])).toBe(false);
    expect(OutputLimitError.isInstance(errors[1])).toBe(true);
    expect(SchemaNameCollisionError.isInstance(errors[2])).toBe(true);
    // A structurally identical object from another copy of the package carries the same marker.
    const foreign = { [Symbol.for('tiny.error.StructuredOutputError')]: true };
    expect(StructuredOutputError.isInstance(foreign)).toBe(true);
  });

  it('summarise the attempts in the message and keep the cause', () => {
    const cause = new Error('boom');
    const error = new StructuredOutputError({
      schemaName: 'person',
      attempts: [attempt, { ...attempt, attempt: 2 }],
      cause,
    });
    expect(error.message).toBe('no valid structured output for `person` after 2 attempts: /age is required');
    expect(error.cause).toBe(cause);
    expect(error.name).toBe('StructuredOutputError');
  });
});
