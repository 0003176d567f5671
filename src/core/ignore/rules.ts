import { PathSubject } from '../glob/matcher';
import { compileGitignoreRule, type GitignoreRule } from '../glob/gitignoreRule';
import { foldCase } from '../names';
import { isAscii, mayMatchName } from '../glob/nameHint';
import { ToolError } from '../errors';
import { MAX_IGNORE_MATCH_MS } from '../limits';
import type { Pacer } from '../pace';
import { isGitName } from '../paths';

/** What a rule set says of a path: left out, explicitly kept (a `!` rule), or nothing. */
export type Verdict = 'ignore' | 'keep' | undefined;

/** The ignore files read in every folder, highest precedence first (ripgrep's order). */
export const IGNORE_FILE_NAMES = ['.rgignore', '.ignore', '.gitignore'] as const;
export type IgnoreFileName = (typeof IGNORE_FILE_NAMES)[number];

/**
 * A gitignore rule list that answers for a path itself, the last matching rule winning.
 * git also lets an ignored parent folder decide for everything below it; ripgrep does
 * not: it never asks about a folder it did not walk, and a folder named as the search
 * path, or one a stronger rule kept, is walked even if a weaker rule names it. So only
 * the path's own rules are tested here. Matching is linear-bounded (see glob/matcher.ts):
 * the lines come from the workspace and the paths too.
 */
class RuleList {
  /** Built when a file is first tested (see {@link FileRules}). */
  private files: FileRules | undefined;

  constructor(private readonly rules: readonly GitignoreRule[]) {}

  static of(lines: readonly string[], nocase = false): RuleList {
    const rules: GitignoreRule[] = [];
    for (const r of compiling(lines, nocase)) {
      if (r) {
        rules.push(r);
      }
    }
    return new RuleList(rules);
  }

  get size(): number {
    return this.rules.length;
  }

  /** The rules that can match a file, by its name. */
  fileRules(): FileRules {
    return (this.files ??= new FileRules(this.rules));
  }

  /** The verdict of the last rule that matches `rel` ("/"-separated, no trailing "/"). */
  test(rel: string | PathSubject, isDir: boolean): Verdict {
    const path = typeof rel === 'string' ? new PathSubject(rel) : rel;
    if (!isDir) {
      const only = this.fileRules().candidates(path.name);
      if (only) {
        for (let c = only.length - 1; c >= 0; c--) {
          const r = this.rules[only[c]];
          if (r.test(path)) {
            return r.negated ? 'keep' : 'ignore';
          }
        }
        return undefined;
      }
    }
    for (let i = this.rules.length - 1; i >= 0; i--) {
      const r = this.rules[i];
      if ((r.dirOnly && !isDir) || !r.test(path)) {
        continue;
      }
      return r.negated ? 'keep' : 'ignore';
    }
    return undefined;
  }
}

const NONE: readonly number[] = [];

/** An ASCII letter in lower case; any other character as it is. */
function foldAscii(c: number): number {
  return c >= 65 && c <= 90 ? c | 32 : c;
}

/**
 * The rules that can match a file, by its name: rules for folders only never do, and a
 * rule on the name alone with a {@link NameHint} only when the name meets it. So a file
 * is tested against the rules without a hint and the few whose hint its name meets, in
 * their order; for most files of a tree that is none.
 */
export class FileRules {
  /** Indices of the rules without a hint (for files), ascending. */
  private readonly general: number[] = [];
  /** Hinted rules by the character their hint's text starts with (exact, prefix) or ends with (suffix). */
  private readonly byFirst = new Map<number, number[]>();
  private readonly byLast = new Map<number, number[]>();

  constructor(private readonly rules: readonly GitignoreRule[]) {
    rules.forEach((r, i) => {
      if (r.dirOnly) {
        return;
      }
      const h = r.hint;
      if (!h) {
        this.general.push(i);
        return;
      }
      const [map, c] = h.kind === 'suffix' ? [this.byLast, h.text.charCodeAt(h.text.length - 1)] : [this.byFirst, h.text.charCodeAt(0)];
      let list = map.get(c);
      if (!list) {
        list = [];
        map.set(c, list);
      }
      list.push(i);
    });
  }

  /** Whether some rule without a hint can match a file: then every file must be tested. */
  get hasGeneral(): boolean {
    return this.general.length > 0;
  }

  /** The characters (ASCII in lower case) that names meeting the hints start with. */
  firstChars(): number[] {
    return [...this.byFirst.keys()];
  }

  /** The characters (ASCII in lower case) that names meeting the suffix hints end with. */
  lastChars(): number[] {
    return [...this.byLast.keys()];
  }

