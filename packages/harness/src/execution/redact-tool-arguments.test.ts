import { defineTool, ToolPolicy } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { REDACTED, redactToolArguments, sensitive } from './redaction.js';

const tool = defineTool({
  name: 'login',
  description: 'Log in.',
  parameters: {
    type: 'object',
    properties: {
      user: { type: 'string' },
      password: sensitive({ type: 'string' }),
      auth: { type: 'object', properties: { pin: { type: 'string', 'x-tiny-sensitive': true } } },
      keys: { type: 'array', items: { type: 'object', properties: { secret: sensitive({ type: 'string' }) } } },
      note: { type: 'string' },
    },
  },
  policy: ToolPolicy.classified().withAccess({ redact: ['note'] }),
  execute: () => 'ok',
});

describe('redactToolArguments', () => {
  it('redacts schema-marked fields at any depth and access.redact names, leaving the rest and the original alone', () => {
    const args = {
      user: 'bob',
      password: 'hunter2',
      auth: { pin: '1234' },
      keys: [{ secret: 'a' }, { secret: 'b' }],
      note: 'private',
    };
    const copy = structuredClone(args);
    expect(redactToolArguments(tool, args)).toEqual({
      user: 'bob',
      password: REDACTED,
      auth: { pin: REDACTED },
      keys: [{ secret: REDACTED }, { secret: REDACTED }],
      note: REDACTED,
    });
    expect(args).toEqual(copy);
  });

  it('redacts a raw argument string whole, and leaves a tool without sensitive fields as is', () => {
    expect(redactToolArguments(tool, '{"password":"hunter2"}')).toBe(REDACTED);
    const plain = defineTool({
      name: 'plain',
      description: 'Plain.',
      parameters: { type: 'object', properties: { q: { type: 'string' } } },
      execute: () => 'ok',
    });
    expect(redactToolArguments(plain, { q: 'x' })).toEqual({ q: 'x' });
  });
});
