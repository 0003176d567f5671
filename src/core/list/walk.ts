import { throwIfCancelled, type CancelSignal } from '../cancel';
import { Pacer } from '../pace';
import type { Frame, Matcher } from '../ignore/rules';
import { IGNORE_FILE_NAMES } from '../ignore/rules';
import { comparePaths, LazySorted } from './order';
import type { ListEntryType } from '../file';
import { isGitName } from '../paths';
import { isGitDirectoryNames } from '../gitDirectory';
import { MAX_IGNORED_EXAMPLES } from '../limits';

export type { ListEntryType };

export interface SourceEntry {
  name: string;
  type: ListEntryType;
  /** A tracked submodule: shown as a folder, never expanded. */
  submodule?: boolean;
}

/**
 * A large folder's entries as its names alone, each type looked up when asked for (and
 * the same answer each time): a million entries are the million names, no object each.
 */
export interface NamedItems {
  readonly names: readonly string[];
  /** The type of `names[index]`. */
  type(index: number): ListEntryType;
}

/** Where a listing's folders come from: the file system, or the files git tracks. */
export interface ListSource {
  /** Entries of a folder given relative to the listed folder ("" for itself). */
  read(rel: string): Promise<SourceEntry[] | NamedItems>;
  /** Where a symlink points, if it can be read. */
  readLink(rel: string): Promise<string | undefined>;
  /** The ignore files of a folder, read into a frame; a source without them returns `parent`. */
  frame(parent: Frame | undefined, rel: string, present: string[]): Promise<Frame | undefined>;
  /**
   * What git tracks under the listed folder, asked the first time an ignore file leaves a
   * path out: git applies ignore files only to untracked files, and so does the listing.
   * Undefined (or no method) when the folder is in no repository whose index can be read.
   */
  tracked?(): Promise<TrackedPaths | undefined>;
}

/** Paths git tracks, relative to the listed folder. */
export interface TrackedPaths {
  /** A tracked file (or symlink, or submodule) at `rel`. */
  has(rel: string): boolean;
  /** Whether some tracked path lies inside the folder `rel`. */
  holds(rel: string): boolean;
}

/** The tracked paths of index entries (relative to the listed folder), with every folder that holds one. */
export function trackedPaths(paths: Iterable<string>): TrackedPaths {
  const files = new Set<string>();
  const folders = new Set<string>();
  for (const p of paths) {
    files.add(p);
    for (let i = p.lastIndexOf('/'); i > 0 && !folders.has(p.slice(0, i)); i = p.lastIndexOf('/', i - 1)) {
      folders.add(p.slice(0, i));
    }
  }
  return { has: (rel) => files.has(rel), holds: (rel) => folders.has(rel) };
}

export interface ListEntry {
  /** Relative to the listed folder, "/" separated. */
  rel: string;
  name: string;
  /** 1 for the folder's own entries. */
  depth: number;
  type: ListEntryType;
  /** Left out by ignore rules: a folder shown collapsed. */
  ignored?: boolean;
  /** Left out by an ignore file but holding files git tracks: walked for those alone. */
  onlyTracked?: boolean;
  /** `.git`, or a git directory under another name: shown, never walked. */
  gitDir?: boolean;
  submodule?: boolean;
  /** A symlink's target. */
  target?: string;
  /** A folder that could not be read when expanded. */
  unreadable?: string;
}

/** Entries a page left out rather than showed. */
export interface LeftOut {
  /** Ignored files (and other non-folders): not shown. */
  ignoredFiles: number;
  /** The first few of them ({@link MAX_IGNORED_EXAMPLES}), relative to the listed folder. */
  ignoredNames: string[];
  /** Hidden entries (`include_hidden=false`): not shown. */
  hidden: number;
}

export interface ListRequest {
  /** Levels to show (1: only the folder's entries). */
  depth: number;
  /** Entries to return at most. */
  limit: number;
  /** 0-based index of the first entry wanted (offset paging). */
  skip: number;
  /** Start right after this path instead (cursor paging); `skip` is then ignored. */
  after?: string;
  includeHidden: boolean;
  /** Entry lines' bytes a page may hold; the page ends early (and says so) when reached. */
  maxBytes: number;
  /** Bytes an entry line takes when rendered. */
  lineBytes(e: ListEntry): number;
  signal?: CancelSignal;
}