  /** Indices of the rules a file named `name` must be tested against, ascending; undefined: test them all. */
  candidates(name: string): readonly number[] | undefined {
    if (!name || !isAscii(name)) {
      return undefined;
    }
    let out: number[] | undefined;
    for (const list of [this.byFirst.get(foldAscii(name.charCodeAt(0))), this.byLast.get(foldAscii(name.charCodeAt(name.length - 1)))]) {
      for (const i of list ?? NONE) {
        if (mayMatchName(name, this.rules[i].hint!)) {
          (out ??= []).push(i);
        }
      }
    }
    if (!out) {
      return this.general;
    }
    return [...this.general, ...out].sort((a, b) => a - b);
  }
}

/** Each line compiled in turn (undefined for a blank line or comment); a line seen before reuses its rule. */
function* compiling(lines: readonly string[], nocase: boolean): Generator<GitignoreRule | undefined> {
  const seen = new Map<string, GitignoreRule | undefined>();
  for (const l of lines) {
    let r = seen.get(l);
    if (r === undefined && !seen.has(l)) {
      r = compileGitignoreRule(l, nocase);
      seen.set(l, r);
    }
    yield r;
  }
}

/** Gitignore lines compiled for a {@link RuleFile}. */
export type CompiledRules = RuleList;

/**
 * Compiles an ignore file's lines, giving the thread back while it works: a repository's
 * file of 10,000 rules takes a few hundred milliseconds to compile. `nocase`: letters match
 * in either case (see {@link Matcher.nocase}).
 */
export async function compileRules(lines: readonly string[], pacer: Pacer, nocase = false): Promise<CompiledRules> {
  const rules: GitignoreRule[] = [];
  for (const r of compiling(lines, nocase)) {
    if (r) {
      rules.push(r);
    }
    if (pacer.due()) {
      await pacer.pause();
    }
  }
  return new RuleList(rules);
}

/** Rules in gitignore syntax anchored at one folder. */
export class RuleFile {
  private readonly list: RuleList;
  readonly size: number;

  constructor(
    /** Where the rules come from, for messages: ".gitignore", "src/.ignore", "files.exclude". */
    readonly source: string,
    /** The lines, or the rules {@link compileRules} made of them. */
    lines: readonly string[] | CompiledRules,
    /** Letters match in either case (see {@link Matcher.nocase}); for lines, not compiled rules. @default false */
    nocase = false,
  ) {
    this.list = lines instanceof RuleList ? lines : RuleList.of(lines, nocase);
    this.size = this.list.size;
  }

  /** The rules that can match a file, by its name. */
  fileRules(): FileRules {
    return this.list.fileRules();
  }

  /** `rel` is relative to the rules' folder, "/" separated, without a leading "./". */
  test(rel: string | PathSubject, isDir: boolean): Verdict {
    if ((typeof rel === 'string' ? rel : rel.whole) === '') {
      return undefined;
    }
    return this.list.test(rel, isDir);
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
  private readonly list: RuleList | undefined;
  readonly keeps: number;

  constructor(
    readonly globs: readonly string[],
    /** Letters match in either case (see {@link Matcher.nocase}). @default false */
    nocase = false,
  ) {
    this.keeps = globs.filter((g) => !g.startsWith('!')).length;
    this.list = globs.length ? RuleList.of(globs, nocase) : undefined;
  }

  get empty(): boolean {
    return this.list === undefined;
  }

  /** The rules that can match a file, by its name; undefined when there are none. */
  fileRules(): FileRules | undefined {
    return this.list?.fileRules();
  }

  test(rel: string | PathSubject, isDir: boolean): Verdict {
    if (this.list) {
      const v = this.list.test(rel, isDir);
      if (v === 'ignore') {
        return 'keep';
      }
      if (v === 'keep') {
        return 'ignore';
      }
    }
    return this.keeps > 0 && !isDir ? 'ignore' : undefined;
  }
}

/** Matching time spent by one call's matchers, and its limit. */
export class MatchClock {
  private spent = 0;

  constructor(readonly limitMs: number = MAX_IGNORE_MATCH_MS) {}

