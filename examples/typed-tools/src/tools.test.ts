import { executeTool, modelFacingParameters, ToolInputError } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { sendEmail, weather } from './tools.js';

describe('example tools', () => {
  it('answers a known city and asks the model to retry an unknown one', async () => {
    expect((await executeTool(weather, { city: 'Lisbon' })).output()).toContain('sunny');
    const retry = await executeTool(weather, { city: 'Atlantis' });
    expect(retry.errorKind).toBe('retry');
  });

  it('hides the api key from the model and overrides a forged one', async () => {
    expect(JSON.stringify(modelFacingParameters(sendEmail))).not.toContain('apiKey');
    const result = await executeTool(
      sendEmail,
      { to: 'a@b.co', subject: 's', body: 'b', apiKey: 'forged' },
      { hostValues: { apiKey: 'sk-real' } },
    );
    expect(result.metadata).toMatchObject({ keyUsed: 'sk-' });
    await expect(
      executeTool(sendEmail, { to: 'bad', subject: 's', body: 'b' }, { hostValues: { apiKey: 'k' } }),
    ).rejects.toSatisfy(ToolInputError.isInstance);
  });
});
