import ignore, { type Ignore } from 'ignore';

/** What a rule set says of a path: left out, explicitly kept (a `!` rule), or nothing. */
export type Verdict = 'ignore' | 'keep' | undefined;

/** The ignore files read in every folder, highest precedence first (ripgrep's order). */
export const IGNORE_FILE_NAMES = ['.rgignore', '.ignore', '.gitignore'] as const;
export type IgnoreFileName = (typeof IGNORE_FILE_NAMES)[number];

/**
 * Rules in gitignore syntax anchored at one folder. Matching is the `ignore` package's;
 * this only maps its answer onto a verdict.
 */
export class RuleFile {
  private readonly ig: Ignore;
  readonly size: number;

  constructor(
    /** Where the rules come from, for messages: ".gitignore", "src/.ignore", "files.exclude". */
    readonly source: string,
    lines: readonly string[],
  ) {
    const kept = lines.filter((l) => l.trim() !== '' && !l.startsWith('#'));
    this.ig = ignore({ allowRelativePaths: true }).add(kept as string[]);
    this.size = kept.length;
  }

  /** `rel` is relative to the rules' folder, "/" separated, without a leading "./". */
  test(rel: string, isDir: boolean): Verdict {
    if (!rel) {
      return undefined;
    }
    const r = this.ig.test(isDir ? `${rel}/` : rel);
    return r.ignored ? 'ignore' : r.unignored ? 'keep' : undefined;
  }
}

/** The ignore files of one walked folder, linked to its parent's. */
export interface Frame {
  /** The folder, relative to the root ("" for the root). */
  dir: string;
  files: Partial<Record<IgnoreFileName, RuleFile>>;
  parent: Frame | undefined;
}

/** A folder without ignore files adds nothing: its children share the parent's frame. */
export function childFrame(parent: Frame | undefined, dir: string, files: Partial<Record<IgnoreFileName, RuleFile>>): Frame | undefined {
  return Object.keys(files).length ? { dir, files, parent } : parent;
}

/**
 * ripgrep's `--glob` list: gitignore lines whose meaning is inverted (a plain glob keeps,
 * a `!glob` leaves out), the last match winning; when any plain glob is given, a file
 * that matches none of them is left out. Folders are never left out for not matching.
 */
export class Overrides {
  /**
   * One matcher per glob, tried from the last: the `ignore` package lets a folder's match
   * decide for everything below it, which ripgrep's overrides do not (`src/**` kept then
   * node_modules left out must still leave out `src/a/node_modules`).
   */
  private readonly rules: { ig: Ignore; keep: boolean }[];
  readonly keeps: number;

  constructor(readonly globs: readonly string[]) {
    this.rules = globs.map((g) => ({ ig: ignore({ allowRelativePaths: true }).add(g.startsWith('!') ? g.slice(1) : g), keep: !g.startsWith('!') }));
    this.keeps = this.rules.filter((r) => r.keep).length;
  }

  get empty(): boolean {
    return this.rules.length === 0;
  }

  test(rel: string, isDir: boolean): Verdict {
    const p = isDir ? `${rel}/` : rel;
    for (let i = this.rules.length - 1; i >= 0; i--) {
      if (this.rules[i].ig.test(p).ignored) {
        return this.rules[i].keep ? 'keep' : 'ignore';
      }
    }
    return this.keeps > 0 && !isDir ? 'ignore' : undefined;
  }
}

export interface MatchResult {
  verdict: Verdict;
  /** Which rules decided: "override" for `--glob`s, else the ignore file's source. */
  by?: 'override' | 'file';
}

/**
 * ripgrep's decision for one path met during a walk (`Ignore::matched` of its `ignore`
 * crate): overrides first; then the ignore files, by kind (`.rgignore` over `.ignore`
 * over `.gitignore`) and within a kind the deepest folder first; then the explicit
 * `--ignore-file` rules. Reproducing it here is what lets the JavaScript walk list the
 * same files as `rg --files`.
 */
export class Matcher {
  constructor(
    readonly overrides: Overrides,
    /** Rules of the folders above the walk, rebased onto the root (ripgrep's `--ignore-file`). */
    readonly explicit: RuleFile | undefined,
    /** Whether ignore files count at all (`respect_ignore`). */
    readonly useIgnoreFiles: boolean,
  ) {}

  match(frame: Frame | undefined, rel: string, isDir: boolean): MatchResult {
    const o = this.overrides.test(rel, isDir);
    if (o) {
      return { verdict: o, by: 'override' };
    }
    if (!this.useIgnoreFiles) {
      return { verdict: undefined };
    }
    for (const name of IGNORE_FILE_NAMES) {
      for (let f = frame; f; f = f.parent) {
        const file = f.files[name];
        if (!file) {
          continue;
        }
        const v = file.test(f.dir ? rel.slice(f.dir.length + 1) : rel, isDir);
        if (v) {
          return { verdict: v, by: 'file' };
        }
      }
    }
    const e = this.explicit?.test(rel, isDir);
    return e ? { verdict: e, by: 'file' } : { verdict: undefined };
  }
}