export interface ListPage {
  entries: ListEntry[];
  /** 0-based index of the first entry shown. */
  first: number;
  /** Whether at least one more entry follows. */
  more: boolean;
  /** Why the page stopped short when `more`: the entry limit, the byte cap, or (set by the tool) the token budget. */
  stop?: 'limit' | 'bytes' | 'budget';
  /**
   * Set when the walk reached the end: entries counted by this walk (with offset paging
   * the whole listing; with a cursor, those after it).
   */
  total?: number;
  /**
   * For each entry, what was left out between the entry before it on the page (or the
   * page's start) and it; a page cut after k entries reports the first k of these.
   */
  leftOutBefore: LeftOut[];
  /** What was left out after the last entry, up to the end of the listing (none when `more`: the next page counts it). */
  leftOutAfter: LeftOut;
}

/** What the first `k` entries of a page left out, and how many ignored folders they show collapsed. */
export function leftOutUpTo(page: ListPage, k: number): LeftOut & { ignoredFolders: number } {
  const sum: LeftOut & { ignoredFolders: number } = { ignoredFiles: 0, ignoredNames: [], hidden: 0, ignoredFolders: 0 };
  const add = (l: LeftOut) => {
    sum.ignoredFiles += l.ignoredFiles;
    sum.hidden += l.hidden;
    sum.ignoredNames.push(...l.ignoredNames.slice(0, MAX_IGNORED_EXAMPLES - sum.ignoredNames.length));
  };
  const n = Math.min(k, page.entries.length);
  for (let i = 0; i < n; i++) {
    add(page.leftOutBefore[i]);
    if (page.entries[i].ignored) {
      sum.ignoredFolders++;
    }
  }
  if (n === page.entries.length) {
    add(page.leftOutAfter);
  }
  return sum;
}

interface OpenFolder {
  rel: string;
  /** Depth of its entries. */
  depth: number;
  frame: Frame | undefined;
  /** The entry of the item `iter` gives the index of. */
  item: (index: number) => SourceEntry;
  iter: LazySorted;
  entry: ListEntry | undefined;
  /** An ignored folder opened for the tracked files it holds: only those are shown, the rest is ignored. */
  onlyTracked: boolean;
}

/**
 * Opens a folder of the walk: reads its entries and its ignore files' frame. A folder
 * that cannot be read becomes an entry marked unreadable (the top one throws).
 */
async function openFolder(src: ListSource, req: ListRequest, toRoot: (rel: string) => string, rel: string, depth: number, parentFrame: Frame | undefined, entry: ListEntry | undefined, onlyTracked: boolean): Promise<OpenFolder | undefined> {
  throwIfCancelled(req.signal);
  let items: SourceEntry[] | NamedItems;
  try {
    items = await src.read(rel);
  } catch (e) {
    if (!entry) {
      throw e;
    }
    entry.unreadable = (e as NodeJS.ErrnoException).code ?? 'unreadable';
    return undefined;
  }
  let names: readonly string[];
  let item: (index: number) => SourceEntry;
  if (Array.isArray(items)) {
    const entries = items;
    names = entries.map((e) => e.name);
    item = (i) => entries[i];
  } else {
    const named = items;
    names = named.names;
    // made when the walk reaches it: of a large folder, a page reaches a few
    item = (i) => ({ name: named.names[i], type: named.type(i) });
  }
  if (entry && isGitDirectoryNames(names)) {
    // a repository under another name (`repo.git`, a --separate-git-dir): shown as `.git` is, never walked
    entry.gitDir = true;
    return undefined;
  }
  const present: string[] = [];
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    if (name.charCodeAt(0) === 46 && (IGNORE_FILE_NAMES as readonly string[]).includes(name) && item(i).type !== 'directory') {
      present.push(name);
    }
  }
  const frame = await src.frame(parentFrame, toRoot(rel), present);
  // With a cursor, entries of a folder on the cursor's path that sort before it are done.
  const after = req.after;
  let lower: string | undefined;
  if (after !== undefined && (rel === '' || after.startsWith(`${rel}/`))) {
    const rest = rel ? after.slice(rel.length + 1) : after;
    lower = rest.split('/')[0];
  }
  return { rel, depth, frame, item, iter: new LazySorted(names, lower), entry, onlyTracked };
}

