/** One probe conversation handed to the template. @internal */
export interface ProbeInput {
  readonly name: string;
  readonly messages: readonly Readonly<Record<string, unknown>>[];
  /** The `tools` variable; absent: none (a template that loops over an undefined `tools` gets `[]`). */
  readonly tools?: unknown;
  readonly addGenerationPrompt: boolean;
}

/** What one probe rendered, or what it threw. @internal */
export type Rendering = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly error: string };

/** A bound the rendering itself can hit (time and the heap are watched from outside). @internal */
type RenderLimit = 'output' | 'memory' | 'stack';

/** The result of {@link renderProbes}. @internal */
export type ProbeRenderResult =
  | { readonly kind: 'parse'; readonly error: string }
  | { readonly kind: 'limit'; readonly limit: RenderLimit; readonly probe: string; readonly detail: string }
  | { readonly kind: 'rendered'; readonly renderings: Readonly<Record<string, Rendering>> };

/** The input of {@link renderProbes}: plain data, so it crosses into a worker thread as it is. @internal */
export interface ProbeRenderInput {
  readonly template: string;
  readonly base: Readonly<Record<string, unknown>>;
  readonly probes: readonly ProbeInput[];
  /** Longest rendered text a probe may produce, in characters. */
  readonly maxOutputChars: number;
}

/** The `Template` class of `@huggingface/jinja`, as far as {@link renderProbes} uses it. @internal */
type TemplateClass = new (template: string) => { render(items: Record<string, unknown>): string };

/**
 * Parses `input.template` and renders every probe with it. Self-contained (it refers to nothing
 * outside its own body, and gets the engine as an argument) because the bounded path runs it in a
 * worker thread from its source text. A probe's ordinary error is recorded and the next probe runs;
 * a probe that exhausts a resource (a rendering longer than `maxOutputChars`, the engine's string
 * or array length, the call stack) ends the whole rendering with a `limit`, since the template
 * cannot be trusted to render within bounds.
 *
 * @internal
 */
export function renderProbes(Template: TemplateClass, input: ProbeRenderInput): ProbeRenderResult {
  const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));
  const exhausted = (error: unknown): 'memory' | 'stack' | undefined => {
    if (!(error instanceof RangeError)) return undefined;
    if (/call stack/i.test(error.message)) return 'stack';
    if (/invalid (string|array|typed array) length|allocation failed/i.test(error.message)) return 'memory';
    return undefined;
  };
  let compiled: InstanceType<TemplateClass>;
  try {
    compiled = new Template(input.template);
  } catch (error) {
    const limit = exhausted(error);
    if (limit !== undefined) return { kind: 'limit', limit, probe: 'parse', detail: describe(error) };
    return { kind: 'parse', error: describe(error) };
  }
  const renderings: Record<string, Rendering> = {};
  for (const probe of input.probes) {
    // Set from inside `attempt` (a cast, so the checks below are not narrowed to its initial value).
    let stop = undefined as ProbeRenderResult | undefined;
    const attempt = (extra: Record<string, unknown>): Rendering => {
      try {
        const context = { ...input.base, add_generation_prompt: probe.addGenerationPrompt, ...extra };
        const text = compiled.render(structuredClone({ ...context, messages: probe.messages }));
        if (text.length > input.maxOutputChars) {
          stop = {
            kind: 'limit',
            limit: 'output',
            probe: probe.name,
            detail: `rendered ${text.length} characters, more than ${input.maxOutputChars}`,
          };
        }
        return { ok: true, text };
      } catch (error) {
        const limit = exhausted(error);
        if (limit !== undefined) stop = { kind: 'limit', limit, probe: probe.name, detail: describe(error) };
        return { ok: false, error: describe(error) };
      }
    };
    let rendering: Rendering;
    if (probe.tools !== undefined) rendering = attempt({ tools: probe.tools });
    else {
      rendering = attempt({});
      if (!rendering.ok && stop === undefined) {
        const empty = attempt({ tools: [] });
        if (empty.ok) rendering = empty;
      }
    }
    if (stop !== undefined) return stop;
    renderings[probe.name] = rendering;
  }
  return { kind: 'rendered', renderings };
}
