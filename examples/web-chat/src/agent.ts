import { AgentHarness } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import type { LanguageModelV1, LanguageModelV1Request, LanguageModelV1Response, Message } from '@tiny/llm';
import { messageText } from '@tiny/llm';
import { anthropic, localMessages } from '@tiny/provider-anthropic';
import { createOpenAICompatible } from '@tiny/provider-openai';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';

/** An order the shop knows about. */
interface Order {
  readonly item: string;
  readonly status: string;
  readonly amountCents: number;
}

const orders: Readonly<Record<string, Order>> = {
  'A-17': { item: 'ceramic teapot', status: 'delivered on 3 December', amountCents: 4_200 },
  'B-42': { item: 'wool blanket', status: 'in transit, due tomorrow', amountCents: 8_900 },
};

/** The shop's side of the demo: the refunds that really went out (the server's truth, not the page's). */
export interface Shop {
  readonly refunds: { orderId: string; amountCents: number; reason: string; receiptEmail?: string }[];
}

/** Options for {@link createShopTools}. */
export interface ShopToolOptions {
  /** A pause between progress steps of `lookup_order`, so a person sees them arrive (0 in tests). */
  readonly progressDelayMs?: number;
}

const pause = (ms: number) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

/**
 * The agent's two tools: `lookup_order` (read-only, reports progress while it "checks" three
 * systems) and `refund_order` (moves money, so every call waits for a person's approval).
 */
export function createShopTools(shop: Shop, options: ShopToolOptions = {}) {
  const delay = options.progressDelayMs ?? 0;
  const lookupOrder = defineTool({
    name: 'lookup_order',
    description: 'Look up an order: what it is, where it is and what it cost.',
    parameters: Type.Object(
      { orderId: Type.String({ pattern: '^[A-Z]-[0-9]{1,6}$', description: 'Like A-17' }) },
      { additionalProperties: false },
    ),
    policy: ToolPolicy.readOnly(),
    async execute({ orderId }, context) {
      const steps = ['order database', 'carrier tracking', 'payment records'];
      for (const [index, step] of steps.entries()) {
        context.reportProgress({ message: `checking ${step}`, fraction: index / steps.length });
        await pause(delay);
      }
      context.reportProgress({ message: 'done', fraction: 1 });
      const order = orders[orderId];
      if (order === undefined) return { orderId, found: false };
      return { orderId, found: true, ...order };
    },
  });
  const refundOrder = defineTool({
    name: 'refund_order',
    description: 'Refund an order to the card it was paid with.',
    parameters: Type.Object(
      {
        orderId: Type.String({ pattern: '^[A-Z]-[0-9]{1,6}$' }),
        amountCents: Type.Integer({ minimum: 1, maximum: 100_000 }),
        reason: Type.String({ maxLength: 200 }),
        // Where the receipt goes. Sensitive: kept out of events, streams and the page ([redacted]).
        receiptEmail: Type.Optional(Type.String({ maxLength: 200, 'x-tiny-sensitive': true })),
      },
      { additionalProperties: false },
    ),
    policy: ToolPolicy.classified().withSideEffects({ payment: true, externalService: true }).requiringApproval(),
    execute({ orderId, amountCents, reason, receiptEmail }) {
      shop.refunds.push({ orderId, amountCents, reason, ...(receiptEmail === undefined ? {} : { receiptEmail }) });
      return { refunded: true, orderId, amount: euros(amountCents), refundId: `R-${shop.refunds.length}` };
    },
  });
  return [lookupOrder, refundOrder] as const;
}

/** `4200` → `"42.00 EUR"`. */
export function euros(cents: number): string {
  return `${(cents / 100).toFixed(2)} EUR`;
}

/** The system prompt every model gets. */
export const SYSTEM_PROMPT =
  'You are the support assistant of a small shop. Look orders up with lookup_order before acting. ' +
  'When a customer asks for a refund of a delivered order, call refund_order with the full amount; ' +
  'a person approves or denies it. Answer in one or two short sentences.';

function lastOf<T extends Message['role']>(
  messages: readonly Message[],
  role: T,
): Extract<Message, { role: T }> | undefined {
  return messages.findLast((message): message is Extract<Message, { role: T }> => message.role === role);
}

/** The receipt address the scripted refund carries: a sensitive argument the page must never see. */
export const SCRIPTED_RECEIPT_EMAIL = 'ana.lima@example.com';

