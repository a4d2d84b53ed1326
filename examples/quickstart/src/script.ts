import { type ScriptedStep, scriptedInvalidToolCall, scriptedToolCall } from '@tiny/harness/testkit';
import { Type } from 'typebox';

/** The typed final answer the demo asks for at the end. */
export const TripSummary = Type.Object(
  {
    city: Type.String(),
    days: Type.Integer({ minimum: 1 }),
    forecast: Type.String(),
    packing: Type.Array(Type.String()),
    reminderSent: Type.Boolean(),
  },
  { additionalProperties: false },
);

/**
 * What the embedded model says, turn by turn. It makes the mistakes real models make so the demo
 * shows the harness recovering: a tool name that does not exist, then arguments with broken JSON.
 * The text message needs the host's approval, so the run pauses there; the last step answers the
 * structured request with the output tool `trip_summary`.
 */
export const demoScript: ScriptedStep[] = [
  { content: 'Let me check the forecast for Oslo.', toolCalls: [scriptedToolCall('get_weather', { city: 'Oslo' })] },
  {
    toolCalls: [scriptedInvalidToolCall('weather', '{city: "Oslo", days: 2,}', 'Expected double-quoted property name')],
  },
  {
    content: 'Snow is coming. Saving a note and texting you.',
    toolCalls: [
      scriptedToolCall('save_note', { text: 'Oslo: light snow for two days, pack boots.' }),
      scriptedToolCall('send_sms', { to: '+4712345678', text: 'Snow in Oslo, pack boots!' }),
    ],
  },
  { content: 'Oslo will have light snow for the next two days. I saved a note and texted you a reminder.' },
  {
    toolCalls: [
      scriptedToolCall('trip_summary', {
        city: 'Oslo',
        days: 2,
        forecast: 'light snow, -3 °C',
        packing: ['boots', 'gloves'],
        reminderSent: true,
      }),
    ],
  },
];
