// A module that re-exports from itself.
export type { Loop } from './self.js';
export interface Loop {
  readonly next?: Loop;
}
