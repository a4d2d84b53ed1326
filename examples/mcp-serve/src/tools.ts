import { defineTool, ModelRetry, ToolPolicy, ToolResult } from '@tiny/tools';
import { Type } from 'typebox';

// The quickstart's three tools (examples/quickstart/src/tools.ts), served over MCP here.
const forecasts: Record<string, string> = { oslo: 'light snow, -3 °C', lisbon: 'sunny, 17 °C' };

/** Read-only: listed with `readOnlyHint: true`. */
export const weather = defineTool({
  name: 'weather',
  description: 'Look up the weather forecast for a city.',
  parameters: Type.Object(
    { city: Type.String({ minLength: 1 }), days: Type.Optional(Type.Integer({ minimum: 1, maximum: 7 })) },
    { additionalProperties: false },
  ),
  policy: ToolPolicy.readOnly(),
  execute({ city, days = 1 }) {
    const forecast = forecasts[city.toLowerCase()];
    if (!forecast) throw new ModelRetry(`No forecast for "${city}". Try Oslo or Lisbon.`);
    return `${city}, next ${days} day(s): ${forecast}`;
  },
});

/** Side effects: writes to the outbox (listed `readOnlyHint: false`, `destructiveHint: false`). */
export function createNoteTool(outbox: string[]) {
  return defineTool({
    name: 'save_note',
    description: 'Save a short note for the user.',
    parameters: Type.Object({ text: Type.String({ maxLength: 280 }) }, { additionalProperties: false }),
    policy: ToolPolicy.classified().withSideEffects({ writesFiles: true }),
    execute({ text }) {
      outbox.push(text);
      return ToolResult.success(`Saved note #${outbox.length}.`).withMetadata({ noteId: outbox.length });
    },
  });
}

/** Uses a host secret no client sees (`apiKey` is not in its listed schema), and needs approval. */
export const sendSms = defineTool({
  name: 'send_sms',
  description: 'Send a text message to a phone number.',
  parameters: Type.Object(
    { to: Type.String({ pattern: '^\\+[0-9]{6,15}$' }), text: Type.String({ maxLength: 160 }), apiKey: Type.String() },
    { additionalProperties: false },
  ),
  injected: [{ name: 'apiKey', source: 'host' }],
  policy: ToolPolicy.classified().withSideEffects({ network: true, externalService: true }).requiringApproval(),
  execute({ to, text, apiKey }) {
    return `Sent to ${to} with key ${apiKey.slice(0, 3)}…: "${text}"`;
  },
});
