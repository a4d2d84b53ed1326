import { collectStreamSettled, type LanguageModelV1, type LanguageModelV1Request } from '@tiny/llm';
import { describe, expect, it } from 'vitest';
import { partsOf } from '../replay/stream-parts.js';
import { useLoopbackServer } from './loopback-server.js';

/** The HTTP bounds the suite sets (the adapter's `limits` option). */
export interface HostileServerLimits {
  readonly idleTimeoutMs?: number;
  readonly maxEventBytes?: number;
  readonly maxResponseBytes?: number;
}

/** One model turn in the adapter's wire form, whole and streamed. */
export interface EncodedTurn {
  /** The whole (non-streamed) response body. */
  readonly json: unknown;
  /** The same turn as a whole `text/event-stream` body. */
  readonly sse: string;
}

/** The adapter's wire encodings for {@link describeHostileServer}. */
export interface HostileServerWire {
  /** The request path the adapter posts to under `baseURL` `…/v1` (`/v1/chat/completions`). */
  readonly path: string;
  /** The header that carries the API key (`authorization`, `x-api-key`): no other origin may see it. */
  readonly keyHeader: string;
  /**
   * A turn that ends with the raw finish or stop reason `raw`: with one call of `write_file
   * {path: "a"}` when `withCall`, else the text `done`.
   */
  turn(raw: string, withCall: boolean): EncodedTurn;
  /** Raw finish reasons that are no clean ending, each with what it maps to (`length`, `content_filter`, `error`). */
  readonly brokenEndings: readonly (readonly [raw: string, mapped: string])[];
  /** SSE text that opens an event whose data line then never ends (the suite pumps `x`s into it). */
  readonly giantEventOpening: string;
  /** SSE events a server may send forever without progress (keep-alive comments, pings), sent in turn. */
  readonly keepAlives: readonly string[];
}

/** Options of {@link describeHostileServer}. */
export interface HostileServerOptions {
  /** Names the `describe` block. */
  readonly name: string;
  /** The adapter under test (`baseURL` is `http://127.0.0.1:<port>/v1`). */
  readonly create: (settings: { baseURL: string; apiKey: string; limits?: HostileServerLimits }) => LanguageModelV1;
  /** The adapter's own error class; each typed error must be one. */
  readonly errorClass: {
    /** True when `value` is an error of the adapter's class. */
    isInstance(value: unknown): boolean;
  };
  /** The adapter's encodings of the recorded cases. */
  readonly wire: HostileServerWire;
}

const request: LanguageModelV1Request = { messages: [{ role: 'user', content: 'the secret prompt' }] };

/**
 * Registers the hostile-server tests (issue 34's breakers), each over real 127.0.0.1 servers:
 * - a redirect (301, 302, 303, 307, 308) to another origin fails typed (kind `redirect`, its
 *   status, not retryable, the target named), streamed or not, and that origin gets no request
 *   (so neither the key nor the prompt);
 * - each broken ending maps to its finish reason, with the raw reason kept, whole and streamed;
 * - a giant SSE line ends the stream with `response_too_large`; keep-alives forever end it with a
 *   retryable `timeout` (`response_timeout`); a body that never ends fails `doGenerate` the same
 *   way, and one over `maxResponseBytes` with `response_too_large`;
 * - a limit that is not a positive number is refused when the provider is created.
 */
export function describeHostileServer(options: HostileServerOptions): void {
  const { wire } = options;
  describe(options.name, () => {
    const api = useLoopbackServer();
    const elsewhere = useLoopbackServer();
    const model = (limits?: HostileServerLimits) =>
      options.create({ baseURL: `${api.url()}/v1`, apiKey: 'sk-hostile-secret', ...(limits ? { limits } : {}) });

    it.each([301, 302, 303, 307, 308])(
      'a %i to another origin fails typed, and that origin gets nothing',
      async (status) => {
        elsewhere.reset();
        elsewhere.handle((_request, response) =>
          response
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify(wire.turn('stop', false).json)),
        );
        const target = `${elsewhere.url()}${wire.path}`;
        api.handle((_request, response) => response.writeHead(status, { location: target }).end());
        const redirected = model();
        for (const call of [() => redirected.doGenerate(request), () => redirected.doStream(request)]) {
          const error = await call().catch((caught: unknown) => caught);
          expect(options.errorClass.isInstance(error)).toBe(true);
          expect(error).toMatchObject({ kind: 'redirect', statusCode: status, isRetryable: false });
          expect((error as Error).message).toContain(target);
        }
        expect(elsewhere.received).toEqual([]);
        expect(api.received.at(-1)?.[wire.keyHeader.toLowerCase()]).toBeDefined();
      },
    );

    it.each(wire.brokenEndings)('a turn that ends with %s maps to %s, whole and streamed', async (raw, mapped) => {
      const turn = wire.turn(raw, true);
      api.handle((_request, response, sent) => {
        if ((JSON.parse(sent) as { stream?: boolean }).stream)
          response.writeHead(200, { 'content-type': 'text/event-stream' }).end(turn.sse);
        else response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(turn.json));
      });
      const generated = await model().doGenerate(request);
      expect([generated.finishReason, generated.rawFinishReason]).toEqual([mapped, raw]);
      const parts = await partsOf((await model().doStream(request)).stream);
      const finish = parts.find((part) => part.type === 'finish');
      expect(finish).toMatchObject({ finishReason: mapped });
    });

    it('a giant SSE line ends the stream with response_too_large', async () => {
      api.handle((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(wire.giantEventOpening);
        const block = 'x'.repeat(64 * 1024);
        const pump = () => {
          while (!response.destroyed && response.write(block));
          if (!response.destroyed) response.once('drain', pump);
        };
        pump();
      });
      const { stream } = await model({ maxEventBytes: 128 * 1024 }).doStream(request);
      const settled = await collectStreamSettled(stream);
      expect(options.errorClass.isInstance(settled.error)).toBe(true);
      expect(settled.error).toMatchObject({ kind: 'response_too_large', isRetryable: false });
    });

    it('keep-alives forever end the stream with response_timeout', async () => {
      api.handle((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        let beat = 0;
        const timer = setInterval(() => {
          response.write(wire.keepAlives[beat % wire.keepAlives.length] ?? ': keep-alive\n\n');
          beat += 1;
        }, 5);
        response.on('close', () => clearInterval(timer));
      });
      const { stream } = await model({ idleTimeoutMs: 150 }).doStream(request);
      const settled = await collectStreamSettled(stream);
      expect(options.errorClass.isInstance(settled.error)).toBe(true);
      expect(settled.error).toMatchObject({ kind: 'timeout', providerKind: 'response_timeout', isRetryable: true });
    });

    it('a body that never ends, or is too large, fails doGenerate typed', async () => {
      api.handle((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{"id":');
      });
      await expect(model({ idleTimeoutMs: 150 }).doGenerate(request)).rejects.toMatchObject({
        kind: 'timeout',
        providerKind: 'response_timeout',
      });
      api.handle((_request, response) =>
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify(wire.turn('stop', false).json)),
      );
      await expect(model({ maxResponseBytes: 20 }).doGenerate(request)).rejects.toMatchObject({
        kind: 'response_too_large',
      });
    });

    it('a limit that is not a positive number is refused when the provider is created', () => {
      expect(() => model({ idleTimeoutMs: 0 })).toThrow(/limits.idleTimeoutMs must be a positive number/);
    });
  });
}