/**
 * The embedded model's script, as a function of the conversation (so every chat, and every
 * test, gets the same turns whatever ran before): a user message starts with streamed text and
 * a `lookup_order` call; the order's result leads to a `refund_order` call (which needs approval);
 * the refund's result (or its denial) leads to the final answer.
 */
export function scriptedTurn(request: LanguageModelV1Request): Partial<LanguageModelV1Response> {
  const last = request.messages.at(-1);
  if (last?.role === 'tool' && last.toolName === 'lookup_order') {
    const found = JSON.parse(messageText(last)) as { orderId: string; found: boolean } & Partial<Order>;
    if (!found.found || found.amountCents === undefined) {
      return { content: `I could not find an order ${found.orderId}. Could you check the number?` };
    }
    return {
      content: `Your ${found.item} was ${found.status}. I am refunding the full ${euros(found.amountCents)}; a colleague has to approve it first.`,
      toolCalls: [
        scriptedToolCall('refund_order', {
          orderId: found.orderId,
          amountCents: found.amountCents,
          reason: 'arrived broken',
          receiptEmail: SCRIPTED_RECEIPT_EMAIL,
        }),
      ],
    };
  }
  if (last?.role === 'tool' && last.toolName === 'refund_order') {
    if (last.isError) {
      return { content: 'The refund was not approved, so no money has moved. A colleague will contact you.' };
    }
    const done = JSON.parse(messageText(last)) as { orderId: string; amount: string; refundId: string };
    return {
      content: `Done: ${done.amount} is on its way back to your card (refund ${done.refundId} for order ${done.orderId}).`,
    };
  }
  const asked = messageText(lastOf(request.messages, 'user') ?? { role: 'user', content: '' });
  const orderId = /\b[A-Z]-[0-9]{1,6}\b/.exec(asked)?.[0] ?? 'A-17';
  return {
    content: `Let me look up order ${orderId} for you.`,
    toolCalls: [scriptedToolCall('lookup_order', { orderId })],
  };
}

/** The embedded scripted model: every request answered by {@link scriptedTurn}. */
export function createScriptedModel(): ScriptedModel {
  return new ScriptedModel({ steps: [scriptedTurn], repeatLast: true, chunkSize: 4 }, 'web-chat-script');
}

/** Which model the server talks to, and a line saying so. */
export interface ModelChoice {
  readonly model: LanguageModelV1;
  readonly description: string;
}

/**
 * The model named by the environment: `OPENAI_BASE_URL` (any OpenAI-compatible server;
 * `OPENAI_API_KEY`, `OPENAI_MODEL`), else `ANTHROPIC_API_KEY` or `ANTHROPIC_BASE_URL` (Claude or
 * a local `/v1/messages` server; `ANTHROPIC_MODEL`), else the embedded scripted model.
 */
export function modelFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): ModelChoice {
  if (env.OPENAI_BASE_URL) {
    const modelId = env.OPENAI_MODEL ?? 'gpt-4o-mini';
    const provider = createOpenAICompatible({ baseURL: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY });
    return { model: provider(modelId), description: `${modelId} at ${env.OPENAI_BASE_URL}` };
  }
  const { ANTHROPIC_API_KEY: apiKey, ANTHROPIC_BASE_URL: baseURL } = env;
  if (apiKey !== undefined || baseURL !== undefined) {
    const modelId = env.ANTHROPIC_MODEL ?? (apiKey === undefined ? 'local' : 'claude-haiku-4-5');
    const model = apiKey === undefined ? localMessages({ baseURL })(modelId) : anthropic({ apiKey, baseURL })(modelId);
    return { model, description: `${modelId} (Anthropic Messages API${baseURL ? ` at ${baseURL}` : ''})` };
  }
  return {
    model: createScriptedModel(),
    description: 'the embedded scripted model (set OPENAI_BASE_URL or ANTHROPIC_API_KEY for a real one)',
  };
}

/** The shop agent: its tools, tool I/O captured (the page shows arguments and results). */
export function createShopAgent(model: LanguageModelV1, shop: Shop, options: ShopToolOptions = {}): AgentHarness {
  return new AgentHarness({
    model,
    tools: [...createShopTools(shop, options)],
    policy: { captureToolIo: true },
    limits: { maxModelCalls: 8 },
    // The shop's instructions come from the server; system messages a client sends are dropped.
    middleware: [{ name: 'shop-instructions', beforeModel: () => ({ systemMessages: [SYSTEM_PROMPT] }) }],
  });
}
