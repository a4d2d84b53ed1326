import { describe, expect, it } from 'vitest';
import { ApprovalRequiredError } from './approval-required-error.js';
import { CallDeferredError } from './call-deferred-error.js';
import { ModelRetry } from './model-retry.js';
import { TinyError } from './tiny-error.js';
import { ToolFailedError } from './tool-failed-error.js';
import { ToolNotFoundError } from './tool-not-found-error.js';
import { ToolTimeoutError } from './tool-timeout-error.js';

describe('errors', () => {
  it('carry facts in fields and keep their cause', () => {
    const cause = new Error('socket closed');
    const error = new ToolNotFoundError({ toolName: 'lookup', availableTools: ['search'], cause });
    expect(error.message).toBe('unknown tool `lookup`');
    expect(error.availableTools).toEqual(['search']);
    expect(error.cause).toBe(cause);
    expect(error.name).toBe('ToolNotFoundError');
    expect(error).toBeInstanceOf(Error);
  });

  it('are recognised by marker, not by prototype', () => {
    const foreign = Object.assign(new Error('copy'), {
      [Symbol.for('tiny.error')]: true,
      [Symbol.for('tiny.error.ModelRetry')]: true,
    });
    expect(ModelRetry.isInstance(foreign)).toBe(true);
    expect(TinyError.isInstance(foreign)).toBe(true);
    expect(ToolFailedError.isInstance(foreign)).toBe(false);
    expect(ModelRetry.isInstance(new Error('plain'))).toBe(false);
    expect(ModelRetry.isInstance(null)).toBe(false);
  });

  it('distinguish each class', () => {
    const errors = [
      new ModelRetry('again'),
      new ToolFailedError({ reason: 'x', toolName: 't' }),
      new ApprovalRequiredError({ metadata: { amount: 3 } }),
      new CallDeferredError({}),
      new ToolTimeoutError({ toolName: 't', timeoutMs: 5 }),
    ];
    const guards = [
      ModelRetry.isInstance,
      ToolFailedError.isInstance,
      ApprovalRequiredError.isInstance,
      CallDeferredError.isInstance,
      ToolTimeoutError.isInstance,
    ];
    for (const [i, error] of errors.entries()) {
      expect(guards.map((guard) => guard(error))).toEqual(guards.map((_, j) => i === j));
      expect(TinyError.isInstance(error)).toBe(true);
    }
    expect(new ToolFailedError({ reason: 'x', toolName: 't' }).message).toBe('tool `t` failed: x');
    expect(new ApprovalRequiredError({ metadata: { amount: 3 } }).reason).toBe('approval_required');
    expect(new CallDeferredError({}).reason).toBe('call_deferred');
  });
});