  spend(ms: number): void {
    this.spent += ms;
    if (this.spent > this.limitMs) {
      throw new ToolError(
        'too-large',
        `The ignore rules here took more than ${this.limitMs / 1000} seconds to apply, so the call stopped: a .gitignore, .ignore or .rgignore in the workspace holds rules that are slow to match (thousands of patterns with wildcards). Call again with "respect_ignore": false, or with a narrower path.`,
      );
    }
  }
}

export interface MatchResult {
  verdict: Verdict;
  /** Which rules decided: "override" for `--glob`s, else the ignore file's source. */
  by?: 'override' | 'file';
}

/**
 * Whether the rules must be asked about a file, from its name alone (see Matcher.fileScreen):
 * false means no rule can match it. Called with the path and where its name starts, or
 * with the path's UTF-8 bytes (`bytes`: the name is `buf[at..end)`), which it decides alike.
 */
export interface NameScreen {
  (rel: string, at: number): boolean;
  bytes(buf: Uint8Array, at: number, end: number): boolean;
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
    /** The time matching may take, shared by the matchers of one call. */
    readonly clock: MatchClock = new MatchClock(),
    /**
     * Rules and globs were compiled to match letters in either case, as git's
     * `core.ignorecase` and ripgrep's `--glob-case-insensitive` do where the volume folds
     * case: each path is folded before it is tested. @default false
     */
    readonly nocase = false,
  ) {}

  /**
   * The decision for one path. Throws a ToolError once the call's matching time is spent:
   * each rule is linear-bounded, but a repository chooses how many there are and how
   * slow each is on its own names.
   */
  match(frame: Frame | undefined, rel: string, isDir: boolean): MatchResult {
    const t0 = performance.now();
    const r = this.decide(frame, rel, isDir);
    this.clock.spend(performance.now() - t0);
    return r;
  }

  /**
   * For the files of a folder whose rules are `frame`: a test of a file's name (the part of
   * `rel` from `at`) that says "no rule can match it" (false) when {@link match} would find
   * none (the file neither left out nor kept), as most names of a tree are; true means "ask
   * {@link match}". It looks at the name's first and last characters: every rule that could
   * match a file needs a name of a few such characters (see {@link FileRules}). Undefined
   * when no such test can be made (a rule without a hint, or overrides that keep only some files).
   */
  fileScreen(frame: Frame | undefined): NameScreen | undefined {
    if (this.overrides.keeps > 0) {
      return undefined;
    }
    const lists: FileRules[] = [];
    const o = this.overrides.fileRules();
    if (o) {
      lists.push(o);
    }
    if (this.useIgnoreFiles) {
      for (let f = frame; f; f = f.parent) {
        for (const name of IGNORE_FILE_NAMES) {
          const file = f.files[name];
          if (file) {
            lists.push(file.fileRules());
          }
        }
      }
      if (this.explicit) {
        lists.push(this.explicit.fileRules());
      }
    }
    if (lists.some((l) => l.hasGeneral)) {
      return undefined;
    }
    // an ASCII character's place tells whether a rule's name can start (bit 1) or end (bit 2) with it, in either case
    const ends = new Uint8Array(128);
    for (const c of lists.flatMap((l) => l.firstChars())) {
      ends[c] |= 1;
      ends[c >= 97 && c <= 122 ? c - 32 : c] |= 1;
    }
    for (const c of lists.flatMap((l) => l.lastChars())) {
      ends[c] |= 2;
      ends[c >= 97 && c <= 122 ? c - 32 : c] |= 2;
    }
    const screen = (rel: string, at: number): boolean => {
      const a = rel.charCodeAt(at);
      const z = rel.charCodeAt(rel.length - 1);
      // `.git` is never walked, whatever the rules (see decide)
      return at >= rel.length || a >= 128 || z >= 128 || a === 46 || (ends[a] & 1) !== 0 || (ends[z] & 2) !== 0;
    };
    // a name's first and last characters are ASCII exactly where its first and last UTF-8 bytes are
    const bytes = (buf: Uint8Array, at: number, end: number): boolean => {
      const a = buf[at];
      const z = buf[end - 1];
      return at >= end || a >= 128 || z >= 128 || a === 46 || (ends[a] & 1) !== 0 || (ends[z] & 2) !== 0;
    };
    return Object.assign(screen, { bytes });
  }

  private decide(frame: Frame | undefined, given: string, isDir: boolean): MatchResult {
    // folded character by character, so the folders' lengths still cut it (see foldCase)
    const rel = this.nocase ? foldCase(given) : given;
    if (isGitName(rel.slice(rel.lastIndexOf('/') + 1))) {
      // `.git` in any case: never walked, whatever the globs say (ripgrep's final --iglob=!.git)
      return { verdict: 'ignore', by: 'override' };
    }
    // One subject for the rules anchored at the root: the path is split at most once.
    const path = new PathSubject(rel);
    const o = this.overrides.test(path, isDir);
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
        const v = file.test(f.dir ? rel.slice(f.dir.length + 1) : path, isDir);
        if (v) {
          return { verdict: v, by: 'file' };
        }
      }
    }
    const e = this.explicit?.test(path, isDir);
    return e ? { verdict: e, by: 'file' } : { verdict: undefined };
  }
}
