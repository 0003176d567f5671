import { asciiTypography } from '../text/typography';
import { FilteredFits, IdFits, ListFits, NO_FITS, type Fits } from './fits';
import { ArrayLines, type LineSource } from './text';
import type { SeekPass, SeekResult } from './types';
import { partitionPoint } from '../sorted';

/**
 * Finding a chunk's lines in a file. Four passes, each forgiving more than the one
 * before, and the first pass that finds the lines at all decides (a stricter match is
 * better evidence than a looser one):
 *   exact     the lines as written; a line written without trailing whitespace also
 *             matches the same line with some, since such whitespace is invisible and
 *             often lost on the way: `-foo` is ambiguous between `foo` and `foo `, never
 *             silently the one that happens to have none (`-foo ` means `foo `);
 *   trim-end  trailing whitespace ignored;
 *   trim      leading and trailing whitespace ignored;
 *   unicode   also typographic punctuation read as ASCII (the table fs_edit uses too,
 *             core/text/typography.ts: dashes, quotes, primes, ellipsis, non-breaking
 *             and other spaces, zero-width spaces) and NFC composition.
 * Every pass compares whole lines: a line never matches part of another.
 */
export const SEEK_PASSES: readonly SeekPass[] = ['exact', 'trim-end', 'trim', 'unicode'];

// eslint-disable-next-line no-control-regex
const NON_ASCII_RE = /[^\x00-\x7F]/;

