import { executeTool, modelFacingParameters, TinyError } from '@tiny/tools';
import { sendEmail, weather } from './tools.js';

const hostValues = { apiKey: 'sk-host-secret-123' };

const calls: Array<[typeof weather | typeof sendEmail, unknown]> = [
  [weather, { city: 'Oslo', days: 2 }],
  [weather, { city: 'Atlantis' }],
  [weather, { city: 'Oslo', days: 1.5, country: 'NO' }],
  [sendEmail, { to: 'ada@example.com', subject: 'Hello', body: 'Hi Ada!', apiKey: 'forged-by-model' }],
  [sendEmail, { to: 'not-an-address', subject: 'x', body: 'y' }],
];

console.log('The model sees send_email as:');
console.log(JSON.stringify(modelFacingParameters(sendEmail)), '\n');

for (const [tool, args] of calls) {
  const label = `${tool.name}(${JSON.stringify(args)})`;
  try {
    const result = await executeTool(tool, args, { hostValues });
    const status = result.isError ? `error (${result.errorKind ?? 'refused'})` : 'ok';
    console.log(`${label}\n  -> ${status}: ${result.output().replace(/\n\s*/g, ' ')}`);
    if (result.metadata !== undefined) console.log(`  host-only metadata: ${JSON.stringify(result.metadata)}`);
  } catch (error) {
    if (!TinyError.isInstance(error)) throw error;
    console.log(`${label}\n  -> ${error.name}: ${error.message}`);
  }
}
