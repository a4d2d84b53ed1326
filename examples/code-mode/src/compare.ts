import { codeModeTool } from '@tiny/code-mode';
import { AgentHarness } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import type { LanguageModelV1Request } from '@tiny/llm';
import { defineTool } from '@tiny/tools';
import { Type } from 'typebox';

/** The 20 products the task asks about. */
export const SKUS = Array.from({ length: 20 }, (_, index) => `sku-${String(index + 1).padStart(2, '0')}`);

/** A price list the tool reads from (deterministic, so both runs see the same data). */
const price = (sku: string) => (Number(sku.slice(4)) * 37) % 101;

function priceTool() {
  return defineTool({
    name: 'get_price',
    description: 'Current price of one product, in euros.',
    parameters: Type.Object({ sku: Type.String({ pattern: '^sku-[0-9]{2}$' }) }),
    outputSchema: Type.Object({ sku: Type.String(), price: Type.Number(), currency: Type.Literal('EUR') }),
    execute: ({ sku }) => ({ sku, price: price(sku), currency: 'EUR' as const }),
  });
}

/** What one way of doing the task cost. */
export interface Figures {
  readonly answer: string;
  readonly modelCalls: number;
  readonly toolCalls: number;
  /** Characters of every request sent to the model (messages and tool specs), and that / 4 as a token estimate. */
  readonly charsSent: number;
  readonly tokensSent: number;
  readonly wallMs: number;
}

const sentChars = (requests: readonly LanguageModelV1Request[]) =>
  requests.reduce(
    (sum, request) => sum + JSON.stringify(request.messages).length + JSON.stringify(request.tools ?? []).length,
    0,
  );

const TASK = `Which of ${SKUS.join(', ')} is the most expensive, and what do all 20 cost together?`;

/** Answers from the tool results the transcript holds (the scripted model "reads" them). */
function summarise(prices: readonly { sku: string; price: number }[]): string {
  const top = [...prices].sort((a, b) => b.price - a.price)[0];
  const total = prices.reduce((sum, entry) => sum + entry.price, 0);
  return `Most expensive: ${top?.sku} (${top?.price} EUR); total ${total} EUR.`;
}

/** Without code mode: one tool call per turn, 20 turns, then the answer. */
export async function withoutCodeMode(): Promise<Figures> {
  const model = new ScriptedModel({
    steps: [
      ...SKUS.map((sku) => ({ toolCalls: [scriptedToolCall('get_price', { sku })] })),
      (request: LanguageModelV1Request) => {
        const prices = request.messages
          .filter((message) => message.role === 'tool')
          .map(
            (message) =>
              JSON.parse(String(message.role === 'tool' ? message.content : '')) as { sku: string; price: number },
          );
        return { content: summarise(prices) };
      },
    ],
  });
  const started = performance.now();
  const run = await new AgentHarness({ model, tools: [priceTool()] }).invoke({}, [{ role: 'user', content: TASK }]);
  const wallMs = performance.now() - started;
  const charsSent = sentChars(model.requests);
  return {
    answer: run.text,
    modelCalls: run.modelCalls,
    toolCalls: run.toolCalls,
    charsSent,
    tokensSent: Math.round(charsSent / 4),
    wallMs,
  };
}

/** The program the scripted model writes in code mode. */
export const PROGRAM = `const skus: string[] = ${JSON.stringify(SKUS)};
const prices = await Promise.all(skus.map((sku) => get_price({ sku })));
const top = prices.reduce((a, b) => (b.price > a.price ? b : a));
return { top: { sku: top.sku, price: top.price }, total: prices.reduce((sum, p) => sum + p.price, 0) };`;

/** With code mode: one turn that runs a program making the 20 calls, then the answer. */
export async function withCodeMode(): Promise<Figures> {
  const model = new ScriptedModel({
    steps: [
      { toolCalls: [scriptedToolCall('run_code', { code: PROGRAM })] },
      (request: LanguageModelV1Request) => {
        const row = request.messages.find((message) => message.role === 'tool');
        const { result } = JSON.parse(String(row?.role === 'tool' ? row.content : '')) as {
          result: { top: { sku: string; price: number }; total: number };
        };
        return {
          content: `Most expensive: ${result.top.sku} (${result.top.price} EUR); total ${result.total} EUR.`,
        };
      },
    ],
  });
  const started = performance.now();
  const run = await new AgentHarness({
    model,
    tools: [codeModeTool({ tools: [priceTool()] })],
    limits: { maxToolCalls: 50 },
  }).invoke({}, [{ role: 'user', content: TASK }]);
  const wallMs = performance.now() - started;
  const charsSent = sentChars(model.requests);
  return {
    answer: run.text,
    modelCalls: run.modelCalls,
    toolCalls: run.toolCalls,
    charsSent,
    tokensSent: Math.round(charsSent / 4),
    wallMs,
  };
}
