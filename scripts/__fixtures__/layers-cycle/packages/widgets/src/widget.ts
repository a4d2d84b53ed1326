// A type-only import closing a cycle: widget -> parts/part -> widget.
import type { Part } from './parts/part.js';

export interface Widget {
  readonly parts: readonly Part[];
}

export function makeWidget(parts: readonly Part[]): Widget {
  return { parts };
}
