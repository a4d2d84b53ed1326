import { isMarked, TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.ChatApprovalError');

/** Why the approval responses of a chat request were refused. */
export type ChatApprovalProblem =
  /** An approval id the server never issued, already used, or issued by another server's store. */
  | 'unknown_approval'
  /** An approval response names a tool call other than the one its approval was issued for. */
  | 'mismatched_call'
  /** The paused run has pending calls the request gives no response for. */
  | 'incomplete'
  /** Responses for approvals of two different paused runs in one request. */
  | 'several_runs'
  /** An approval response that is not `{ id: string, approved: boolean, reason?: string }`, or one approval answered twice. */
  | 'malformed';

/**
 * The approval responses a chat client sent cannot resume a paused run: nothing ran. The client
 * must ask again (a fresh approval request) or send responses for exactly the pending calls.
 */
export class ChatApprovalError extends TinyError {
  readonly [marker] = true;
  readonly problem: ChatApprovalProblem;
  /** The approval ids or tool call ids concerned. */
  readonly ids: readonly string[];

  constructor(options: { problem: ChatApprovalProblem; ids: readonly string[]; cause?: unknown }) {
    const what: Record<ChatApprovalProblem, string> = {
      unknown_approval: 'approval ids were not issued by this server or were already used',
      mismatched_call: 'approval responses name a tool call their approval was not issued for',
      incomplete: 'the paused run has calls without an approval response',
      several_runs: 'approval responses belong to different paused runs',
      malformed: 'approval responses are malformed',
    };
    super('ChatApprovalError', `Approval refused: ${what[options.problem]} (${options.ids.join(', ')})`, options);
    this.problem = options.problem;
    this.ids = options.ids;
  }

  static override isInstance(value: unknown): value is ChatApprovalError {
    return isMarked(value, marker);
  }
}
