import { formatValidationIssues, isMarked, TinyError, type ValidationIssue } from '@tiny/tools';

const marker = Symbol.for('tiny.error.DeferredResolutionError');

/** Why a set of deferred decisions was refused. */
export type DeferredResolutionProblem =
  /** Pending calls without a decision. */
  | 'unresolved'
  /** Decisions for ids that are not in the pending batch (stale ids from an earlier pause, or made up). */
  | 'foreign'
  /** Decisions for calls the transcript already answers. */
  | 'already_answered'
  /** `approve` / `approveWithArgs` for a call that did not ask for approval (an external call). */
  | 'not_approvable'
  /** A decision's digest does not match the pending call (its id, tool name or arguments changed since the pause). */
  | 'digest_mismatch'
  /** This harness already resumed this paused state once (no ledger guards against running an approval twice). */
  | 'already_resumed'
  /** `approveWithArgs` gave arguments the tool's declared schema refuses (see `issues`): the host's mistake, not the model's. */
  | 'invalid_arguments';

/**
 * Deferred calls could not be resumed with the given decisions. Nothing was changed: the run can be
 * resumed again with corrected decisions.
 */
export class DeferredResolutionError extends TinyError {
  readonly [marker] = true;
  readonly problem: DeferredResolutionProblem;
  readonly callIds: readonly string[];
  /** For `invalid_arguments`: the validation issues of each refused call's edited arguments, by call id. */
  readonly issues: Readonly<Record<string, readonly ValidationIssue[]>>;

  constructor(options: {
    problem: DeferredResolutionProblem;
    callIds: readonly string[];
    issues?: Readonly<Record<string, readonly ValidationIssue[]>> | undefined;
  }) {
    const what = {
      unresolved: 'pending calls have no decision',
      foreign: 'decisions name calls that are not pending',
      already_answered: 'decisions name calls that were already answered',
      not_approvable: 'approvals were given for calls that did not ask for approval',
      digest_mismatch:
        'decisions were made for a different call than the one pending (the state changed after the pause)',
      already_resumed: 'this paused state was already resumed once; resume the state that run returned',
      invalid_arguments: "edited arguments (approveWithArgs) do not match the tool's schema",
    };
    const issues = options.issues ?? {};
    const detail = options.callIds
      .map((id) => (issues[id] === undefined ? id : `${id} (${formatValidationIssues(issues[id])})`))
      .join(', ');
    super('DeferredResolutionError', `cannot resume: ${what[options.problem]}: ${detail}`);
    this.problem = options.problem;
    this.callIds = options.callIds;
    this.issues = issues;
  }

  static override isInstance(value: unknown): value is DeferredResolutionError {
    return isMarked(value, marker);
  }
}
