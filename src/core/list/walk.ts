import { throwIfCancelled, type CancelSignal } from '../cancel';
import { Pacer } from '../pace';
import type { Frame, Matcher } from '../ignore/rules';
import { IGNORE_FILE_NAMES } from '../ignore/rules';
import { comparePaths, LazySorted } from './order';
import type { ListEntryType } from '../file';
import { isGitName } from '../paths';
import { isGitDirectoryListing } from '../gitDirectory';

export type { ListEntryType };

export interface SourceEntry {
  name: string;
  type: ListEntryType;
  /** A tracked submodule: shown as a folder, never expanded. */
  submodule?: boolean;
}

/** Where a listing's folders come from: the file system, or the files git tracks. */
export interface ListSource {
  /** Entries of a folder given relative to the listed folder ("" for itself). */
  read(rel: string): Promise<SourceEntry[]>;
  /** Where a symlink points, if it can be read. */
  readLink(rel: string): Promise<string | undefined>;
  /** The ignore files of a folder, read into a frame; a source without them returns `parent`. */
  frame(parent: Frame | undefined, rel: string, present: string[]): Promise<Frame | undefined>;
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
  const sum = { ignoredFiles: 0, hidden: 0, ignoredFolders: 0 };
  const n = Math.min(k, page.entries.length);
  for (let i = 0; i < n; i++) {
    sum.ignoredFiles += page.leftOutBefore[i].ignoredFiles;
    sum.hidden += page.leftOutBefore[i].hidden;
    if (page.entries[i].ignored) {
      sum.ignoredFolders++;
    }
  }
  if (n === page.entries.length) {
    sum.ignoredFiles += page.leftOutAfter.ignoredFiles;
    sum.hidden += page.leftOutAfter.hidden;
  }
  return sum;
}

interface OpenFolder {
  rel: string;
  /** Depth of its entries. */
  depth: number;
  frame: Frame | undefined;
  iter: LazySorted<SourceEntry>;
  entry: ListEntry | undefined;
}

/**
 * Opens a folder of the walk: reads its entries and its ignore files' frame. A folder
 * that cannot be read becomes an entry marked unreadable (the top one throws).
 */
async function openFolder(src: ListSource, req: ListRequest, toRoot: (rel: string) => string, rel: string, depth: number, parentFrame: Frame | undefined, entry: ListEntry | undefined): Promise<OpenFolder | undefined> {
  throwIfCancelled(req.signal);
  let items: SourceEntry[];
  try {
    items = await src.read(rel);
  } catch (e) {
    if (!entry) {
      throw e;
    }
    entry.unreadable = (e as NodeJS.ErrnoException).code ?? 'unreadable';
    return undefined;
  }
  if (entry && isGitDirectoryListing(items)) {
    // a repository under another name (`repo.git`, a --separate-git-dir): shown as `.git` is, never walked
    entry.gitDir = true;
    return undefined;
  }
  const present: string[] = [];
  for (const i of items) {
    if (i.name.charCodeAt(0) === 46 && i.type !== 'directory' && (IGNORE_FILE_NAMES as readonly string[]).includes(i.name)) {
      present.push(i.name);
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
  return { rel, depth, frame, iter: new LazySorted(items, lower), entry };
}

/**
 * What one item of a folder is to the listing: an entry (a git folder or an ignored
 * folder marked so), or a file left out as hidden or ignored, or a `.git` pointer file,
 * skipped without a count.
 */
function entryOf(item: SourceEntry, rel: string, folder: OpenFolder, matcher: Matcher, req: ListRequest, toRoot: (rel: string) => string): ListEntry | 'skip' | 'hidden' | 'ignored-file' {
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
  } else if (matcher.match(folder.frame, toRoot(rel), item.type === 'directory').verdict === 'ignore') {
    if (item.type !== 'directory') {
      return 'ignored-file';
    }
    entry.ignored = true;
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
  const page: ListPage = { entries: [], first: 0, more: false, leftOutBefore: [], leftOutAfter: { ignoredFiles: 0, hidden: 0 } };
  // left out since the last entry of the page
  let pending: LeftOut = { ignoredFiles: 0, hidden: 0 };
  const toRoot = (rel: string) => (rootRelOfBase ? (rel ? `${rootRelOfBase}/${rel}` : rootRelOfBase) : rel);
  const after = req.after;
  let index = 0;
  let bytes = 0;
  let inPage = after !== undefined || req.skip === 0;
  const stack: OpenFolder[] = [];

  const open = (rel: string, depth: number, parentFrame: Frame | undefined, entry: ListEntry | undefined) => openFolder(src, req, toRoot, rel, depth, parentFrame, entry);

  const top = await open('', 1, undefined, undefined);
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
    const item = folder.iter.next();
    if (!item) {
      stack.pop();
      continue;
    }
    const rel = folder.rel ? `${folder.rel}/${item.name}` : item.name;
    const expandable = (item.type === 'directory' && !item.submodule) && folder.depth < req.depth;
    if (after !== undefined) {
      const c = comparePaths(rel, after);
      if (c <= 0) {
        // at or before the cursor: nothing to show, but the cursor may lie inside it
        if (expandable && (c === 0 || after.startsWith(`${rel}/`)) && !isGitName(item.name)) {
          const v = matcher.match(folder.frame, toRoot(rel), true).verdict;
          if (v !== 'ignore') {
            const sub = await open(rel, folder.depth + 1, folder.frame, undefined);
            if (sub) {
              stack.push(sub);
            }
          }
        }
        continue;
      }
    }
    const entry = entryOf(item, rel, folder, matcher, req, toRoot);
    if (entry === 'skip') {
      continue;
    }
    if (entry === 'hidden' || entry === 'ignored-file') {
      if (inPage) {
        if (entry === 'hidden') {
          pending.hidden++;
        } else {
          pending.ignoredFiles++;
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
      pending = { ignoredFiles: 0, hidden: 0 };
      bytes += req.lineBytes(entry);
      index++;
    }
    if (expandable && !entry.ignored && !entry.gitDir) {
      const sub = await open(rel, folder.depth + 1, folder.frame, entry);
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