/** A line as the `unicode` pass compares it. */
export function normaliseLine(line: string): string {
  const t = line.trim();
  if (!NON_ASCII_RE.test(t)) {
    return t;
  }
  return asciiTypography(t.normalize('NFC')).trim();
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

/** The file's lines under one pass: an id per distinct line. */
class PassIndex {
  readonly ids: Int32Array;
  readonly idOf = new Map<string, number>();

  constructor(lines: readonly string[], pass: SeekPass) {
    this.ids = new Int32Array(lines.length);
    for (let i = 0; i < lines.length; i++) {
      const key = passKey(pass, lines[i]);
      let id = this.idOf.get(key);
      if (id === undefined) {
        id = this.idOf.size;
        this.idOf.set(key, id);
      }
      this.ids[i] = id;
    }
  }
}

/** A file's lines, indexed lazily per pass, for repeated searches. */
export class LineIndex {
  private readonly byPass = new Map<SeekPass, PassIndex>();
  private readonly cache = new Map<string, Fits>();
  private lastNonBlank?: number;
  /** The unicode pass's distinct lines, sorted, with their ids: a prefix is then a range. */
  private sorted?: { keys: string[]; ids: number[] };

  constructor(readonly source: LineSource) {}

  /**
   * The 0-based lines, ascending, that start with `prefix` as the unicode pass reads
   * lines (trimmed, ASCII typography; `prefix` given so); at most `cap` + 1 of them.
   */
  linesStartingWith(prefix: string, cap: number): number[] {
    const index = this.pass('unicode');
    if (!this.sorted) {
      const keys = [...index.idOf.keys()].sort();
      this.sorted = { keys, ids: keys.map((k) => index.idOf.get(k) as number) };
    }
    const { keys, ids } = this.sorted;
    const lo = partitionPoint(0, keys.length, (i) => keys[i] >= prefix);
    const wanted = new Set<number>();
    for (let i = lo; i < keys.length && keys[i].startsWith(prefix); i++) {
      wanted.add(ids[i]);
    }
    const out: number[] = [];
    const all = index.ids;
    for (let i = 0; i < all.length && wanted.size > 0 && out.length <= cap; i++) {
      if (wanted.has(all[i])) {
        out.push(i);
      }
    }
    return out;
  }

  private pass(pass: SeekPass): PassIndex {
    let index = this.byPass.get(pass);
    if (!index) {
      index = new PassIndex(this.source.all(), pass);
      this.byPass.set(pass, index);
    }
    return index;
  }

  /**
   * Where `pattern` fits under `pass`, searched on demand (see fits.ts): the exact pass
   * in the text itself, the others over line ids (each such pass indexes the lines
   * once). Cached per pattern, so chunks that repeat a pattern share what was learnt.
   */
  fits(pattern: readonly string[], pass: SeekPass): Fits {
    const m = pattern.length;
    if (m === 0 || m > this.source.count) {
      return NO_FITS;
    }
    const key = `${pass}\n${pattern.join('\n')}`;
    let fits = this.cache.get(key);
    if (!fits) {
      fits = pass === 'exact' ? this.source.exactFits(pattern) : this.idFits(pattern, pass);
      this.cache.set(key, fits);
    }
    return fits;
  }

  /**
   * Where `pattern` fits under the exact pass: its lines that end in whitespace exactly,
   * the others with or without trailing whitespace in the file. In a file without any
   * (most), that is the text compared exactly, searched in the text itself: no line ids.
   */
  exactFits(pattern: readonly string[]): Fits {
    if (!this.source.hasTrailingSpace()) {
      return this.fits(pattern, 'exact');
    }
    const strict: number[] = [];
    pattern.forEach((l, j) => {
      if (l !== l.trimEnd()) {
        strict.push(j);
      }
    });
    if (strict.length === pattern.length) {
      return this.fits(pattern, 'exact');
    }
    const loose = this.fits(pattern, 'trim-end');
    if (strict.length === 0) {
      return loose;
    }
    const key = `exact+\n${pattern.join('\n')}`;
    let fits = this.cache.get(key);
    if (!fits) {
      fits = new FilteredFits(loose, (at) => strict.every((j) => this.source.line(at + j) === pattern[j]));
      this.cache.set(key, fits);
    }
    return fits;
  }

  private idFits(pattern: readonly string[], pass: SeekPass): Fits {
    const index = this.pass(pass);
    const want = new Int32Array(pattern.length);
    for (let j = 0; j < pattern.length; j++) {
      const id = index.idOf.get(passKey(pass, pattern[j]));
      if (id === undefined) {
        return NO_FITS;
      }
      want[j] = id;
    }
    return new IdFits(index.ids, want);
  }

  /**
   * Where each of `lines` occurs under `pass`, keyed by the line as the pass sees it;
   * more than `cap` places are cut to `cap + 1` (enough to say "too common"). One scan.
   */
  occurrences(lines: readonly string[], pass: SeekPass, cap: number): Map<string, number[]> {
    const index = this.pass(pass);
    const byId = new Map<number, number[]>();
    const out = new Map<string, number[]>();
    for (const line of lines) {
      const key = passKey(pass, line);
      const id = index.idOf.get(key);
      let list = id === undefined ? [] : byId.get(id);
      if (!list) {
        list = [];
        byId.set(id as number, list);
      }
      out.set(key, list);
    }
    const ids = index.ids;
    for (let i = 0; i < ids.length; i++) {
      const list = byId.get(ids[i]);
      if (list && list.length <= cap) {
        list.push(i);
      }
    }
    return out;
  }

  /**
   * Whether every line of `pattern` occurs somewhere in the file under the loosest pass:
   * when one does not, no pass can fit the pattern, and the others need no index.
   */
  mayFitLoosely(pattern: readonly string[]): boolean {
    const index = this.pass('unicode');
    return pattern.every((l) => index.idOf.has(normaliseLine(l)));
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
    if (this.lastNonBlank === undefined) {
      let i = n - 1;
      while (i >= 0 && this.source.line(i).trim() === '') {
        i--;
      }
      this.lastNonBlank = i;
    }
    const out = [n - length];
    const beforeBlanks = this.lastNonBlank + 1 - length;
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
    if (pass !== 'exact' && !index.mayFitLoosely(pattern)) {
      return undefined;
    }
    if (eof) {
      const at = index.endCandidates(pattern.length).find((p) => p >= start && index.matchesAt(pattern, pass, p));
      if (at !== undefined) {
        return { pass, at, fits: new ListFits([at]) };
      }
      continue;
    }
    const fits = pass === 'exact' ? index.exactFits(pattern) : index.fits(pattern, pass);
    const at = fits.first(start);
    if (at >= 0) {
      // a place found by forgiving lost trailing whitespace is reported as such
      return { pass: pass === 'exact' && !index.matchesAt(pattern, 'exact', at) ? 'trim-end' : pass, at, fits };
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
