// A stdio MCP server of the fixture tools; every served event is written to stderr as one JSON line.
import { serveToolsOverMcp } from '@tiny/mcp-server';
import { fixtureTools, SECRET } from './tools.mjs';

// Every execution is written to stderr too (`RAN {...}`), so a test sees what really ran.
const ran = { push: (entry) => process.stderr.write(`RAN ${JSON.stringify(entry)}\n`) };

await serveToolsOverMcp(fixtureTools(ran), {
  transport: 'stdio',
  context: { hostValues: { apiKey: SECRET } },
  harness: { policy: { captureToolIo: true } },
  onEvent: (event, session) => process.stderr.write(`${JSON.stringify({ session: session.sessionId, event })}\n`),
});
