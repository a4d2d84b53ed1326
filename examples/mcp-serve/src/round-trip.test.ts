import { describe, expect, it } from 'vitest';
import { runRoundTrip } from './round-trip.js';

// Needs the built server: `pnpm --filter @tiny/example-mcp-serve build` (turbo's test task builds first).
describe('mcp-serve example', () => {
  it('calls the served quickstart tools back through @tiny/mcp, and the SMS is refused without elicitation', async () => {
    const lines: string[] = [];
    const run = await runRoundTrip((line) => lines.push(line));
    const text = lines.join('\n');
    expect(text).toContain('weather: readOnly=true');
    expect(text).toContain('weather: Oslo, next 1 day(s): light snow, -3 °C');
    expect(text).toContain('save_note: Saved note #1.');
    expect(text).toMatch(/send_sms: .*does not support elicitation/);
    expect(text).not.toContain('sk-demo-key');
    expect(run.text).toContain('SMS was not approved');
  });
});
