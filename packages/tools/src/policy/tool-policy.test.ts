import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidToolPolicyError } from '../errors/invalid-tool-policy-error.js';
import { ToolPolicy, type ToolPolicyJson } from './tool-policy.js';

describe('ToolPolicy', () => {
  it('defaults to unclassified with nothing declared', () => {
    const policy = ToolPolicy.unclassified();
    expect(policy.classified).toBe(false);
    expect(policy.hasSideEffects()).toBe(false);
    expect(policy.access.workspace).toBe('none');
    expect(policy.runtime.replay).toBe('never');
    expect(policy.runtime.timeout).toEqual({ kind: 'inherit' });
  });

  it('readOnly is classified, read-only, idempotent, cancelable and background-safe', () => {
    const policy = ToolPolicy.readOnly();
    expect(policy.classified).toBe(true);
    expect(policy.sideEffects.readOnly).toBe(true);
    expect(policy.runtime.idempotent).toBe(true);
    expect(policy.runtime.cancelable).toBe(true);
    expect(policy.access.backgroundSafe).toBe(true);
    expect(policy.hasSideEffects()).toBe(false);
  });

  it.each([
    ['withSideEffects', (p: ToolPolicy) => p.withSideEffects({ network: true })],
    ['withRuntime', (p: ToolPolicy) => p.withRuntime({ maxRetries: 2 })],
    ['withAccess', (p: ToolPolicy) => p.withAccess({ workspace: 'scoped' })],
    ['requiringApproval', (p: ToolPolicy) => p.requiringApproval()],
  ])('%s marks the policy classified', (_name, build) => {
    expect(build(ToolPolicy.unclassified()).classified).toBe(true);
  });

  it('withDisplay does not classify', () => {
    const policy = ToolPolicy.unclassified().withDisplay({ label: 'Send mail' });
    expect(policy.classified).toBe(false);
    expect(policy.display.label).toBe('Send mail');
  });

  it('merges builders instead of replacing sections', () => {
    const policy = ToolPolicy.readOnly()
      .withSideEffects({ network: true })
      .withAccess({ credentials: ['gh'] });
    expect(policy.sideEffects).toMatchObject({ readOnly: true, network: true });
    expect(policy.access).toMatchObject({ backgroundSafe: true, credentials: ['gh'] });
    expect(policy.requiringApproval().access.approvalRequired).toBe(true);
  });

  it('hasSideEffects ignores readOnly and sees every other flag', () => {
    for (const flag of [
      'writesFiles',
      'network',
      'installsDependencies',
      'destructive',
      'externalService',
      'payment',
      'shell',
    ] as const) {
      expect(
        ToolPolicy.readOnly()
          .withSideEffects({ [flag]: true })
          .hasSideEffects(),
      ).toBe(true);
    }
  });

  it('derives an explicit timeout from the timeoutMs shorthand', () => {
    expect(ToolPolicy.classified().withRuntime({ timeoutMs: 500 }).timeout()).toEqual({ kind: 'explicit', ms: 500 });
    expect(
      ToolPolicy.classified()
        .withRuntime({ timeoutMs: 500, timeout: { kind: 'unbounded' } })
        .timeout(),
    ).toEqual({ kind: 'unbounded' });
  });

  it('fills missing sections with defaults when reading JSON', () => {
    const policy = ToolPolicy.fromJSON({ classified: true, sideEffects: { payment: true } });
    expect(policy.sideEffects.payment).toBe(true);
    expect(policy.sideEffects.readOnly).toBe(false);
    expect(policy.runtime.sandbox).toBe('none');
  });

  it('refuses data that is not a policy, naming the field', () => {
    const bad = [
      { classified: 'yes' },
      { sideEffects: { teleports: true } },
      { runtime: { timeout: { kind: 'explicit' } } },
      { access: { workspace: 'everywhere' } },
      'policy',
    ];
    for (const value of bad) {
      expect(() => ToolPolicy.fromJSON(value)).toThrow(InvalidToolPolicyError);
    }
    try {
      ToolPolicy.fromJSON({ access: { workspace: 'everywhere' } });
    } catch (error) {
      expect(InvalidToolPolicyError.isInstance(error) && error.issues).toContain('/access/workspace');
    }
  });

  it('round-trips any policy through JSON without loss', () => {
    const bool = fc.boolean();
    const names = fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 });
    const count = fc.option(fc.nat({ max: 100_000 }), { nil: undefined });
    const policyJson = fc.record({
      classified: bool,
      sideEffects: fc.record({
        readOnly: bool,
        writesFiles: bool,
        network: bool,
        installsDependencies: bool,
        destructive: bool,
        externalService: bool,
        payment: bool,
        shell: bool,
      }),
      runtime: fc.record({
        timeoutMs: count,
        timeout: fc.oneof(
          fc.constant({ kind: 'inherit' as const }),
          fc.constant({ kind: 'unbounded' as const }),
          fc.record({ kind: fc.constant('explicit' as const), ms: fc.nat() }),
        ),
        maxRetries: count,
        idempotent: bool,
        cancelable: bool,
        sandbox: fc.constantFrom('none' as const, 'preferred' as const, 'required' as const),
        maxResultBytes: count,
        streaming: bool,
        replay: fc.constantFrom('never' as const, 'safe' as const),
      }),
      access: fc.record({
        workspace: fc.constantFrom('none' as const, 'scoped' as const, 'any' as const),
        trustedRoots: names,
        credentials: names,
        approvalRequired: bool,
        backgroundSafe: bool,
        redact: names,
      }),
      display: fc.record({ label: fc.string(), detail: fc.string() }, { requiredKeys: [] }),
    });
    fc.assert(
      fc.property(policyJson, (json) => {
        const clean = JSON.parse(JSON.stringify(json)) as ToolPolicyJson;
        const policy = ToolPolicy.fromJSON(clean);
        expect(policy.toJSON()).toEqual(clean);
        expect(ToolPolicy.fromJSON(JSON.parse(JSON.stringify(policy))).toJSON()).toEqual(clean);
      }),
    );
  });
});
