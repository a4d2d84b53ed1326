import { describeHeaderSecrets } from '@tiny/provider-tests';
import { createOpenAICompatible } from './create-openai-compatible.js';

// Secrets given through `headers` (issue 34, WIRE-3 fix): a server or relay that echoes the
// credential it rejected (a 401 body quoting the header) must not put it in any error text. The
// shared suite serves it over a real 127.0.0.1 server.

describeHeaderSecrets({
  name: 'OpenAI-compatible: header secrets never reach an error',
  create: (settings) => createOpenAICompatible(settings)('m'),
});