/**
 * Whether the walk leaves a path out: by the rules, unless an ignore file's rule is all
 * that does and git tracks the path (or, for a folder, files inside it, which are then
 * shown alone). Inside a folder opened that way, whatever git does not track is left out.
 */
class IgnoreCheck {
  /** Undefined until first needed (most listings never need it); null when the source has none. */
  private tracked: TrackedPaths | null | undefined;

  constructor(
    private readonly src: ListSource,
    private readonly matcher: Matcher,
    private readonly toRoot: (rel: string) => string,
  ) {
    this.tracked = src.tracked ? undefined : null;
  }

  /** The decision, or 'tracked?' when it needs the tracked paths and {@link load} has not run. */
  decide(folder: OpenFolder, rel: string, isDir: boolean): 'ignore' | 'tracked-inside' | 'tracked?' | undefined {
    const m = this.matcher.match(folder.frame, this.toRoot(rel), isDir);
    if (m.verdict !== 'ignore' && !folder.onlyTracked) {
      return undefined;
    }
    if (m.verdict === 'ignore' && m.by !== 'file') {
      return 'ignore';
    }
    if (this.tracked === undefined) {
      return 'tracked?';
    }
    const t = this.tracked !== null && (isDir ? this.tracked.holds(rel) : this.tracked.has(rel));
    return !t ? 'ignore' : isDir ? 'tracked-inside' : undefined;
  }

  async load(): Promise<void> {
    this.tracked ??= (await this.src.tracked?.()) ?? null;
  }

  /** {@link decide}, loading the tracked paths when it needs them. */
  async check(folder: OpenFolder, rel: string, isDir: boolean): Promise<'ignore' | 'tracked-inside' | undefined> {
    let v = this.decide(folder, rel, isDir);
    if (v === 'tracked?') {
      await this.load();
      v = this.decide(folder, rel, isDir);
    }
    return v === 'tracked?' ? 'ignore' : v;
  }
}

/**
 * What one item of a folder is to the listing: an entry (a git folder or an ignored
 * folder marked so), or a file left out as hidden or ignored, or a `.git` pointer file,
 * skipped without a count.
 */
function entryOf(item: SourceEntry, rel: string, folder: OpenFolder, ignore: IgnoreCheck, req: ListRequest): ListEntry | 'skip' | 'hidden' | 'ignored-file' | 'tracked?' {
  if (item.name === '.git' && item.type !== 'directory') {
    // a linked work tree's or submodule's pointer to its repository: git's own data, never shown, and no ignore rule's doing
    return 'skip';
  }
  if (!req.includeHidden && item.name.startsWith('.')) {
    return 'hidden';
  }
  const entry: ListEntry = { rel, name: item.name, depth: folder.depth, type: item.type, submodule: item.submodule };
  if (item.type === 'directory' && isGitName(item.name)) {
    entry.gitDir = true;
    return entry;
  }
  const v = ignore.decide(folder, rel, item.type === 'directory');
  if (v === 'tracked?') {
    return v;
  }
  if (v === 'ignore') {
    if (item.type !== 'directory') {
      return 'ignored-file';
    }
    entry.ignored = true;
  } else if (v === 'tracked-inside') {
    entry.onlyTracked = true;
  }
  return entry;
}

/**
 * One page of a listing: entries in global path order (each folder's entries right
 * after it, sorted by name), `depth` levels deep. The walk reads folders in the order
 * their entries are printed and stops as soon as the page and the fact that more
 * follows are certain, so the cost is that of the folders the page touches: a
 * million-entry folder listed at depth 1 costs one read of it and one pass that keeps
 * the first names, not a sort. Symlinks are never followed, so a link loop is just an
 * entry. Ignored folders are entries too, collapsed; ignored files are counted, not shown.
 */
