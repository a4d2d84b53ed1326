import { defineTool, ModelRetry, ToolPolicy, ToolResult } from '@tiny/tools';
import { Type } from 'typebox';

const forecasts: Record<string, string> = { oslo: 'light snow, -3 °C', lisbon: 'sunny, 17 °C', tokyo: 'rain, 9 °C' };

/** A read-only lookup: typed arguments, a JSON result. */
export const weather = defineTool({
  name: 'weather',
  description: 'Look up the weather forecast for a city.',
  parameters: Type.Object(
    {
      city: Type.String({ minLength: 1, description: 'City name, e.g. "Oslo".' }),
      days: Type.Optional(Type.Integer({ minimum: 1, maximum: 7 })),
    },
    { additionalProperties: false },
  ),
  policy: ToolPolicy.readOnly(),
  isConcurrencySafe: () => true,
  execute({ city, days = 1 }) {
    const forecast = forecasts[city.toLowerCase()];
    if (!forecast) throw new ModelRetry(`No forecast for "${city}". Known cities: Oslo, Lisbon, Tokyo.`);
    return { city, days, forecast };
  },
});

/** A side-effecting tool with a host-injected secret the model never sees. */
export const sendEmail = defineTool({
  name: 'send_email',
  description: 'Send a short email.',
  parameters: Type.Object(
    {
      to: Type.String({ format: 'email' }),
      subject: Type.String({ maxLength: 120 }),
      body: Type.String(),
      apiKey: Type.String(),
    },
    { additionalProperties: false },
  ),
  injected: [{ name: 'apiKey', source: 'host' }],
  policy: ToolPolicy.classified().withSideEffects({ network: true, externalService: true }).requiringApproval(),
  execute({ to, subject, apiKey }, context) {
    const receipt = `msg-${context.callId.slice(0, 8)}`;
    return ToolResult.success(`Sent "${subject}" to ${to}.`).withMetadata({ receipt, keyUsed: apiKey.slice(0, 3) });
  },
});
