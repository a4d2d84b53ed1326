import { InvalidInputError } from '@tiny/tools';
import { DecisionRefusedError } from '../errors/decision-refused-error.js';
import { IngressError } from '../errors/ingress-error.js';
import { ResultTimeoutError } from '../errors/result-timeout-error.js';
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
  /** The `fetch` used for every request to the ingress (default `globalThis.fetch`; a test can pass its own). */
  readonly fetch?: typeof globalThis.fetch | undefined;
  /**
   * How long `result()` and `run()` wait for a run to finish before throwing `ResultTimeoutError`
   * (the run goes on). Default 300 000 ms (5 minutes); `Infinity` waits as long as the ingress
   * keeps the connection open. A run waiting days for an approval needs `result()` called again.
   */
  readonly resultTimeoutMs?: number | undefined;
}

/** Options of one wait for a run's result. */
export interface ResultOptions {
  /** Overrides the client's `resultTimeoutMs` for this call. */
  readonly timeoutMs?: number | undefined;
  /** Ends the wait early (the run goes on); the fetch rejects with the signal's reason. */
  readonly signal?: AbortSignal | undefined;
}

const DEFAULT_RESULT_TIMEOUT_MS = 300_000;

function checkTimeout(entryPoint: string, name: string, value: number | undefined): void {
  if (value === undefined || value === Number.POSITIVE_INFINITY) return;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw new InvalidInputError({
      entryPoint,
      reason: `\`${name}\` must be a positive number of milliseconds or Infinity, got ${String(value)}`,
    });
}

/**
 * Talks to a durable agent service through Restate's HTTP ingress, from any process: start a run,
 * wait for its result, list and decide its pending calls. Holds no state; the run lives in Restate.
 */
export class RestateAgentClient {
  private readonly base: string;
  private readonly options: RestateClientOptions;

  /** @throws {InvalidInputError} when `resultTimeoutMs` is not a positive number or `Infinity`. */
  constructor(options: RestateClientOptions) {
    checkTimeout('new RestateAgentClient', 'resultTimeoutMs', options.resultTimeoutMs);
    this.options = options;
    this.base = options.ingressUrl.replace(/\/+$/, '');
  }

  /** Starts run `runId` without waiting (a second start of the same id is a no-op). Returns the invocation id. */
  async start(runId: string, input: RestateAgentInput): Promise<string> {
    const answer = (await this.request('POST', `${this.path(runId)}/run/send`, input)) as { invocationId: string };
    return answer.invocationId;
  }

  /**
   * Runs `runId` and waits for its result (including any wait for decisions).
   * @throws {ResultTimeoutError} after `timeoutMs` (default: the client's `resultTimeoutMs`); the run goes on.
   */
  run(runId: string, input: RestateAgentInput, options: ResultOptions = {}): Promise<RestateAgentResult> {
    return this.wait(runId, options, (signal) => this.request('POST', `${this.path(runId)}/run`, input, signal));
  }

  /**
   * Waits for the result of a started run.
   * @throws {ResultTimeoutError} after `timeoutMs` (default: the client's `resultTimeoutMs`); the run goes on.
   */
  result(runId: string, options: ResultOptions = {}): Promise<RestateAgentResult> {
    return this.wait(runId, options, (signal) =>
      this.request(
        'GET',
        `/restate/workflow/${encodeURIComponent(this.options.service)}/${encodeURIComponent(runId)}/attach`,
        undefined,
        signal,
      ),
    );
  }

  private async wait(
    runId: string,
    options: ResultOptions,
    send: (signal: AbortSignal) => Promise<unknown>,
  ): Promise<RestateAgentResult> {
    checkTimeout(`RestateAgentClient.result(${JSON.stringify(runId)})`, 'timeoutMs', options.timeoutMs);
    const timeoutMs = options.timeoutMs ?? this.options.resultTimeoutMs ?? DEFAULT_RESULT_TIMEOUT_MS;
    const controller = new AbortController();
    const timedOut = new ResultTimeoutError({ runId, timeoutMs });
    const timer = Number.isFinite(timeoutMs) ? setTimeout(() => controller.abort(timedOut), timeoutMs) : undefined;
    const forward = () => controller.abort(options.signal?.reason);
    if (options.signal?.aborted) forward();
    options.signal?.addEventListener('abort', forward, { once: true });
    try {
      return (await send(controller.signal)) as RestateAgentResult;
    } catch (error) {
      if (controller.signal.reason === timedOut) throw timedOut;
      throw error;
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', forward);
    }
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
        const problem = /(stale|foreign|invalid|mismatch):\s*(.*)$/s.exec(error.detail);
        if (problem?.[1] !== undefined)
          throw new DecisionRefusedError({
            runId,
            callId,
            problem: problem[1] as 'stale' | 'foreign' | 'invalid' | 'mismatch',
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

  private async request(method: 'GET' | 'POST', path: string, body?: unknown, signal?: AbortSignal): Promise<unknown> {
    const fetch = this.options.fetch ?? globalThis.fetch;
    const response = await fetch(`${this.base}${path}`, {
      method,
      ...(signal === undefined ? {} : { signal }),
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
