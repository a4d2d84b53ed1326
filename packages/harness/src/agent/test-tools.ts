import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';

/** Tools shared by the harness tests. Not exported from the package. */
export function createTestTools() {
  const log: string[] = [];
  const weather = defineTool({
    name: 'weather',
    description: 'Look up weather for a city.',
    parameters: Type.Object(
      { city: Type.String(), days: Type.Optional(Type.Integer()) },
      { additionalProperties: false },
    ),
    policy: ToolPolicy.readOnly(),
    isConcurrencySafe: () => true,
    execute: ({ city, days }) => {
      log.push(`weather:${city}`);
      return `${city}: sunny for ${days ?? 1} day(s)`;
    },
  });
  const sendEmail = defineTool({
    name: 'send_email',
    description: 'Send an email.',
    parameters: Type.Object(
      { to: Type.String(), body: Type.String(), apiKey: Type.String() },
      { additionalProperties: false },
    ),
    injected: [{ name: 'apiKey', source: 'host' }],
    policy: ToolPolicy.classified().withSideEffects({ network: true, externalService: true }),
    execute: ({ to, apiKey }) => {
      log.push(`send_email:${to}:${apiKey}`);
      return `sent to ${to}`;
    },
  });
  const secretTool = defineTool({
    name: 'admin_reset',
    description: 'Host-only reset.',
    parameters: Type.Object({}),
    exposure: 'hidden',
    execute: () => {
      log.push('admin_reset');
      return 'reset';
    },
  });
  return { log, weather, sendEmail, secretTool, all: [weather, sendEmail, secretTool] };
}
