import * as nodePath from 'node:path';
import { throwIfCancelled, type CancelSignal } from '../cancel';
import { completeUtf8, readRegularFile, type FileOpener } from '../file';
import { MAX_IGNORE_FILE_BYTES, MAX_IGNORE_FILE_RULES, MAX_IGNORE_RULE_CHARS, MAX_IGNORE_WILDCARD_CHARS } from '../limits';
import { decodeText } from '../text/encoding';
import { editorGlobToLines, rebaseLines } from './globs';
import { Pacer } from '../pace';
import { childFrame, compileRules, IGNORE_FILE_NAMES, MatchClock, Matcher, Overrides, RuleFile, type CompiledRules, type Frame, type IgnoreFileName, type NameScreen } from './rules';

/** The part of the workspace seam the ignore policy reads through. */
export type RuleReader = FileOpener;

/**
 * Everything that decides what a walk leaves out. One policy serves `fs_list`, `fs_glob`
 * and `fs_grep`, and both search engines: ripgrep gets it as flags
 * ({@link IgnorePolicy.ripgrepArgs}), the JavaScript walks as a {@link Matcher}.
 */
export interface IgnoreSpec {
  /** Real path of the folder rules and output paths are relative to: the workspace folder, or the walked folder when outside any. */
  root: string;
  /** Real path of the folder walked: `root` or a folder below it. */
  base: string;
  /** Apply `.gitignore`, `.ignore`, `.rgignore`, the editor's excludes and the settings' globs. @default true */
  respectIgnore: boolean;
  /** Editor globs (`files.exclude`, plus `search.exclude` for searches) relative to `root`, VS Code syntax. @default [] */
  editorExcludes: readonly string[];
  /** Gitignore-style globs of the `agentFileTools.ignoreGlobs` setting, relative to `root`. @default [] */
  settingGlobs: readonly string[];
  /** Gitignore-style globs the call gave, relative to `base`; they apply even when `respectIgnore` is off. @default [] */
  callGlobs: readonly string[];
  /**
   * The volume folds case (see core/names.ts): every rule and glob matches letters in
   * either case, as git's `core.ignorecase` and a Windows or macOS user expect
   * (`build/` leaves out `Build/`). @default false
   */
  foldCase?: boolean;
}

/** Labels of the rule sources, as the footers name them. */
export interface RuleSources {
  ignoreFiles: boolean;
  editor: boolean;
  settings: boolean;
  call: boolean;
}

export class IgnorePolicy {
  /** `base` relative to `root` with "/" ("" when they are the same). */
  readonly baseRel: string;
  /** Rules of the ignore files in the folders between root and base, rebased onto root. */
  readonly ancestorLines: readonly string[];
  /** Exclusions in ripgrep `--glob` form ("!line"), in order. */
  readonly excludeGlobs: readonly string[];
  readonly sources: RuleSources;
  private readonly explicit: RuleFile | undefined;
  /** One budget of matching time for every matcher of the call (see MatchClock). */
  private readonly clock = new MatchClock();
  /**
   * Each ignore file read once per call, by its root-relative path: the walk and the
   * checks after it decide by the same rules (the wildcard budget is spent once).
   */
  private readonly ruleFiles = new Map<string, RuleFile | undefined>();

  private constructor(
    readonly spec: IgnoreSpec,
    ancestorLines: string[],
    explicit: CompiledRules | undefined,
    private readonly reader: RuleReader,
    private readonly signal: CancelSignal | undefined,
    private readonly budget: RuleBudget,
  ) {
    this.baseRel = relPosix(spec.root, spec.base);
    this.ancestorLines = ancestorLines;
    this.explicit = explicit ? new RuleFile('ignore files of the folders above', explicit) : undefined;
    const lines: string[] = [];
    if (spec.respectIgnore) {
      for (const g of spec.editorExcludes) {
        lines.push(...editorGlobToLines(g));
      }
      lines.push(...cleanLines(spec.settingGlobs));
    }
    lines.push(...rebaseLines(cleanLines(spec.callGlobs), this.baseRel));
    this.excludeGlobs = [...new Set(lines)].map((l) => `!${l}`);
    this.sources = {
      ignoreFiles: spec.respectIgnore,
      editor: spec.respectIgnore && spec.editorExcludes.length > 0,
      settings: spec.respectIgnore && spec.settingGlobs.length > 0,
      call: spec.callGlobs.length > 0,
    };
  }

