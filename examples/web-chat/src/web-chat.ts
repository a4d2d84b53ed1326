import type { LanguageModelV1 } from '@tiny/llm';
import { handleChatRequest } from '@tiny/ui-stream';
import { createScriptedModel, createShopAgent, type Shop } from './agent.js';
import { defaultPublicDir } from './paths.js';
import { type ChatServer, startChatServer } from './server.js';

/** Options for {@link startWebChat}. */
export interface WebChatOptions {
  /** Default: the embedded scripted model. */
  readonly model?: LanguageModelV1;
  /** Shown under the page title. */
  readonly modelDescription?: string;
  /** The page bundle folder (default `dist/public`, written by `pnpm build`). */
  readonly publicDir?: string;
  readonly host?: string;
  /** Default 0 (any free port). */
  readonly port?: number;
  /** A pause between `lookup_order`'s progress reports (default 0). */
  readonly progressDelayMs?: number;
}

/** The running demo: its server and the shop whose refunds the tools really made. */
export interface WebChat extends ChatServer {
  readonly shop: Shop;
}

/**
 * Starts the demo: ONE harness for the server's lifetime (paused runs wait for their approval in
 * `@tiny/ui-stream`'s per-harness store), `POST /api/chat` answered by `handleChatRequest`.
 */
export async function startWebChat(options: WebChatOptions = {}): Promise<WebChat> {
  const shop: Shop = { refunds: [] };
  const harness = createShopAgent(options.model ?? createScriptedModel(), shop, {
    progressDelayMs: options.progressDelayMs ?? 0,
  });
  const server = await startChatServer({
    chat: (request) => handleChatRequest(harness, request, { context: { signal: request.signal } }),
    publicDir: options.publicDir ?? defaultPublicDir,
    modelDescription: options.modelDescription ?? 'the embedded scripted model',
    ...(options.host === undefined ? {} : { host: options.host }),
    ...(options.port === undefined ? {} : { port: options.port }),
  });
  return { ...server, shop };
}
