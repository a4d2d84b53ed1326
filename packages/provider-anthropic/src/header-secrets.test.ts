import { describeHeaderSecrets } from '@tiny/provider-tests';
import { createAnthropic } from './create-anthropic.js';

// Secrets given through `headers` (issue 34, WIRE-3 fix): a server or relay that echoes the
// credential it rejected (a 401 body quoting the header) must not put it in any error text. The
// shared suite serves it over a real 127.0.0.1 server; Anthropic's own 401 body is
// `{"type": "error", "error": {"type": "authentication_error", "message": …}}` (its errors page).

describeHeaderSecrets({
  name: 'Anthropic: header secrets never reach an error',
  create: (settings) => createAnthropic(settings)('claude-x'),
  authError: (message) => ({
    status: 401,
    body: JSON.stringify({ type: 'error', error: { type: 'authentication_error', message } }),
  }),
});