  /** Reads the ignore files of the folders between root and base (the walk reads the rest). */
  static async load(spec: IgnoreSpec, reader: RuleReader, signal?: CancelSignal): Promise<IgnorePolicy> {
    const lines: string[] = [];
    const budget = ruleBudget();
    if (spec.respectIgnore) {
      const rel = relPosix(spec.root, spec.base);
      const parts = rel ? rel.split('/') : [];
      // Shallow to deep and, within a folder, .gitignore < .ignore < .rgignore: in one
      // gitignore list the later line wins, which gives deeper and stronger files the say.
      for (let i = 0; i < parts.length; i++) {
        const dirRel = parts.slice(0, i).join('/');
        for (const name of [...IGNORE_FILE_NAMES].reverse()) {
          throwIfCancelled(signal);
          const text = await readText(reader, nodePath.join(spec.root, ...parts.slice(0, i), name), budget);
          if (text !== undefined) {
            for (const l of rebaseLines(text.split('\n'), dirRel)) {
              lines.push(l);
            }
          }
        }
      }
    }
    const explicit = lines.length ? await compileRules(lines, new Pacer(signal), spec.foldCase) : undefined;
    return new IgnorePolicy(spec, lines, explicit, reader, signal, budget);
  }

  /**
   * ripgrep's `--glob` list, in order (the last match wins): the exclusions, then the
   * whitelist of a search's pattern, which so brings back excluded files it names just
   * as it does files the ignore files leave out, for the search to report them as hidden
   * rather than lose count of them; `trailingKeeps` last. `.git` in any case is left out
   * after all of them (ripgrep: a final `--iglob=!.git`; the JavaScript walks: the
   * {@link Matcher} before any rule), so nothing brings it back.
   */
  private overrideGlobs(keeps: readonly string[], trailingKeeps: readonly string[]): string[] {
    return [...this.excludeGlobs, ...keeps, ...trailingKeeps];
  }

  /**
   * The matcher of a walk. `keeps` are ripgrep `--glob` whitelists (a search's include
   * pattern); `trailingKeeps` are kept whatever the rules say.
   */
  matcher(keeps: readonly string[] = [], trailingKeeps: readonly string[] = [], opts: { ignoreFiles?: boolean } = {}): Matcher {
    const files = this.spec.respectIgnore && opts.ignoreFiles !== false;
    return new Matcher(new Overrides(this.overrideGlobs(keeps, trailingKeeps), this.spec.foldCase), files ? this.explicit : undefined, files, this.clock, this.spec.foldCase);
  }

  /** The same policy as ripgrep flags; `explicitFile` is where {@link ancestorLines} were written, if any. */
  ripgrepArgs(keeps: readonly string[] = [], trailingKeeps: readonly string[] = [], explicitFile?: string): string[] {
    const args = ['--no-config', '--hidden', '--no-require-git', '--no-ignore-global', '--no-ignore-parent', '--no-ignore-exclude'];
    if (!this.spec.respectIgnore) {
      args.push('--no-ignore');
    } else if (explicitFile) {
      args.push(`--ignore-file=${explicitFile}`);
    }
    if (this.spec.foldCase) {
      args.push('--glob-case-insensitive', '--ignore-file-case-insensitive');
    }
    for (const g of this.overrideGlobs(keeps, trailingKeeps)) {
      args.push(`--glob=${g}`);
    }
    // ripgrep adds every --iglob after every --glob: this one is the last word.
    args.push('--iglob=!.git');
    return args;
  }

