import type { ToolSchema } from '@tiny/llm';
import {
  type AnyTool,
  CallDeferredError,
  resolveSchema,
  type ToolExposure,
  ToolNotFoundError,
  ToolPolicy,
  type ToolResult,
  type ToolSchemaInput,
} from '@tiny/tools';
import type { ToolExposureExplanation, ToolSet, ToolSetCallContext, ToolSetListing } from './tool-set.js';

/** A schema-only tool for an {@link ExternalToolSet}. */
export interface ExternalToolSpec extends Omit<ToolSchema, 'parameters'> {
  /** Any schema kind: TypeBox, JSON Schema, or a Standard Schema with a JSON Schema side (Zod ≥ 4.2, ...). */
  readonly parameters: ToolSchemaInput;
  /** Default `direct`. */
  readonly exposure?: ToolExposure | undefined;
  /** Default unclassified. */
  readonly policy?: ToolPolicy | undefined;
  readonly family?: string | undefined;
}

/** What a deferred external call carries in `CallDeferredError.metadata`. */
export interface ExternalCallMetadata {
  readonly name: string;
  readonly arguments: unknown;
}

/**
 * Tools the host runs elsewhere (a client app, a remote service): advertised from schemas alone,
 * never executed here. Running one (its `execute`, or `call`) throws `CallDeferredError` with reason
 * `external` and `{ name, arguments }` as metadata, so the loop defers it to the host; an unknown
 * name throws `ToolNotFoundError`. Every tool is reported as `deferred`.
 *
 * @throws {SchemaCompileFailure} for a spec whose schema is a Zod 3 or validation-only Standard Schema.
 */
export class ExternalToolSet implements ToolSet {
  readonly label: string;
  private readonly list: readonly AnyTool[];

  constructor(specs: readonly ExternalToolSpec[], options: { label?: string } = {}) {
    this.label = options.label ?? 'external';
    this.list = specs.map((spec) => {
      const resolved = resolveSchema(spec.parameters);
      return {
        name: spec.name,
        description: spec.description ?? '',
        parameters: resolved.jsonSchema,
        ...(resolved.standard === undefined ? {} : { standardSchemas: { parameters: resolved.standard } }),
        exposure: spec.exposure ?? 'direct',
        policy: spec.policy ?? ToolPolicy.unclassified(),
        ...(spec.family === undefined ? {} : { family: spec.family }),
        execute: (args: unknown) => {
          throw deferral(spec.name, args);
        },
      };
    });
  }

  tools(): ToolSetListing {
    const explanations: ToolExposureExplanation[] = this.list.map((tool) => ({
      name: tool.name,
      kind: 'deferred',
      by: this.label,
    }));
    return { tools: this.list, explanations };
  }

  call(name: string, args: unknown, _context?: ToolSetCallContext): Promise<ToolResult> {
    if (!this.list.some((tool) => tool.name === name)) return Promise.reject(new ToolNotFoundError({ toolName: name }));
    return Promise.reject(deferral(name, args));
  }
}

function deferral(name: string, args: unknown): CallDeferredError {
  const metadata: ExternalCallMetadata = { name, arguments: args };
  return new CallDeferredError({ reason: 'external', metadata });
}
