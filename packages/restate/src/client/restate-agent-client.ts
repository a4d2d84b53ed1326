import { DecisionRefusedError } from '../errors/decision-refused-error.js';
import { IngressError } from '../errors/ingress-error.js';
import type { RestateAgentInput, RestateAgentResult } from '../service/create-restate-agent-service.js';
import type { DecisionJson, DecisionReceipt, PendingDecisions } from '../service/decisions.js';

/** Options for {@link RestateAgentClient}. */
export interface RestateClientOptions {
  /** The Restate ingress, e.g. `http://127.0.0.1:8080` (no trailing slash needed). */
  readonly ingressUrl: string;
  /** The workflow name given to `createRestateAgentService`. */
  readonly service: string;
  /** Extra headers on every request (an auth token for a proxy in front of the ingress). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly fetch?: typeof globalThis.fetch | undefined;
}

/**
 * Talks to a durable agent service through Restate's HTTP ingress, from any process: start a run,
 * wait for its result, list and decide its pending calls. Holds no state; the run lives in Restate.
 */
export class RestateAgentClient {
  private readonly base: string;
  private readonly options: RestateClientOptions;

  constructor(options: RestateClientOptions) {
    this.options = options;
    this.base = options.ingressUrl.replace(/\/+$/, '');
  }

  /** Starts run `runId` without waiting (a second start of the same id is a no-op). Returns the invocation id. */
  async start(runId: string, input: RestateAgentInput): Promise<string> {
    const answer = (await this.request('POST', `${this.path(runId)}/run/send`, input)) as { invocationId: string };
    return answer.invocationId;
  }

  /** Runs `runId` and waits for its result (including any wait for decisions). */
  run(runId: string, input: RestateAgentInput): Promise<RestateAgentResult> {
    return this.request('POST', `${this.path(runId)}/run`, input) as Promise<RestateAgentResult>;
  }

  /** Waits for the result of a started run. */
  result(runId: string): Promise<RestateAgentResult> {
    return this.request(
      'GET',
      `/restate/workflow/${encodeURIComponent(this.options.service)}/${encodeURIComponent(runId)}/attach`,
    ) as Promise<RestateAgentResult>;
  }

  /** The calls the run waits on now (`calls` empty when it is not paused). */
  pending(runId: string): Promise<PendingDecisions> {
    return this.request('POST', `${this.path(runId)}/pending`, null) as Promise<PendingDecisions>;
  }

  /** Polls `pending` until the run waits on at least one call, or `timeoutMs` passes. */
  async waitForPending(
    runId: string,
    options: { timeoutMs?: number; intervalMs?: number } = {},
  ): Promise<PendingDecisions> {
    const deadline = Date.now() + (options.timeoutMs ?? 30_000);
    for (;;) {
      const pending = await this.pending(runId);
      if (pending.calls.length > 0) return pending;
      if (Date.now() > deadline)
        throw new Error(`run \`${runId}\` did not pause within ${options.timeoutMs ?? 30_000} ms`);
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 100));
    }
  }

  /**
   * Decides one pending call; the run continues once every call of the batch is decided.
   * @throws {DecisionRefusedError} for a stale or foreign id or a malformed decision (nothing changes).
   */
  async decide(runId: string, callId: string, decision: DecisionJson): Promise<DecisionReceipt> {
    try {
      return (await this.request('POST', `${this.path(runId)}/decide`, { callId, decision })) as DecisionReceipt;
    } catch (error) {
      if (IngressError.isInstance(error)) {
        const problem = /(stale|foreign|invalid):\s*(.*)$/s.exec(error.detail);
        if (problem?.[1] !== undefined)
          throw new DecisionRefusedError({
            runId,
            callId,
            problem: problem[1] as 'stale' | 'foreign' | 'invalid',
            status: error.status,
            detail: problem[2] ?? '',
            cause: error,
          });
        if (error.status === 404)
          throw new DecisionRefusedError({ runId, callId, problem: 'not_found', status: 404, detail: error.detail });
      }
      throw error;
    }
  }

  /**
   * Sends a decision without waiting for it to be applied: Restate stores it durably and delivers
   * it when a worker runs, so it works while every worker is down. A refusal then ends that
   * invocation (see `decide` for the checks). Returns the invocation id.
   */
  async submitDecision(runId: string, callId: string, decision: DecisionJson): Promise<string> {
    const answer = (await this.request('POST', `${this.path(runId)}/decide/send`, { callId, decision })) as {
      invocationId: string;
    };
    return answer.invocationId;
  }

  private path(runId: string): string {
    return `/${encodeURIComponent(this.options.service)}/${encodeURIComponent(runId)}`;
  }

  private async request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    const fetch = this.options.fetch ?? globalThis.fetch;
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...this.options.headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) {
      let message = text;
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? text;
      } catch {}
      throw new IngressError({ status: response.status, detail: message });
    }
    return text === '' ? undefined : JSON.parse(text);
  }
}