  /**
   * Which ignore files a folder (root-relative) holds, where the reader can tell at once
   * whether a name is there (a local disk); undefined where that must be waited for. A
   * name that cannot be looked at counts as there: reading it then decides.
   */
  ignoreFilesNow(dirRel: string): IgnoreFileName[] | undefined {
    if (!this.spec.respectIgnore) {
      return [];
    }
    if (!this.reader.presentNow) {
      return undefined;
    }
    // the root is absolute and normal, and a walk's folders hold no "." or ".." segment: joined without normalizing
    const root = this.spec.root.endsWith(nodePath.sep) ? this.spec.root : this.spec.root + nodePath.sep;
    const prefix = dirRel ? root + (nodePath.sep === '/' ? dirRel : dirRel.replaceAll('/', nodePath.sep)) + nodePath.sep : root;
    const out: IgnoreFileName[] = [];
    for (const name of IGNORE_FILE_NAMES) {
      const v = this.reader.presentNow(prefix + name);
      if (v === undefined) {
        return undefined;
      }
      if (v) {
        out.push(name);
      }
    }
    return out;
  }

  /** The ignore files of one folder, read from those known to exist there. */
  async frame(parent: Frame | undefined, dirRel: string, present: Iterable<string>): Promise<Frame | undefined> {
    if (!this.spec.respectIgnore) {
      return parent;
    }
    const files: Partial<Record<IgnoreFileName, RuleFile>> = {};
    const names = new Set(present);
    for (const name of IGNORE_FILE_NAMES) {
      if (!names.has(name)) {
        continue;
      }
      const source = dirRel ? `${dirRel}/${name}` : name;
      let file = this.ruleFiles.get(source);
      if (!this.ruleFiles.has(source)) {
        const text = await readText(this.reader, nodePath.join(this.spec.root, ...(dirRel ? dirRel.split('/') : []), name), this.budget);
        file = text === undefined ? undefined : new RuleFile(source, await compileRules(text.split('\n'), new Pacer(this.signal), this.spec.foldCase));
        this.ruleFiles.set(source, file);
      }
      if (file) {
        files[name] = file;
      }
    }
    return childFrame(parent, dirRel, files);
  }

  /** Words for "how to see what these rules hid". */
  describeSources(): string {
    const s: string[] = [];
    if (this.sources.ignoreFiles) {
      s.push('.gitignore/.ignore files');
    }
    if (this.sources.editor) {
      s.push("the editor's exclude settings");
    }
    if (this.sources.settings) {
      s.push('agentFileTools.ignoreGlobs');
    }
    if (this.sources.call) {
      s.push('the `ignore` globs of this call');
    }
    return s.join(', ');
  }
}

/** A test of a file's name that says whether the rules need asking (see Matcher.fileScreen). */
type Screen = NameScreen;

/** What the files of one folder share: whether the folder is left out, its rules, and their screen. */
export interface FolderAnswer {
  dir: string;
  ignored: boolean;
  frame: Frame | undefined;
  screen: Screen | undefined;
}

/**
 * Whether single paths are ignored, folder by folder from the base down, as a walk
 * would have decided. Searches use it on what ripgrep returned when a whitelist glob
 * may have brought back files the ignore rules leave out.
 */
export class PathChecker {
  /** Ignore files read per folder (root-relative); a folder absent here has none, once loaded. */
  private readonly files = new Map<string, Partial<Record<IgnoreFileName, RuleFile>> | null>();
  private readonly frames = new Map<string, Frame | undefined>();
  private readonly ignoredDirs = new Map<string, boolean>();
  private readonly matcher: Matcher;
  /** Folders whose ignore files are being read. */
  private readonly loading = new Map<string, Promise<void>>();
  /** Each folder's answer, once its first file was checked: a parallel walk interleaves folders. */
  private readonly folders = new Map<string, FolderAnswer>();
  /** Each frame's screen: folders without ignore files of their own share their parent's frame. */
  private readonly screens = new Map<Frame | undefined, Screen | undefined>();

  /** Each folder is probed for ignore files when first met (see {@link folderReady}). */
  constructor(private readonly policy: IgnorePolicy) {
    this.matcher = policy.matcher();
  }

