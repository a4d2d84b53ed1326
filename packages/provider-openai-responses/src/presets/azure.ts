import { checkOptionKeys, InvalidInputError, optionKeys } from '@tiny/llm';
import {
  checkResponsesOptions,
  createOpenAIResponses,
  type OpenAIResponsesProvider,
} from '../create-openai-responses.js';
import { hostedProfile, type OpenAIResponsesPresetOptions } from './preset-options.js';

/** Options of {@link azureResponses}. */
export interface AzureResponsesOptions extends OpenAIResponsesPresetOptions {
  /** The Azure OpenAI resource: requests go to `https://{resourceName}.openai.azure.com/openai/v1`. */
  readonly resourceName?: string | undefined;
}

const AZURE_KEYS = optionKeys<{ resourceName?: string }>()(['resourceName'], { resource: 'resourceName' });

/**
 * Azure OpenAI's Responses API. The URL is `baseURL`, else
 * `https://{resourceName}.openai.azure.com/openai/v1` (`AZURE_OPENAI_RESOURCE_NAME`); the key
 * (`apiKey` or `AZURE_OPENAI_API_KEY`) goes in the `api-key` header. Model ids are deployment
 * names. The v1 API needs no `api-version`; set `apiVersion` for a dated one (with a `baseURL`
 * ending in `/openai`). The provider id is `azure`.
 * @throws {InvalidInputError} without a `baseURL` or a resource name, or for an unknown option key.
 */
export function azureResponses(options: AzureResponsesOptions = {}): OpenAIResponsesProvider {
  const { resourceName, ...rest } = options;
  checkOptionKeys('azureResponses()', { resourceName }, AZURE_KEYS);
  checkResponsesOptions('azureResponses()', rest);
  const env = typeof process === 'undefined' ? {} : process.env;
  const resource = resourceName ?? env.AZURE_OPENAI_RESOURCE_NAME;
  const baseURL =
    rest.baseURL ?? (resource === undefined ? undefined : `https://${resource}.openai.azure.com/openai/v1`);
  if (baseURL === undefined)
    throw new InvalidInputError({
      entryPoint: 'azureResponses()',
      reason: 'give a baseURL or a resourceName (or set AZURE_OPENAI_RESOURCE_NAME)',
    });
  return createOpenAIResponses({
    name: 'azure',
    authHeader: 'api-key',
    ...rest,
    baseURL,
    apiKey: rest.apiKey ?? env.AZURE_OPENAI_API_KEY,
    profileOf: hostedProfile,
  });
}
