import { modelFromEnv } from './agent.js';
import { startWebChat } from './web-chat.js';

// `pnpm --filter web-chat start`: the page on http://127.0.0.1:3000 (PORT and HOST change it).
const { model, description } = modelFromEnv();
const chat = await startWebChat({
  model,
  modelDescription: description,
  host: process.env.HOST ?? '127.0.0.1',
  port: Number(process.env.PORT ?? 3000),
  progressDelayMs: 400,
});
console.log(`web chat: ${chat.url} (model: ${description})`);
console.log('try: "My order A-17 arrived broken. Can I get a refund?"  (Ctrl-C stops)');
const stop = () => {
  console.log(`refunds made: ${chat.shop.refunds.length}`);
  void chat.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