  /**
   * {@link loadFolder}, at once where it needs no wait: every folder on the way is loaded,
   * or holds no ignore file by an answer had at once (a local disk). Then true; else the
   * wait for the folders still to read.
   */
  folderReady(dir: string): true | Promise<true> {
    if (this.files.has(dir)) {
      return true;
    }
    // the folders above first (each asked once: their answers are kept), then this one
    const above = dir === this.policy.baseRel || dir === '' ? true : this.folderReady(parentOf(dir));
    const names = above !== true || this.loading.has(dir) ? undefined : this.policy.ignoreFilesNow(dir);
    if (names === undefined || names.length > 0) {
      return this.loadFolder(dir).then(() => true);
    }
    this.files.set(dir, null);
    return true;
  }

  /** The folders from the base down to `dir` (root-relative, at or below the base). */
  private chain(dir: string): string[] {
    const parts = dir.split('/');
    const base = this.policy.baseRel;
    const out: string[] = [];
    for (let i = base ? base.split('/').length : 0; i <= parts.length; i++) {
      out.push(parts.slice(0, i).join('/'));
    }
    return out;
  }

  private loadDir(dir: string): Promise<void> | undefined {
    if (this.files.has(dir)) {
      return undefined;
    }
    let p = this.loading.get(dir);
    if (!p) {
      p = (async () => {
        const frame = await this.policy.frame(undefined, dir, IGNORE_FILE_NAMES);
        this.files.set(dir, frame ? frame.files : null);
        this.loading.delete(dir);
      })();
      this.loading.set(dir, p);
    }
    return p;
  }

  private frameOf(dir: string): Frame | undefined {
    if (this.frames.has(dir)) {
      return this.frames.get(dir);
    }
    const parent = dir === this.policy.baseRel || dir === '' ? undefined : this.frameOf(parentOf(dir));
    const files = this.files.get(dir);
    const frame = files ? { dir, files, parent } : parent;
    this.frames.set(dir, frame);
    return frame;
  }

  private dirIgnored(dir: string): boolean {
    let v = this.ignoredDirs.get(dir);
    if (v === undefined) {
      if (dir === this.policy.baseRel || dir === '') {
        v = false;
      } else {
        const parent = parentOf(dir);
        v = this.dirIgnored(parent) || this.matcher.match(this.frameOf(parent), dir, true).verdict === 'ignore';
      }
      this.ignoredDirs.set(dir, v);
    }
    return v;
  }

  private answerFor(dir: string): FolderAnswer {
    const frame = this.frameOf(dir);
    let screen = this.screens.get(frame);
    if (screen === undefined && !this.screens.has(frame)) {
      screen = this.matcher.fileScreen(frame);
      this.screens.set(frame, screen);
    }
    const answer = { dir, ignored: this.dirIgnored(dir), frame, screen };
    this.folders.set(dir, answer);
    return answer;
  }

  /**
   * What the files of `dir` (root-relative, at or below the base) share, once the folders on
   * the way are probed (see {@link folderReady}): at once where that needed no wait.
   */
  folderAnswer(dir: string): FolderAnswer | Promise<FolderAnswer> {
    const ready = this.folderReady(dir);
    return ready === true ? (this.folders.get(dir) ?? this.answerFor(dir)) : ready.then(() => this.folders.get(dir) ?? this.answerFor(dir));
  }

  /**
   * Whether a file of that folder (`rel`, its folder ending at `cut`) is left out, as far as
   * its name alone can tell: 'ignored', 'kept', or 'ask' when the rules must be matched
   * (see {@link matchIgnored}); most names are decided without matching.
   */
  static screen(at: FolderAnswer, rel: string, cut: number): 'ignored' | 'kept' | 'ask' {
    if (at.ignored) {
      return 'ignored';
    }
    return !at.screen || at.screen(rel, cut + 1) ? 'ask' : 'kept';
  }

