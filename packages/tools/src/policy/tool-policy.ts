import { InvalidToolPolicyError } from '../errors/invalid-tool-policy-error.js';
import { isMarked } from '../errors/tiny-error.js';
import type { ToolTimeout } from '../timeout/tool-timeout.js';
import { createValidator } from '../validation/create-validator.js';
import { formatValidationIssues } from '../validation/validation-issue.js';
import { toolPolicyJsonSchema } from './tool-policy-schema.js';

const marker = Symbol.for('tiny.ToolPolicy');

/** What a tool may change in the world. Every flag defaults to false. */
export interface ToolSideEffects {
  readonly readOnly: boolean;
  readonly writesFiles: boolean;
  readonly network: boolean;
  readonly installsDependencies: boolean;
  readonly destructive: boolean;
  readonly externalService: boolean;
  readonly payment: boolean;
  /** Runs shell commands or spawns processes. */
  readonly shell: boolean;
}

/** Whether a tool needs a sandbox to run. */
export type SandboxMode = 'none' | 'preferred' | 'required';

/** How a tool behaves at run time. */
export interface ToolRuntimePolicy {
  /** Shorthand for an explicit timeout; used when `timeout` is `inherit`. */
  readonly timeoutMs?: number | undefined;
  readonly timeout: ToolTimeout;
  readonly maxRetries?: number | undefined;
  /** Running it twice with the same arguments has the effect of running it once. */
  readonly idempotent: boolean;
  readonly cancelable: boolean;
  readonly sandbox: SandboxMode;
  readonly maxResultBytes?: number | undefined;
  readonly streaming: boolean;
  /** Whether a run resumed after a crash may re-execute an unsettled call (`never` by default). */
  readonly replay: 'never' | 'safe';
}

/** What a tool may reach. */
export interface ToolAccess {
  readonly workspace: 'none' | 'scoped' | 'any';
  readonly trustedRoots: readonly string[];
  readonly credentials: readonly string[];
  readonly approvalRequired: boolean;
  readonly backgroundSafe: boolean;
  /** Argument names whose values are redacted from events and logs. */
  readonly redact: readonly string[];
}

/** How a tool is shown to a human. */
export interface ToolDisplay {
  readonly label?: string | undefined;
  readonly detail?: string | undefined;
}

/** The JSON shape of a {@link ToolPolicy}: every field present, so a round trip is lossless. */
export interface ToolPolicyJson {
  classified: boolean;
  sideEffects: ToolSideEffects;
  runtime: ToolRuntimePolicy;
  access: ToolAccess;
  display: ToolDisplay;
}

const noSideEffects: ToolSideEffects = {
  readOnly: false,
  writesFiles: false,
  network: false,
  installsDependencies: false,
  destructive: false,
  externalService: false,
  payment: false,
  shell: false,
};

const defaultRuntime: ToolRuntimePolicy = {
  timeout: { kind: 'inherit' },
  idempotent: false,
  cancelable: false,
  sandbox: 'none',
  streaming: false,
  replay: 'never',
};

const defaultAccess: ToolAccess = {
  workspace: 'none',
  trustedRoots: [],
  credentials: [],
  approvalRequired: false,
  backgroundSafe: false,
  redact: [],
};

/**
 * A tool's declared safety profile, enforced by harness middleware.
 * The default is **unclassified** (`classified: false`), so strict enforcement can fail closed on
 * tools that never declared anything. `classified` is independent of the other fields:
 * `withSideEffects`, `withRuntime`, `withAccess` and `requiringApproval` mark the policy classified,
 * `withDisplay` does not. Immutable; serialises to JSON and back without loss.
 */
export class ToolPolicy {
  readonly [marker] = true;
  readonly classified: boolean;
  readonly sideEffects: ToolSideEffects;
  readonly runtime: ToolRuntimePolicy;
  readonly access: ToolAccess;
  readonly display: ToolDisplay;

  private constructor(json: ToolPolicyJson) {
    this.classified = json.classified;
    this.sideEffects = Object.freeze({ ...json.sideEffects });
    this.runtime = Object.freeze({ ...json.runtime });
    this.access = Object.freeze({
      ...json.access,
      trustedRoots: Object.freeze([...json.access.trustedRoots]),
      credentials: Object.freeze([...json.access.credentials]),
      redact: Object.freeze([...json.access.redact]),
    });
    this.display = Object.freeze({ ...json.display });
  }

