import { type ScriptedStep, scriptedInvalidToolCall, scriptedToolCall } from '@tiny/harness/testkit';

/**
 * What the embedded model says, turn by turn. It makes the mistakes real models make so the demo
 * shows the harness recovering: a tool name that does not exist, then arguments with broken JSON.
 */
export const demoScript: ScriptedStep[] = [
  { content: 'Let me check the forecast.', toolCalls: [scriptedToolCall('get_weather', { city: 'Oslo' })] },
  {
    toolCalls: [scriptedInvalidToolCall('weather', '{city: "Oslo", days: 2,}', 'Expected double-quoted property name')],
  },
  {
    toolCalls: [
      scriptedToolCall('save_note', { text: 'Oslo: light snow for two days, pack boots.' }),
      scriptedToolCall('send_sms', { to: '+4712345678', text: 'Snow in Oslo, pack boots!' }),
    ],
  },
  { content: 'Oslo will have light snow for the next two days. I saved a note and texted you a reminder.' },
];
