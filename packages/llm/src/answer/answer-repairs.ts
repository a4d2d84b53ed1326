/** Repairs listed one by one at most; the rest are counted in a last entry. */
const MAX_LISTED = 64;

/**
 * The repairs one recovery made, in order, as `kind` or `kind at /json/pointer`. Bounded: past
 * {@link MAX_LISTED} entries the rest are counted in one final `… and N more repairs` entry.
 * @internal
 */
export class AnswerRepairs {
  private readonly entries: string[] = [];
  private extra = 0;

  /** Records one repair; `path` is a JSON pointer (`''` for the root). */
  add(kind: string, path?: string): void {
    if (this.entries.length >= MAX_LISTED) {
      this.extra += 1;
      return;
    }
    this.entries.push(path === undefined ? kind : `${kind} at ${path === '' ? '/' : path}`);
  }

  /** Appends every repair of `other` (a recovery of a nested value that was kept). */
  merge(other: AnswerRepairs): void {
    for (const entry of other.entries) {
      if (this.entries.length >= MAX_LISTED) this.extra += 1;
      else this.entries.push(entry);
    }
    this.extra += other.extra;
  }

  get size(): number {
    return this.entries.length + this.extra;
  }

  list(): string[] {
    return this.extra === 0 ? [...this.entries] : [...this.entries, `… and ${this.extra} more repairs`];
  }
}

/** A JSON pointer segment for `key` (`~` → `~0`, `/` → `~1`). @internal */
export function pointerSegment(key: string | number): string {
  return String(key).replaceAll('~', '~0').replaceAll('/', '~1');
}
