import { recordedValue } from '../events/recorded-value.js';
import type { ToolExposureExplanation, ToolSetListing } from './tool-set.js';

/** The payload of one `tools_filtered` event built from a toolset listing (one per adaptor). */
export interface ToolsFilteredDetail {
  /** The adaptor's label. */
  readonly by: string;
  /** Names the adaptor withheld (`filtered_out`, `hidden`), in listing order. */
  readonly excluded: readonly string[];
  /** How many tools the whole listing offers after every adaptor. */
  readonly remaining: number;
  /** A short reason per changed name: `filtered_out`, `renamed to x`, `prefixed as x`, … */
  readonly reasons: Readonly<Record<string, string>>;
  readonly explanations: readonly ToolExposureExplanation[];
}

const withheld = new Set(['filtered_out', 'hidden']);

/**
 * Groups a listing's explanations by adaptor, in the order adaptors first reported, so the loop
 * can emit one `tools_filtered` event per withholding or renaming adaptor. Empty when nothing
 * changed.
 */
export function toolsFilteredDetails(listing: ToolSetListing): ToolsFilteredDetail[] {
  const groups = new Map<string, ToolExposureExplanation[]>();
  // The run's own frozen copies: the toolset keeping and editing its explanations changes no event.
  const copies = recordedValue(listing.explanations);
  const recorded = Array.isArray(copies) ? copies.map(declaredExplanation) : [];
  for (const explanation of recorded) {
    const group = groups.get(explanation.by);
    if (group) group.push(explanation);
    else groups.set(explanation.by, [explanation]);
  }
  return [...groups].map(([by, explanations]) => ({
    by,
    excluded: explanations.filter((item) => withheld.has(item.kind)).map((item) => item.name),
    remaining: listing.tools.length,
    reasons: Object.fromEntries(explanations.map((item) => [item.to ?? item.name, describe(item)])),
    explanations,
  }));
}

/** The fields an explanation declares, and nothing else the toolset put in it. */
function declaredExplanation(copy: unknown): ToolExposureExplanation {
  const { name, kind, by, from, to } = (
    typeof copy === 'object' && copy !== null ? copy : {}
  ) as ToolExposureExplanation;
  return { name, kind, by, ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
}

function describe(explanation: ToolExposureExplanation): string {
  switch (explanation.kind) {
    case 'renamed':
      return `renamed from ${explanation.from ?? explanation.name}`;
    case 'prefixed':
      return `prefixed from ${explanation.from ?? explanation.name}`;
    default:
      return explanation.kind;
  }
}
