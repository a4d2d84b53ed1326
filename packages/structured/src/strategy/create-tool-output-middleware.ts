import type { AgentMiddleware, MiddlewareControl, ModelRequestPatch, PendingCall } from '@tiny/harness';
import type { ToolChoice, ToolSchema } from '@tiny/llm';
import { ToolResult } from '@tiny/tools';
import { SchemaNameCollisionError } from '../errors/schema-name-collision-error.js';
import type { EndStrategy } from '../policy/error-policy.js';
import { type Extraction, extractFromCall, refusedExtraction } from './extract-output.js';
import type { FallbackNotice } from './fallback-notice.js';
import type { OutputTarget } from './output-plan.js';
import { type OutputSession, rawMessage } from './output-session.js';

/** Tool-strategy settings beyond the session's. @internal */
export interface ToolStrategySettings {
  readonly endStrategy: EndStrategy;
  /** `first` (default): the first output call wins; `error`: several output calls are a `multiple` failure. */
  readonly multipleOutputs: 'first' | 'error';
}

/** The output tools a plan offers (one per union variant). @internal */
export function outputToolSchemas(
  targets: readonly OutputTarget[],
  schemaName: string,
  description?: string,
): ToolSchema[] {
  return targets.map((target) => {
    const variant = target.variant === undefined ? '' : ` (variant \`${target.variant}\`)`;
    const extra = description === undefined ? '' : ` ${description}`;
    return {
      name: target.toolName,
      description: `Return the result as \`${schemaName}\`${variant}.${extra}`,
      parameters: target.wire,
    };
  });
}

/**
 * The tool strategy as one middleware. `beforeModel` offers the output tool(s) beside the real
 * tools, forced only when no real tool is offered; `afterModel` reads the first output call
 * (union: the first call of any variant), applies the end strategy when real tools were called in
 * the same turn, and decides the turn's ending (kept for `afterTools`); `beforeTool` answers every
 * output call itself, so it never executes and is never unknown.
 * @internal
 */
export function createToolOutputMiddleware(
  session: OutputSession,
  settings: ToolStrategySettings,
  notices: FallbackNotice[],
): AgentMiddleware {
  const { plan } = session;
  const byName = new Map(plan.targets.map((target) => [target.toolName, target]));
  const schemas = outputToolSchemas(plan.targets, plan.schemaName, plan.description);
  const forced: ToolChoice =
    plan.targets.length === 1
      ? { type: 'tool', toolName: (plan.targets[0] as OutputTarget).toolName }
      : { type: 'required' };
  /** This turn's answers to output calls, by call id. */
  const answers = new Map<string, ToolResult>();
  /** How this turn ends once the batch is folded. */
  let ending: MiddlewareControl | undefined;

  const answerAll = (calls: readonly PendingCall[], first: ToolResult, rest: ToolResult): void => {
    calls.forEach((call, index) => {
      answers.set(call.id, index === 0 ? first : rest);
    });
  };

  return {
    name: 'structured-output:tool',
    beforeModel(input, context): ModelRequestPatch {
      for (const notice of notices.splice(0)) context.emit(notice);
      for (const tool of input.tools) {
        if (byName.has(tool.name))
          throw new SchemaNameCollisionError({ schemaName: plan.schemaName, toolName: tool.name });
      }
      const force = input.tools.length === 0 && input.toolChoice?.type !== 'none';
      return { tools: [...input.tools, ...schemas], ...(force ? { toolChoice: forced } : {}) };
    },
    async afterModel(input, context): Promise<MiddlewareControl | undefined> {
      answers.clear();
      ending = undefined;
      if (session.result !== undefined || session.terminal !== undefined) return undefined;
      const outputCalls = input.calls.filter((call) => byName.has(call.name));
      const realCalls = input.calls.length - outputCalls.length;
      if (outputCalls.length === 0 && realCalls > 0) return undefined;
      if (outputCalls.length > 0 && realCalls > 0 && settings.endStrategy === 'exhaustive') {
        const note = ToolResult.error(
          `Not recorded: other tools were called in the same turn. Once you have their results, call \`${(outputCalls[0] as PendingCall).name}\` again on its own.`,
        );
        answerAll(outputCalls, note, note);
        return undefined;
      }
      const raw = rawMessage(context, input.response);
      const attempt = session.nextAttempt();
      let extraction: Extraction;
      const first = outputCalls[0];
      const refused = first === undefined ? refusedExtraction(plan, input.response.refusal) : undefined;
      if (refused !== undefined) {
        extraction = refused;
      } else if (first === undefined) {
        const cutOff = input.response.finishReason === 'length' && input.response.content.trim() === '';
        const names = plan.targets.map((target) => `\`${target.toolName}\``).join(' or ');
        extraction = cutOff
          ? {
              ok: false,
              kind: 'output_limit',
              error: `The model hit its output limit before calling ${names} (finish_reason=length); raise maxTokens or cap reasoning.`,
            }
          : { ok: false, kind: 'missing', error: `No call to ${names} was found. Call it with the final answer.` };
      } else if (outputCalls.length > 1 && settings.multipleOutputs === 'error') {
        extraction = {
          ok: false,
          kind: 'multiple',
          error: `Call \`${first.name}\` exactly once; it was called ${outputCalls.length} times.`,
        };
      } else {
        extraction = await extractFromCall(plan, byName.get(first.name) as OutputTarget, first);
      }
      const checked = await session.check(extraction, raw, attempt);
      if ('fatal' in checked) {
        session.fatal(checked.fatal, raw, attempt);
        return { type: 'jump_to', target: 'end' };
      }
      if (checked.ok) {
        session.succeed(checked, raw, context);
        const stop: MiddlewareControl = { type: 'stop_with_final', text: JSON.stringify(checked.value) ?? '' };
        if (realCalls > 0 && settings.endStrategy === 'early') return stop;
        answerAll(
          outputCalls,
          ToolResult.success('Output recorded.'),
          ToolResult.error('Ignored: only the first output call is used.'),
        );
        ending = stop;
        return undefined;
      }
      const decision = session.fail(checked, raw, attempt, context);
      if (!decision.retry) return first === undefined ? undefined : { type: 'jump_to', target: 'end' };
      if (first === undefined) return { type: 'jump_to', target: 'model', messages: [decision.message] };
      const rejected = ToolResult.error(`Not accepted: ${checked.error}`);
      answerAll(outputCalls, rejected, rejected);
      ending = { type: 'jump_to', target: 'model', messages: [decision.message] };
      return undefined;
    },
    beforeTool(call) {
      if (!byName.has(call.name)) return undefined;
      return { respond: answers.get(call.id) ?? ToolResult.success('Output received.') };
    },
    afterTools(): MiddlewareControl | undefined {
      const control = ending;
      ending = undefined;
      return control;
    },
  };
}