  /** True for a `ToolPolicy` from any copy of this package. */
  static isInstance(value: unknown): value is ToolPolicy {
    return isMarked(value, marker);
  }

  /** The default: unclassified, no declared side effects. */
  static unclassified(): ToolPolicy {
    return new ToolPolicy({
      classified: false,
      sideEffects: noSideEffects,
      runtime: defaultRuntime,
      access: defaultAccess,
      display: {},
    });
  }

  /** Classified with no side effects declared yet (add them with the `with*` builders). */
  static classified(): ToolPolicy {
    return new ToolPolicy({ ...ToolPolicy.unclassified().toJSON(), classified: true });
  }

  /** Classified, read-only, idempotent, cancelable and safe to run in the background. */
  static readOnly(): ToolPolicy {
    return ToolPolicy.classified()
      .withSideEffects({ readOnly: true })
      .withRuntime({ idempotent: true, cancelable: true })
      .withAccess({ backgroundSafe: true });
  }

  /**
   * Reads a policy from JSON. Missing sections take their defaults; unknown fields and wrong types
   * are refused.
   * @throws {InvalidToolPolicyError} naming every offending field.
   */
  static fromJSON(json: unknown): ToolPolicy {
    const result = createValidator(toolPolicyJsonSchema).validate(json);
    if (!result.ok) throw new InvalidToolPolicyError({ issues: formatValidationIssues(result.issues) });
    const value = json as Partial<ToolPolicyJson>;
    return new ToolPolicy({
      classified: value.classified ?? false,
      sideEffects: { ...noSideEffects, ...value.sideEffects },
      runtime: { ...defaultRuntime, ...value.runtime },
      access: { ...defaultAccess, ...value.access },
      display: { ...value.display },
    });
  }

  /** Plain JSON with every field present (unset optional numbers are omitted). */
  toJSON(): ToolPolicyJson {
    const dropUndefined = <T extends object>(object: T): T =>
      Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as T;
    return {
      classified: this.classified,
      sideEffects: { ...this.sideEffects },
      runtime: dropUndefined({ ...this.runtime }),
      access: {
        ...this.access,
        trustedRoots: [...this.access.trustedRoots],
        credentials: [...this.access.credentials],
        redact: [...this.access.redact],
      },
      display: dropUndefined({ ...this.display }),
    };
  }

  /** Declares side effects (merged into the current ones); marks the policy classified. */
  withSideEffects(sideEffects: Partial<ToolSideEffects>): ToolPolicy {
    return this.with({ classified: true, sideEffects: { ...this.sideEffects, ...sideEffects } });
  }

  /** Declares runtime behaviour (merged); marks the policy classified. */
  withRuntime(runtime: Partial<ToolRuntimePolicy>): ToolPolicy {
    return this.with({ classified: true, runtime: { ...this.runtime, ...runtime } });
  }

  /** Declares access needs (merged); marks the policy classified. */
  withAccess(access: Partial<ToolAccess>): ToolPolicy {
    return this.with({ classified: true, access: { ...this.access, ...access } });
  }

  /** Requires human approval before each call; marks the policy classified. */
  requiringApproval(): ToolPolicy {
    return this.withAccess({ approvalRequired: true });
  }

  /** Sets how the tool is labelled for humans; does **not** change `classified`. */
  withDisplay(display: ToolDisplay): ToolPolicy {
    return this.with({ display: { ...this.display, ...display } });
  }

  /** True when any side-effect flag other than `readOnly` is set. */
  hasSideEffects(): boolean {
    const { readOnly: _readOnly, ...effects } = this.sideEffects;
    return Object.values(effects).some(Boolean);
  }

  /**
   * The timeout the tool asks for: `runtime.timeout`, except that `inherit` with a `timeoutMs`
   * shorthand becomes an explicit timeout of that many milliseconds.
   */
  timeout(): ToolTimeout {
    const { timeout, timeoutMs } = this.runtime;
    if (timeout.kind === 'inherit' && timeoutMs !== undefined) return { kind: 'explicit', ms: timeoutMs };
    return timeout;
  }

  private with(patch: Partial<ToolPolicyJson>): ToolPolicy {
    return new ToolPolicy({ ...this.toJSON(), ...patch } as ToolPolicyJson);
  }
}