export async function listPage(src: ListSource, matcher: Matcher, rootRelOfBase: string, req: ListRequest): Promise<ListPage> {
  const page: ListPage = { entries: [], first: 0, more: false, leftOutBefore: [], leftOutAfter: { ignoredFiles: 0, ignoredNames: [], hidden: 0 } };
  // left out since the last entry of the page
  let pending: LeftOut = { ignoredFiles: 0, ignoredNames: [], hidden: 0 };
  const toRoot = (rel: string) => (rootRelOfBase ? (rel ? `${rootRelOfBase}/${rel}` : rootRelOfBase) : rel);
  const after = req.after;
  let index = 0;
  let bytes = 0;
  let inPage = after !== undefined || req.skip === 0;
  const stack: OpenFolder[] = [];

  const open = (rel: string, depth: number, parentFrame: Frame | undefined, entry: ListEntry | undefined, onlyTracked: boolean) => openFolder(src, req, toRoot, rel, depth, parentFrame, entry, onlyTracked);
  const ignore = new IgnoreCheck(src, matcher, toRoot);

  const top = await open('', 1, undefined, undefined, false);
  if (top) {
    stack.push(top);
  }
  if (after === undefined) {
    page.first = req.skip;
  }

  const pacer = new Pacer(req.signal);
  while (stack.length) {
    if (pacer.due()) {
      await pacer.pause();
    }
    const folder = stack[stack.length - 1];
    const at = folder.iter.next();
    if (at === undefined) {
      stack.pop();
      continue;
    }
    const item = folder.item(at);
    const rel = folder.rel ? `${folder.rel}/${item.name}` : item.name;
    const expandable = (item.type === 'directory' && !item.submodule) && folder.depth < req.depth;
    if (after !== undefined) {
      const c = comparePaths(rel, after);
      if (c <= 0) {
        // at or before the cursor: nothing to show, but the cursor may lie inside it
        if (expandable && (c === 0 || after.startsWith(`${rel}/`)) && !isGitName(item.name)) {
          const v = await ignore.check(folder, rel, true);
          if (v !== 'ignore') {
            const sub = await open(rel, folder.depth + 1, folder.frame, undefined, v === 'tracked-inside');
            if (sub) {
              stack.push(sub);
            }
          }
        }
        continue;
      }
    }
    let entry = entryOf(item, rel, folder, ignore, req);
    if (entry === 'tracked?') {
      await ignore.load();
      entry = entryOf(item, rel, folder, ignore, req);
    }
    if (entry === 'tracked?') {
      continue;
    }
    if (entry === 'skip') {
      continue;
    }
    if (entry === 'hidden' || entry === 'ignored-file') {
      if (inPage) {
        if (entry === 'hidden') {
          pending.hidden++;
        } else {
          pending.ignoredFiles++;
          if (pending.ignoredNames.length < MAX_IGNORED_EXAMPLES) {
            pending.ignoredNames.push(rel);
          }
        }
      }
      continue;
    }
    // An entry: before the page, on it, or the one that proves more follow.
    if (after === undefined && index < req.skip) {
      index++;
      if (index === req.skip) {
        inPage = true;
      }
    } else if (page.entries.length >= req.limit || (page.entries.length > 0 && bytes + req.lineBytes(entry) > req.maxBytes)) {
      page.more = true;
      page.stop = page.entries.length >= req.limit ? 'limit' : 'bytes';
      break;
    } else {
      if (item.type === 'symlink') {
        entry.target = await src.readLink(rel);
      }
      page.entries.push(entry);
      page.leftOutBefore.push(pending);
      pending = { ignoredFiles: 0, ignoredNames: [], hidden: 0 };
      bytes += req.lineBytes(entry);
      index++;
    }
    if (expandable && !entry.ignored && !entry.gitDir) {
      const sub = await open(rel, folder.depth + 1, folder.frame, entry, entry.onlyTracked === true);
      if (sub) {
        stack.push(sub);
      }
    }
  }
  if (!page.more) {
    page.total = index;
    page.leftOutAfter = pending;
  }
  return page;
}