  /** {@link screen} of a path given as UTF-8 bytes, its name `buf[at..end)`. */
  static screenBytes(at: FolderAnswer, buf: Uint8Array, nameAt: number, end: number): 'ignored' | 'kept' | 'ask' {
    if (at.ignored) {
      return 'ignored';
    }
    return !at.screen || at.screen.bytes(buf, nameAt, end) ? 'ask' : 'kept';
  }

  /** The rules matched on a file of that folder that {@link screen} could not decide. */
  matchIgnored(at: FolderAnswer, rel: string): boolean {
    return this.matcher.match(at.frame, rel, false).verdict === 'ignore';
  }

  /** Once its folder is ready (see {@link folderReady}, {@link loadFolder}): `rel` is a file relative to root, at or below the base. */
  isIgnoredNow(rel: string): boolean {
    const cut = rel.lastIndexOf('/');
    const dir = cut < 0 ? '' : rel.slice(0, cut);
    const at = this.folders.get(dir) ?? this.answerFor(dir);
    const s = PathChecker.screen(at, rel, cut);
    return s === 'ask' ? this.matchIgnored(at, rel) : s === 'ignored';
  }

  /** Probing each folder on the way (once): `rel` is a file relative to root, at or below the base. */
  async isIgnored(rel: string): Promise<boolean> {
    await this.loadFolder(parentOf(rel));
    return this.isIgnoredNow(rel);
  }

  /** Probes the folders from the base to `dir` (root-relative, at or below the base) for ignore files, each once; then {@link isIgnoredNow} needs no I/O for its files. */
  async loadFolder(dir: string): Promise<void> {
    if (!this.files.has(dir)) {
      for (const folder of this.chain(dir)) {
        await this.loadDir(folder);
      }
    }
  }
}

function parentOf(rel: string): string {
  const i = rel.lastIndexOf('/');
  return i < 0 ? '' : rel.slice(0, i);
}

function cleanLines(globs: readonly string[]): string[] {
  return globs.map((g) => g.trim().replace(/\\/g, '/')).filter((g) => g && !g.startsWith('#') && !g.startsWith('!'));
}

export function relPosix(from: string, to: string): string {
  const r = nodePath.relative(from, to);
  return r.split(nodePath.sep).join('/');
}

/**
 * An ignore file's text: only a regular file is read (the workspace may have made it a
 * link to /dev/zero or a FIFO), and only its first MAX_IGNORE_FILE_BYTES.
 */
async function readText(reader: RuleReader, path: string, budget: RuleBudget): Promise<string | undefined> {
  const r = await readRegularFile(reader, path, MAX_IGNORE_FILE_BYTES);
  return r && boundedRules(decodeText(completeUtf8(r.bytes)).text, budget);
}

/**
 * Characters of wildcard rules (see {@link boundedRules}) a call's ignore files may still
 * add, shared by every file the call reads.
 */
export interface RuleBudget {
  wildcardChars: number;
}

export function ruleBudget(): RuleBudget {
  return { wildcardChars: MAX_IGNORE_WILDCARD_CHARS };
}

/**
 * The lines of an ignore file the walks apply: up to MAX_IGNORE_FILE_RULES rules, none
 * longer than MAX_IGNORE_RULE_CHARS, and rules that mix a star with `?` or a set only
 * while the call's `budget` of their characters lasts. Matching tests every path against
 * every rule, so these bound what a repository's ignore files cost each path (a few
 * milliseconds), whatever they hold.
 */
export function boundedRules(text: string, budget: RuleBudget = ruleBudget()): string {
  const out: string[] = [];
  let rules = 0;
  for (const line of text.split('\n')) {
    if (line.length > MAX_IGNORE_RULE_CHARS) {
      continue;
    }
    const t = line.trim();
    if (!t || t.startsWith('#')) {
      out.push(line);
      continue;
    }
    if (++rules > MAX_IGNORE_FILE_RULES) {
      break;
    }
    // A star with `?` or a set: matched by the general walk, name length times pattern length.
    if (t.includes('*') && /[?[]/.test(t)) {
      if (t.length > budget.wildcardChars) {
        continue;
      }
      budget.wildcardChars -= t.length;
    }
    out.push(line);
  }
  return out.join('\n');
}
