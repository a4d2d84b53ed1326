import type { Widget } from '../widget.js';

export interface Part {
  readonly owner?: Widget;
}
