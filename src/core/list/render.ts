import { formatCount, plural } from '../format';
import { MAX_LIST_NAME_CHARS } from '../limits';
import type { ListEntry, ListPage } from './walk';

/**
 * A name as one printable line: control characters (a newline in a file name would
 * read as a second entry) are escaped, and a name longer than the cap is cut at a
 * character boundary with a mark.
 */
export function printableName(name: string, max = MAX_LIST_NAME_CHARS): string {
  // eslint-disable-next-line no-control-regex
  let s = name.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  if (s.length > max) {
    let end = max;
    const c = s.charCodeAt(end - 1);
    if (c >= 0xd800 && c <= 0xdbff) {
      end--;
    }
    s = `${s.slice(0, end)}… [name cut: ${formatCount(name.length)} characters]`;
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
  absolutePath: string;
  page: ListPage;
  /** Entries shown by earlier pages (the number of the first entry here, minus one). */
  before: number;
  /** Whole-listing total, when known. */
  total: number | undefined;
  /** The exact call that continues, when more follow. */
  continueCall?: string;
  /** Offset form of the same continuation. */
  continueOffset?: number;
  /** The rule sources in effect, for the hint about ignored entries. */
  ignoreSources: string;
  respectIgnore: boolean;
}

/**
 * The listing text: header, entries (a continued page first repeats the folders it
 * continues, marked, so every entry's place in the tree stays readable), then a footer
 * with what was shown, what ignore rules hid on this page and the call that continues.
 */
export function renderListing(v: ListingView): string {
  const { page } = v;
  const out = [`Absolute path: ${v.absolutePath}`];
  const first = page.entries[0];
  if (first && first.depth > 1) {
    const parts = first.rel.split('/');
    for (let d = 1; d < first.depth; d++) {
      out.push(`${'  '.repeat(d - 1)}${printableName(parts[d - 1])}/ (continued)`);
    }
  }
  for (const e of page.entries) {
    out.push(entryLine(e));
  }
  if (page.entries.length === 0) {
    out.push(v.before > 0 ? '(No entries after that point.)' : '(The folder is empty.)');
  }
  out.push('');
  const n = page.entries.length;
  const range = n ? `entries ${formatCount(v.before + 1)}–${formatCount(v.before + n)}` : 'no entries';
  const total = v.total !== undefined ? ` of ${formatCount(v.total)}` : page.more ? '; more follow (total not counted, to answer fast)' : '';
  const notes: string[] = [];
  if (page.ignoredFolders || page.ignoredFiles) {
    const what: string[] = [];
    if (page.ignoredFolders) {
      what.push(`${plural(page.ignoredFolders, 'folder')} shown collapsed`);
    }
    if (page.ignoredFiles) {
      what.push(`${plural(page.ignoredFiles, 'file')} not shown`);
    }
    notes.push(`Skipped by ignore rules (${v.ignoreSources}): ${what.join(', ')}; add "respect_ignore": false to see them.`);
  } else if (v.respectIgnore) {
    notes.push('Skipped by ignore rules: none.');
  }
  if (page.hiddenSkipped) {
    notes.push(`Hidden entries (names starting with "."): ${formatCount(page.hiddenSkipped)} not shown; add "include_hidden": true to see them.`);
  }
  out.push(`(Showing ${range}${total}. ${notes.join(' ')})`.replace(/\. \)$/, '.)'));
  if (page.more && v.continueCall) {
    const shown = v.before + n;
    const head =
      page.stop === 'bytes'
        ? `The page reached the 64 KiB output cap after entry ${formatCount(shown)}`
        : page.stop === 'budget'
          ? `The page was cut after entry ${formatCount(shown)} to fit this call's token budget`
          : `More than ${formatCount(shown)} entries`;
    const alt = v.continueOffset !== undefined ? ` (or "offset": ${v.continueOffset} in place of "cursor")` : '';
    out.push(`${head}; continue with: ${v.continueCall}${alt}`);
  }
  return out.join('\n');
}
