import ignore, { type Ignore } from 'ignore';

/** What a rule set says of a path: left out, explicitly kept (a `!` rule), or nothing. */
export type Verdict = 'ignore' | 'keep' | undefined;

/** The ignore files read in every folder, highest precedence first (ripgrep's order). */
export const IGNORE_FILE_NAMES = ['.rgignore', '.ignore', '.gitignore'] as const;
export type IgnoreFileName = (typeof IGNORE_FILE_NAMES)[number];

interface RawResult {
  ignored: boolean;
  unignored: boolean;
}
type RawTest = (path: string) => RawResult;

/**
 * A gitignore rule list that answers for a path itself, last matching rule winning.
 * The `ignore` package's public `test()` also lets an ignored parent folder decide for
 * everything below it (git's rule). ripgrep does not: it never asks about a folder it
 * did not walk, and a folder named as the search path, or one a stronger rule kept, is
 * walked even if a weaker rule names it. So the rule list's own matcher is used when the
 * package exposes it (checked against a known answer), and the public call otherwise.
 */
function ownTest(lines: readonly string[]): RawTest {
  const ig = ignore({ allowRelativePaths: true }).add(lines as string[]);
  const raw = rawRules(ig);
  return raw ? (p) => raw.test(p, 'regex') : (p) => ig.test(p);
}

type RawRules = { test(path: string, mode: string): RawResult };

function rawRules(ig: Ignore): RawRules | undefined {
  const r = (ig as unknown as { _rules?: RawRules })._rules;
  return r && typeof r.test === 'function' && RAW_RULES_WORK ? r : undefined;
}

const RAW_RULES_WORK = (() => {
  try {
    const probe = (ignore().add('a') as unknown as { _rules: RawRules })._rules;
    return probe.test('a/b', 'regex').ignored === false && probe.test('a/', 'regex').ignored === true && probe.test('x/a', 'regex').ignored === true;
  } catch {
    return false;
  }
})();

/** Rules in gitignore syntax anchored at one folder; matching is the `ignore` package's. */
export class RuleFile {
  private readonly test0: RawTest;
  readonly size: number;

  constructor(
    /** Where the rules come from, for messages: ".gitignore", "src/.ignore", "files.exclude". */
    readonly source: string,
    lines: readonly string[],
  ) {
    const kept = lines.filter((l) => l.trim() !== '' && !l.startsWith('#'));
    this.test0 = ownTest(kept);
    this.size = kept.length;
  }

  /** `rel` is relative to the rules' folder, "/" separated, without a leading "./". */
  test(rel: string, isDir: boolean): Verdict {
    if (!rel) {
      return undefined;
    }
    const r = this.test0(isDir ? `${rel}/` : rel);
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
  private readonly test0: RawTest | undefined;
  readonly keeps: number;

  constructor(readonly globs: readonly string[]) {
    this.keeps = globs.filter((g) => !g.startsWith('!')).length;
    this.test0 = globs.length ? ownTest(globs) : undefined;
  }

  get empty(): boolean {
    return this.test0 === undefined;
  }

  test(rel: string, isDir: boolean): Verdict {
    if (this.test0) {
      const r = this.test0(isDir ? `${rel}/` : rel);
      if (r.ignored) {
        return 'keep';
      }
      if (r.unignored) {
        return 'ignore';
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
