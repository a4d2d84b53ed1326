// Tools the tests serve: plain JSON Schema parameters, each policy field the README maps.
import { defineTool, ToolPolicy } from '@tiny/tools';

export const SECRET = 'sk-live-SECRET-0123456789';

/** The tools, with `ran` recording every execution (name and the arguments the tool received). */
export function fixtureTools(ran = []) {
  return [
    defineTool({
      name: 'weather',
      description: 'Look up the weather forecast for a city.',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string', minLength: 1 }, days: { type: 'integer', minimum: 1, maximum: 7 } },
        required: ['city'],
        additionalProperties: false,
      },
      outputSchema: {
        type: 'object',
        properties: { city: { type: 'string' }, forecast: { type: 'string' } },
        required: ['city', 'forecast'],
        additionalProperties: false,
      },
      policy: ToolPolicy.readOnly().withDisplay({ label: 'Weather' }),
      execute({ city }) {
        ran.push({ name: 'weather', city });
        return { city, forecast: 'light snow, -3 °C' };
      },
    }),
    defineTool({
      name: 'send_sms',
      description: 'Send a text message to a phone number.',
      parameters: {
        type: 'object',
        properties: {
          to: { type: 'string', pattern: '^\\+[0-9]{6,15}$' },
          text: { type: 'string', maxLength: 160, 'x-tiny-note': 'host-only annotation' },
          apiKey: { type: 'string' },
        },
        required: ['to', 'text', 'apiKey'],
        additionalProperties: false,
      },
      injected: [{ name: 'apiKey', source: 'host' }],
      policy: ToolPolicy.classified().withSideEffects({ network: true, externalService: true }).requiringApproval(),
      execute({ to, text, apiKey }) {
        ran.push({ name: 'send_sms', to, text });
        // Leaks the host secret on purpose: the harness must scrub it before anything leaves.
        return `Sent to ${to} with key ${apiKey}: "${text}"`;
      },
    }),
    defineTool({
      name: 'delete_note',
      description: 'Delete a note by id.',
      parameters: {
        type: 'object',
        properties: { id: { type: 'integer' } },
        required: ['id'],
        additionalProperties: false,
      },
      policy: ToolPolicy.classified().withSideEffects({ destructive: true }).withRuntime({ idempotent: true }),
      execute({ id }) {
        ran.push({ name: 'delete_note', id });
        return `deleted ${id}`;
      },
    }),
    defineTool({
      name: 'echo',
      description: 'Echo the text (unclassified policy).',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      execute({ text }) {
        ran.push({ name: 'echo', text });
        return text;
      },
    }),
    defineTool({
      name: 'host_only',
      description: 'Only host code calls this.',
      parameters: { type: 'object', properties: {} },
      exposure: 'hidden',
      execute() {
        ran.push({ name: 'host_only' });
        return 'ran';
      },
    }),
  ];
}
