import { isMarked, TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.DecisionRefusedError');

/** Why a durable run refused a decision. */
export type DecisionRefusal = 'stale' | 'foreign' | 'invalid' | 'mismatch' | 'not_found';

/**
 * The durable run refused a decision sent through the ingress: the call id was decided already
 * (`stale`), never pending in this run (`foreign`), the decision was malformed (`invalid`), its
 * digest names another call than the one pending (`mismatch`), or no
 * such run exists (`not_found`). Nothing changed in the run.
 */
export class DecisionRefusedError extends TinyError {
  readonly [marker] = true;
  readonly runId: string;
  readonly callId: string;
  readonly problem: DecisionRefusal;
  /** The HTTP status the ingress answered with. */
  readonly status: number;

  constructor(options: {
    runId: string;
    callId: string;
    problem: DecisionRefusal;
    status: number;
    detail: string;
    cause?: unknown;
  }) {
    super(
      'DecisionRefusedError',
      `Decision for call \`${options.callId}\` refused (${options.problem}): ${options.detail}`,
      options,
    );
    this.runId = options.runId;
    this.callId = options.callId;
    this.problem = options.problem;
    this.status = options.status;
  }

  static override isInstance(value: unknown): value is DecisionRefusedError {
    return isMarked(value, marker);
  }
}
