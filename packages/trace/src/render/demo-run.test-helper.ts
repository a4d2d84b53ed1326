import { AgentHarness, type AgentRun } from '@tiny/harness';
import { ScriptedModel, type ScriptedStep, scriptedInvalidToolCall, scriptedToolCall } from '@tiny/harness/testkit';
import { defineTool, ToolFailedError, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { recordEvents, type TraceRecording } from '../record/record-events.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Tools of the demo trip planner; they sleep a little so the timeline has visible durations. */
function createDemoTools(pageText: string) {
  const weather = defineTool({
    name: 'weather',
    description: 'Forecast for a city.',
    parameters: Type.Object({ city: Type.String(), days: Type.Integer() }, { additionalProperties: false }),
    policy: ToolPolicy.readOnly(),
    isConcurrencySafe: () => true,
    execute: async ({ city, days }) => {
      await sleep(city === 'Oslo' ? 60 : 45);
      return { city, days, forecast: city === 'Oslo' ? ['sun', 'clouds'] : ['rain', 'rain'] };
    },
  });
  const distance = defineTool({
    name: 'distance',
    description: 'Kilometres between two cities.',
    parameters: Type.Object({ from: Type.String(), to: Type.String() }),
    policy: ToolPolicy.readOnly(),
    execute: async ({ from, to }) => {
      await sleep(15);
      return `${from} → ${to}: 463 km`;
    },
  });
  const planTrip = defineTool({
    name: 'plan_trip',
    description: 'Plans a route, measuring legs with `distance`.',
    parameters: Type.Object({ stops: Type.Array(Type.String()) }),
    execute: async ({ stops }, context) => {
      const legs: string[] = [];
      for (let at = 1; at < stops.length; at += 1) {
        const leg = await context.callTool?.('distance', { from: stops[at - 1], to: stops[at] });
        legs.push(leg?.output() ?? '');
      }
      return legs.join('\n');
    },
  });
  const bookHotel = defineTool({
    name: 'book_hotel',
    description: 'Books a hotel.',
    parameters: Type.Object({ city: Type.String(), nights: Type.Integer({ minimum: 1 }) }),
    execute: ({ city, nights }) => `booked ${nights} night(s) in ${city}`,
  });
  const news = defineTool({
    name: 'news',
    description: 'Local news.',
    parameters: Type.Object({ city: Type.String() }),
    policy: ToolPolicy.readOnly(),
    execute: async () => {
      await sleep(25);
      throw new ToolFailedError({ reason: 'news feed unavailable (HTTP 503)' });
    },
  });
  const fetchPage = defineTool({
    name: 'fetch_page',
    description: 'Fetches a web page.',
    parameters: Type.Object({ url: Type.String() }),
    policy: ToolPolicy.readOnly(),
    execute: () => pageText,
  });
  const sendSms = defineTool({
    name: 'send_sms',
    description: 'Texts the user.',
    parameters: Type.Object({ to: Type.String(), text: Type.String(), apiKey: Type.String() }),
    injected: [{ name: 'apiKey', source: 'host' }],
    policy: ToolPolicy.classified().withSideEffects({ externalService: true }).requiringApproval(),
    execute: ({ to }) => `sent to ${to}`,
  });
  return [weather, distance, planTrip, bookHotel, news, fetchPage, sendSms];
}

/** A model that thinks for `ms` before answering. */
const slow =
  (ms: number, answer: Exclude<ScriptedStep, (...args: never[]) => unknown>): ScriptedStep =>
  async () => {
    await sleep(ms);
    return answer;
  };

/** The secret the host injects into `send_sms`; it must never reach a trace. */
export const DEMO_SECRET = 'sk-demo-do-not-leak-42';

/**
 * A recorded three-turn run of a trip planner with captured tool I/O: two concurrent forecasts and
 * an unknown tool (recovered), a nested `distance` call and invalid arguments (recovered), a failed
 * tool and a text message that waits for approval (deferred).
 */
export async function recordDemoRun(
  options: { readonly pageText?: string } = {},
): Promise<{ run: AgentRun; recording: TraceRecording }> {
  const model = new ScriptedModel({
    steps: [
      slow(35, {
        toolCalls: [
          scriptedToolCall('weather', { city: 'Oslo', days: 2 }, 'call_w1'),
          scriptedToolCall('weather', { city: 'Bergen', days: 2 }, 'call_w2'),
          scriptedToolCall('forecast', { city: 'Oslo' }, 'call_f1'),
        ],
      }),
      slow(30, {
        toolCalls: [
          scriptedToolCall('plan_trip', { stops: ['Oslo', 'Bergen'] }, 'call_p1'),
          scriptedInvalidToolCall('book_hotel', '{"city": "Bergen", "nights": two}', 'Unexpected token t', 'call_h1'),
          ...(options.pageText === undefined
            ? []
            : [scriptedToolCall('fetch_page', { url: 'https://example.test' }, 'call_x1')]),
        ],
      }),
      slow(25, {
        toolCalls: [
          scriptedToolCall('news', { city: 'Bergen' }, 'call_n1'),
          scriptedToolCall('send_sms', { to: '+4712345678', text: 'Oslo: sun, Bergen: rain' }, 'call_s1'),
        ],
      }),
    ],
  });
  const harness = new AgentHarness({ model, tools: createDemoTools(options.pageText ?? '') });
  const recorder = recordEvents();
  const run = await harness.invoke(
    { hostValues: { apiKey: DEMO_SECRET } },
    [{ role: 'user', content: 'Plan Oslo → Bergen, check the weather and text me.' }],
    { onEvent: recorder.onEvent, policy: { captureToolIo: true, toolErrors: { kind: 'return_error' } } },
  );
  return { run, recording: recorder.recording };
}
