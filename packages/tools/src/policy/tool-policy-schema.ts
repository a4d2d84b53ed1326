import type { JsonSchema } from '../validation/json-schema.js';

const flag = { type: 'boolean' } as const;
const strings = { type: 'array', items: { type: 'string' } } as const;
const count = { type: 'integer', minimum: 0 } as const;

/** JSON Schema of `ToolPolicy.toJSON()`; every section optional so older records still load. @internal */
export const toolPolicyJsonSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    classified: flag,
    sideEffects: {
      type: 'object',
      additionalProperties: false,
      properties: {
        readOnly: flag,
        writesFiles: flag,
        network: flag,
        installsDependencies: flag,
        destructive: flag,
        externalService: flag,
        payment: flag,
        shell: flag,
      },
    },
    runtime: {
      type: 'object',
      additionalProperties: false,
      properties: {
        timeoutMs: count,
        timeout: {
          oneOf: [
            {
              type: 'object',
              additionalProperties: false,
              required: ['kind'],
              properties: { kind: { enum: ['inherit', 'unbounded'] } },
            },
            {
              type: 'object',
              additionalProperties: false,
              required: ['kind', 'ms'],
              properties: { kind: { const: 'explicit' }, ms: count },
            },
          ],
        },
        maxRetries: count,
        idempotent: flag,
        cancelable: flag,
        sandbox: { enum: ['none', 'preferred', 'required'] },
        maxResultBytes: count,
        streaming: flag,
        replay: { enum: ['never', 'safe'] },
      },
    },
    access: {
      type: 'object',
      additionalProperties: false,
      properties: {
        workspace: { enum: ['none', 'scoped', 'any'] },
        trustedRoots: strings,
        credentials: strings,
        approvalRequired: flag,
        backgroundSafe: flag,
        redact: strings,
      },
    },
    display: {
      type: 'object',
      additionalProperties: false,
      properties: { label: { type: 'string' }, detail: { type: 'string' } },
    },
  },
};
