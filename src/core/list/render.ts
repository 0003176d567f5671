import { continueLine, printable, shownPhrase } from '../contract';
import { plural } from '../format';
import { MAX_LIST_NAME_CHARS } from '../limits';
import { leftOutUpTo, type ListEntry, type ListPage } from './walk';

/**
 * A name as one printable line: escaped as every tool prints names (see printable: a
 * newline in a file name would read as a second entry), and a name longer than the cap
 * cut at a character boundary with a mark.
 */
export function printableName(name: string, max = MAX_LIST_NAME_CHARS): string {
  let s = printable(name);
  if (s.length > max) {
    let end = max;
    const c = s.charCodeAt(end - 1);
    if (c >= 0xd800 && c <= 0xdbff) {
      end--;
    }
    s = `${s.slice(0, end)}… [name cut: ${name.length} characters]`;
  }
  return s;
}

/** One entry line: two spaces per level, `/` folder, `@` symlink (with its target), `?` other. */
export function entryLine(e: ListEntry): string {
  const indent = '  '.repeat(e.depth - 1);
  const name = printableName(e.name);
  if (e.type === 'directory') {
    const note = e.gitDir ? ' (not listed)' : e.ignored ? ' (ignored)' : e.submodule ? ' (submodule)' : e.unreadable ? ` (unreadable: ${e.unreadable})` : '';
    return `${indent}${name}/${note}`;
  }
  if (e.type === 'symlink') {
    return `${indent}${name}@${e.target !== undefined ? ` -> ${printableName(e.target)}` : ''}`;
  }
  return e.type === 'other' ? `${indent}${name}?` : `${indent}${name}`;
}

export interface ListingView {
  /** The folder as the other tools print paths: workspace-relative ("." for a root), else absolute. */
  displayPath: string;
  absolutePath: string;
  page: ListPage;
  /** Entries of the page shown (fewer than the page's when a token budget cut it). */
  shown: number;
  /** Entries shown by earlier pages (the number of the first entry here, minus one). */
  before: number;
  /** Whole-listing total, when known. */
  total: number | undefined;
  /** The exact call that continues, when more follow. */
  continueCall?: string;
  /** Whether ignore files and settings applied (`respect_ignore`); the call's own globs always do. @default true */
  respectIgnore?: boolean;
  /** Whether the call gave `ignore` globs. */
  callGlobs?: boolean;
}

/** Who left entries out, and how to bring back what can be: only what `respect_ignore: false` would show is offered. */
function leftOutNote(v: ListingView, what: string): string {
  if (v.respectIgnore === false) {
    return `Left out by your "ignore" globs: ${what}.`;
  }
  if (v.callGlobs) {
    return `Left out by ignore rules and your "ignore" globs: ${what}. Add "respect_ignore": false to include what the rules left out.`;
  }
  return `Left out by ignore rules: ${what}. Add "respect_ignore": false to include them.`;
}

/** "Folder src (/work/app/src)": the path to join entries to, and where it is on disk. */
function folderHeader(v: ListingView): string {
  return v.displayPath === v.absolutePath ? `Folder ${v.displayPath}` : `Folder ${v.displayPath} (${v.absolutePath})`;
}

/**
 * The listing text: a header naming the folder (entries are relative to it) and what the
 * page shows, the entries (a continued page first repeats the folders it continues,
 * marked, so every entry's place in the tree stays readable), notes about entries left
 * out (only when some were), and the call that continues.
 */
export function renderListing(v: ListingView): string {
  const { page } = v;
  const entries = page.entries.slice(0, v.shown);
  const n = entries.length;
  const more = page.more || n < page.entries.length;
  let status: string;
  if (n === 0) {
    status = v.before > 0 ? 'no entries after that point' : 'empty';
  } else if (!more && v.before === 0) {
    status = `${plural(n, 'entry', 'entries')}, all shown`;
  } else {
    status = `entries ${shownPhrase(v.before + 1, v.before + n, more, v.total)}`;
  }
  const out = [`${folderHeader(v)}: ${status}`];
  const first = entries[0];
  if (first && first.depth > 1) {
    const parts = first.rel.split('/');
    for (let d = 1; d < first.depth; d++) {
      out.push(`${'  '.repeat(d - 1)}${printableName(parts[d - 1])}/ (continued)`);
    }
  }
  for (const e of entries) {
    out.push(entryLine(e));
  }
  const left = leftOutUpTo(page, n);
  if (left.ignoredFolders || left.ignoredFiles) {
    const what: string[] = [];
    if (left.ignoredFolders) {
      what.push(`${plural(left.ignoredFolders, 'folder')} shown collapsed`);
    }
    if (left.ignoredFiles) {
      // named, as fs_grep names what it did not search: a few, then how many more
      const names = left.ignoredNames.map((n) => printableName(n)).join(', ');
      const more = left.ignoredFiles - left.ignoredNames.length;
      what.push(`${plural(left.ignoredFiles, 'file')} not shown (${names}${more > 0 ? ` and ${more} more` : ''})`);
    }
    out.push(leftOutNote(v, what.join(', ')));
  }
  if (left.hidden) {
    out.push(`Left out as hidden (names starting with "."): ${plural(left.hidden, 'entry', 'entries')}. Add "include_hidden": true to include them.`);
  }
  if (more && v.continueCall) {
    out.push(continueLine(v.continueCall));
  }
  return out.join('\n');
}
