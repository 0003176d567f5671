import type { LineSource } from './text';

const WORD_RE = /^[A-Za-z_$][\w$]*/;
const LEADING_RE = /^[ \t]*/;

/**
 * The block a `@@` line opens, read from indentation alone. A line is a header when the
 * next non-blank line is indented deeper (under the same leading whitespace). Its block
 * runs until its next sibling: a header with exactly the same leading whitespace that
 * starts with the same word (`def`, `function`, `fn`, `it`) or ends in the same `{` or
 * `:`. Only a sibling ends a block, never a line that is merely less indented (a column-0
 * comment, preprocessor line or string inside a function): a block read too long lets
 * more places count, and only a block read too short could hide a place.
 */
export class Scopes {
  /** Per line: the first line past the block it opens (`count` when it runs to the end), or -1 when it opens none. */
  private readonly ends: Int32Array;

  constructor(source: LineSource) {
    const n = source.count;
    const lead: (string | undefined)[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const line = source.line(i);
      lead[i] = line.trim() === '' ? undefined : (LEADING_RE.exec(line) as RegExpExecArray)[0];
    }
    this.ends = new Int32Array(n).fill(-1);
    let next: string | undefined;
    for (let i = n - 1; i >= 0; i--) {
      const mine = lead[i];
      if (mine === undefined) {
        continue;
      }
      if (next !== undefined && next.length > mine.length && next.startsWith(mine)) {
        this.ends[i] = n;
      }
      next = mine;
    }
    const waiting = new Map<string, number[]>();
    const closed = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      if (this.ends[i] < 0) {
        continue;
      }
      const t = source.line(i).trim();
      const keys: string[] = [];
      const word = WORD_RE.exec(t);
      if (word) {
        keys.push(`${lead[i]}\0w\0${word[0]}`);
      }
      const last = t.charAt(t.length - 1);
      if (last === '{' || last === ':') {
        keys.push(`${lead[i]}\0c\0${last}`);
      }
      for (const key of keys) {
        for (const q of waiting.get(key) ?? []) {
          if (!closed[q]) {
            closed[q] = 1;
            this.ends[q] = i;
          }
        }
        waiting.set(key, [i]);
      }
    }
  }

  /**
   * Whether line `x` lies in the scope of a `@@` line found at `q`: inside the block `q`
   * opens, or anywhere below `q` when `q` opens none (nothing is known of its extent).
   */
  contains(q: number, x: number): boolean {
    return x > q && (this.ends[q] < 0 || x < this.ends[q]);
  }
}
