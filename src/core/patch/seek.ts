import { ListFits, NO_FITS, type Fits } from './fits';
import { ArrayLines, type LineSource } from './text';
import type { SeekPass, SeekResult } from './types';

/**
 * Finding a chunk's lines in a file. Four passes, each forgiving more than the one
 * before, and the first pass that finds the lines at all decides (a stricter match is
 * better evidence than a looser one):
 *   exact     the lines as written;
 *   trim-end  trailing whitespace ignored;
 *   trim      leading and trailing whitespace ignored;
 *   unicode   also typographic punctuation read as ASCII (dashes, quotes, ellipsis,
 *             non-breaking and other spaces, zero-width spaces) and NFC composition.
 * Every pass compares whole lines: a line never matches part of another.
 */
export const SEEK_PASSES: readonly SeekPass[] = ['exact', 'trim-end', 'trim', 'unicode'];

const PUNCTUATION: Readonly<Record<string, string>> = {
  '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2014': '-', '\u2015': '-', '\u2212': '-',
  '\u2018': "'", '\u2019': "'", '\u201A': "'", '\u201B': "'",
  '\u201C': '"', '\u201D': '"', '\u201E': '"', '\u201F': '"',
  '\u2026': '...',
  '\u00A0': ' ', '\u2000': ' ', '\u2001': ' ', '\u2002': ' ', '\u2003': ' ', '\u2004': ' ', '\u2005': ' ',
  '\u2006': ' ', '\u2007': ' ', '\u2008': ' ', '\u2009': ' ', '\u200A': ' ', '\u202F': ' ', '\u205F': ' ',
  '\u3000': ' ',
  '\u200B': '', '\uFEFF': '',
};
const PUNCTUATION_RE = /[\u2010-\u2015\u2212\u2018-\u201F\u2026\u00A0\u2000-\u200B\u202F\u205F\u3000\uFEFF]/g;
// eslint-disable-next-line no-control-regex
const NON_ASCII_RE = /[^\x00-\x7F]/;

/** A line as the `unicode` pass compares it. */
export function normaliseLine(line: string): string {
  const t = line.trim();
  if (!NON_ASCII_RE.test(t)) {
    return t;
  }
  return t.normalize('NFC').replace(PUNCTUATION_RE, (c) => PUNCTUATION[c]).trim();
}

export function passKey(pass: SeekPass, line: string): string {
  switch (pass) {
    case 'exact':
      return line;
    case 'trim-end':
      return line.trimEnd();
    case 'trim':
      return line.trim();
    case 'unicode':
      return normaliseLine(line);
  }
}

/** The file's lines under one pass: an id per distinct line, and each id's positions. */
class PassIndex {
  readonly ids: Int32Array;
  readonly idOf = new Map<string, number>();
  /** positions[starts[id] .. starts[id + 1]) are the lines with that id, ascending. */
  private readonly starts: Int32Array;
  private readonly positions: Int32Array;

  constructor(lines: readonly string[], pass: SeekPass) {
    const n = lines.length;
    this.ids = new Int32Array(n);
    const counts: number[] = [];
    for (let i = 0; i < n; i++) {
      const key = passKey(pass, lines[i]);
      let id = this.idOf.get(key);
      if (id === undefined) {
        id = counts.length;
        this.idOf.set(key, id);
        counts.push(0);
      }
      this.ids[i] = id;
      counts[id]++;
    }
    this.starts = new Int32Array(counts.length + 1);
    for (let id = 0; id < counts.length; id++) {
      this.starts[id + 1] = this.starts[id] + counts[id];
    }
    const fill = this.starts.slice(0, counts.length);
    this.positions = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      this.positions[fill[this.ids[i]]++] = i;
    }
  }

  count(id: number): number {
    return this.starts[id + 1] - this.starts[id];
  }

  positionsOf(id: number): Int32Array {
    return this.positions.subarray(this.starts[id], this.starts[id + 1]);
  }
}

/** A file's lines, indexed lazily per pass, for repeated searches. */
export class LineIndex {
  private readonly byPass = new Map<SeekPass, PassIndex>();

  constructor(readonly source: LineSource) {}

  private pass(pass: SeekPass): PassIndex {
    let index = this.byPass.get(pass);
    if (!index) {
      index = new PassIndex(this.source.all(), pass);
      this.byPass.set(pass, index);
    }
    return index;
  }

