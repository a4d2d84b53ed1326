import { describeHeaderSecrets } from '@tiny/provider-tests';
import { createGoogle, createVertex } from './create-google.js';

// Secrets given through `headers` (issue 34, WIRE-3): a server or relay that echoes the credential
// it rejected must not put it in any error text. Gemini's own 401 body is the google.rpc Status
// envelope `{"error": {"code": 401, "message": …, "status": "UNAUTHENTICATED"}}` (the API's error reference).
const authError = (message: string) => ({
  status: 401,
  body: JSON.stringify({ error: { code: 401, message, status: 'UNAUTHENTICATED' } }),
});

describeHeaderSecrets({
  name: 'Gemini API: header secrets never reach an error',
  create: (settings) => createGoogle(settings)('gemini-2.5-flash'),
  authError,
});

describeHeaderSecrets({
  name: 'Vertex AI: header secrets never reach an error',
  create: ({ apiKey, ...settings }) =>
    createVertex({ ...settings, project: 'tiny-test', location: 'us-central1', accessToken: apiKey })(
      'gemini-2.5-flash',
    ),
  authError,
});
