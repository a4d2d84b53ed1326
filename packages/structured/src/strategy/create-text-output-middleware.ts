import type { AgentMiddleware, MiddlewareControl, ModelRequestPatch } from '@tiny/harness';
import type { LanguageModelV1ResponseFormat } from '@tiny/llm';
import { extractFromText, refusedExtraction } from './extract-output.js';
import type { FallbackNotice } from './fallback-notice.js';
import { DEFAULT_PROMPTED_TEMPLATE, type OutputPlan, type OutputTarget } from './output-plan.js';
import { type OutputSession, rawMessage } from './output-session.js';

/** The system message of the prompted strategy. @internal */
export function promptedSystemMessage(plan: OutputPlan): string {
  const target = plan.targets[0] as OutputTarget;
  const template = plan.template ?? DEFAULT_PROMPTED_TEMPLATE;
  const described = plan.description === undefined ? '' : `\n\n${plan.description}`;
  return `${template}${described}\n\nJSON Schema for \`${plan.schemaName}\`:\n${JSON.stringify(target.wire, null, 2)}`;
}

/**
 * The provider and prompted strategies as one middleware. `beforeModel` sets the native
 * `json_schema` response format (provider) or adds the schema as a system message (prompted);
 * `afterModel` reads the final answer's text (a turn with tool calls is left alone), records the
 * value, or answers a failure with a user-turn retry (`jump_to: model`) until the budget is spent.
 * A response with a `refusal` is a `refused` failure, never parsed and never retried.
 * @internal
 */
export function createTextOutputMiddleware(session: OutputSession, notices: FallbackNotice[]): AgentMiddleware {
  const { plan } = session;
  const target = plan.targets[0] as OutputTarget;
  const responseFormat: LanguageModelV1ResponseFormat | undefined =
    plan.strategy === 'provider'
      ? {
          type: 'json_schema',
          name: plan.schemaName,
          schema: target.wire,
          ...(plan.description === undefined ? {} : { description: plan.description }),
          ...(plan.strict ? { strict: true } : {}),
        }
      : plan.jsonMode
        ? { type: 'json' }
        : undefined;
  const systemMessages = plan.strategy === 'prompted' ? [promptedSystemMessage(plan)] : undefined;
  return {
    name: `structured-output:${plan.strategy}`,
    beforeModel(_input, context): ModelRequestPatch {
      for (const notice of notices.splice(0)) context.emit(notice);
      return {
        ...(responseFormat === undefined ? {} : { responseFormat }),
        ...(systemMessages === undefined ? {} : { systemMessages }),
      };
    },
    async afterModel(input, context): Promise<MiddlewareControl | undefined> {
      if (input.calls.length > 0 || session.result !== undefined || session.terminal !== undefined) return undefined;
      const raw = rawMessage(context, input.response);
      const attempt = session.nextAttempt();
      const extraction = await session.check(
        refusedExtraction(plan, input.response.refusal) ??
          (await extractFromText(plan, input.response.content, input.response.finishReason, {
            schemaRecovery: session.settings.schemaRecovery,
            coerce: session.settings.coerce,
          })),
        raw,
        attempt,
      );
      if ('fatal' in extraction) {
        session.fatal(extraction.fatal, raw, attempt);
        return undefined;
      }
      if (extraction.ok) {
        session.succeed(extraction, raw, context);
        return undefined;
      }
      const decision = session.fail(extraction, raw, attempt, context);
      return decision.retry ? { type: 'jump_to', target: 'model', messages: [decision.message] } : undefined;
    },
  };
}