  /**
   * Where `pattern` fits under `pass`. The exact pass searches the text natively, on
   * demand; the others index the lines (once per pass) and list every fit, linear in
   * the file and the pattern: candidates come from the pattern's rarest line, or a KMP
   * scan when every line of the pattern is common.
   */
  fits(pattern: readonly string[], pass: SeekPass): Fits {
    const n = this.source.count;
    const m = pattern.length;
    if (m === 0 || m > n) {
      return NO_FITS;
    }
    if (pass === 'exact') {
      return this.source.exactFits(pattern);
    }
    const index = this.pass(pass);
    const want = new Int32Array(m);
    let rarest = 0;
    let rarestCount = Infinity;
    for (let j = 0; j < m; j++) {
      const id = index.idOf.get(passKey(pass, pattern[j]));
      if (id === undefined) {
        return NO_FITS;
      }
      want[j] = id;
      const c = index.count(id);
      if (c < rarestCount) {
        rarestCount = c;
        rarest = j;
      }
    }
    const ids = index.ids;
    const found: number[] = [];
    if (rarestCount * m <= 2 * (n + m)) {
      for (const pos of index.positionsOf(want[rarest])) {
        const start = pos - rarest;
        if (start < 0 || start + m > n) {
          continue;
        }
        let j = 0;
        while (j < m && ids[start + j] === want[j]) {
          j++;
        }
        if (j === m) {
          found.push(start);
        }
      }
      return new ListFits(found);
    }
    // KMP over the ids.
    const fail = new Int32Array(m);
    for (let j = 1, k = 0; j < m; j++) {
      while (k > 0 && want[j] !== want[k]) {
        k = fail[k - 1];
      }
      if (want[j] === want[k]) {
        k++;
      }
      fail[j] = k;
    }
    for (let i = 0, k = 0; i < n; i++) {
      while (k > 0 && ids[i] !== want[k]) {
        k = fail[k - 1];
      }
      if (ids[i] === want[k]) {
        k++;
      }
      if (k === m) {
        found.push(i - m + 1);
        k = fail[k - 1];
      }
    }
    return new ListFits(found);
  }

  /** Whether `pattern` matches at `start` under `pass`. */
  matchesAt(pattern: readonly string[], pass: SeekPass, start: number): boolean {
    if (start < 0 || start + pattern.length > this.source.count) {
      return false;
    }
    for (let j = 0; j < pattern.length; j++) {
      if (passKey(pass, this.source.line(start + j)) !== passKey(pass, pattern[j])) {
        return false;
      }
    }
    return true;
  }

  /** Where a `*** End of File` chunk of `length` lines may start: the very end, then the end before trailing blank lines. */
  endCandidates(length: number): number[] {
    const n = this.source.count;
    let lastNonBlank = n - 1;
    while (lastNonBlank >= 0 && this.source.line(lastNonBlank).trim() === '') {
      lastNonBlank--;
    }
    const out = [n - length];
    const beforeBlanks = lastNonBlank + 1 - length;
    if (beforeBlanks !== n - length) {
      out.push(beforeBlanks);
    }
    return out.filter((p) => p >= 0);
  }
}

/**
 * The first pass that fits `pattern` at or after `start`, with that first fit and the
 * pass's fits (for `eof`, only the fit at the end: the very end first, then the end
 * before trailing blank lines).
 */
export function firstFit(index: LineIndex, pattern: readonly string[], start: number, eof: boolean): { pass: SeekPass; at: number; fits: Fits } | undefined {
  for (const pass of SEEK_PASSES) {
    if (eof) {
      const at = index.endCandidates(pattern.length).find((p) => p >= start && index.matchesAt(pattern, pass, p));
      if (at !== undefined) {
        return { pass, at, fits: new ListFits([at]) };
      }
      continue;
    }
    const fits = index.fits(pattern, pass);
    const at = fits.first(start);
    if (at >= 0) {
      return { pass, at, fits };
    }
  }
  return undefined;
}

/**
 * Finds `pattern` in `lines` at or after `start` (0-based). The first pass that matches
 * decides; when it matches in more than one place at or after `start` the answer is
 * `ambiguous` with every place, never the first one. With `eof` the pattern must end
 * the file (trailing blank lines allowed), which leaves at most one place. An empty
 * pattern is found at `start` (at the end with `eof`).
 */
export function seekSequence(lines: readonly string[], pattern: readonly string[], start: number, eof: boolean): SeekResult {
  return seekIn(new LineIndex(new ArrayLines(lines)), pattern, start, eof);
}

export function seekIn(index: LineIndex, pattern: readonly string[], start: number, eof: boolean): SeekResult {
  if (pattern.length === 0) {
    return { kind: 'found', index: eof ? index.source.count : start, pass: 'exact' };
  }
  const fit = firstFit(index, pattern, start, eof);
  if (!fit) {
    return { kind: 'none' };
  }
  const indices = fit.fits.between(fit.at, index.source.count);
  return indices.length === 1 ? { kind: 'found', index: fit.at, pass: fit.pass } : { kind: 'ambiguous', indices, pass: fit.pass };
}
