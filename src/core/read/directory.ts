import { ToolError } from '../errors';
import { readPageCall } from './render';
import { continueLine, span } from '../contract';
import { plural } from '../format';
import { MAX_DIR_ENTRIES, MAX_READ_BYTES, MAX_READ_LINES } from '../limits';
import { compareNames } from '../list/order';
import { printableName } from '../list/render';

/**
 * fs_read on a folder: its entries, one level, sorted, paged by offset/limit over
 * entries, in the spec's directory envelope. A model that reads a folder by mistake
 * still gets a useful answer, and fs_list stays the tool for trees.
 */

export type DirectoryEntryType = 'file' | 'directory' | 'symlink' | 'other';

export interface DirectoryEntry {
  name: string;
  /** The entry's own type: a symlink is "symlink", not followed. */
  type: DirectoryEntryType;
}

/** What a bounded read of a folder got. */
export interface DirectoryRead {
  entries: DirectoryEntry[];
  /** False when the folder holds more than {@link MAX_DIR_ENTRIES} and reading stopped there. */
  complete: boolean;
}

/**
 * Reads at most `max` entries from a folder listing (the file system's order) and
 * notes whether there were more; stops pulling from `source` as soon as it knows.
 */
export async function readDirectoryBounded(
  source: AsyncIterable<DirectoryEntry> | Iterable<DirectoryEntry>,
  max: number = MAX_DIR_ENTRIES,
): Promise<DirectoryRead> {
  const entries: DirectoryEntry[] = [];
  for await (const e of source) {
    if (entries.length >= max) {
      return { entries, complete: false };
    }
    entries.push(e);
  }
  return { entries, complete: true };
}

export interface DirectoryPageOptions {
  /** Workspace-relative path with "/" (absolute outside the workspace). */
  displayPath: string;
  /** The folder's entries, in any order: they are sorted here. */
  entries: readonly DirectoryEntry[];
  /**
   * False when the entries are only the first {@link MAX_DIR_ENTRIES} of a larger folder.
   * @default true
   */
  complete?: boolean;
  /**
   * 1-based first entry.
   * @default 1
   */
  offset?: number;
  /**
   * Entries wanted; never more than {@link MAX_READ_LINES}.
   * @default MAX_READ_LINES
   */
  limit?: number;
  /**
   * UTF-8 bytes of entry lines allowed; never more than {@link MAX_READ_BYTES}.
   * @default MAX_READ_BYTES
   */
  maxBytes?: number;
  /** The fs_read call that shows the page starting at an entry. @default the path shown, at that offset */
  nextCall?(offset: number): string;
}

export interface DirectoryPage {
  text: string;
  /** Entries read (all of them when `complete`). */
  total: number;
  first?: number;
  last?: number;
  /** Set when entries remain after the page: the offset that continues. */
  nextOffset?: number;
  stop?: 'limit' | 'bytes';
}

/** `name/` for a folder, `name@` for a symlink, `name?` for a socket or device, as fs_list writes them. */
export function directoryEntryLine(e: DirectoryEntry): string {
  const name = printableName(e.name);
  return e.type === 'directory' ? `${name}/` : e.type === 'symlink' ? `${name}@` : e.type === 'other' ? `${name}?` : name;
}

/**
 * The directory envelope:
 *
 * ```
 * <path>src</path>
 * <type>directory</type>
 * <meta>entries 1-3 of 3</meta>
 * <entries>
 * app.ts
 * lib/
 * latest@
 * </entries>
 * End of folder.
 * ```
 *
 * Entries sort by UTF-16 code units, folders and files mixed, so the order is the
 * same on every machine. A cut page ends with the call that continues.
 */
export function renderDirectory(opts: DirectoryPageOptions): DirectoryPage {
  const complete = opts.complete ?? true;
  const sorted = [...opts.entries].sort((a, b) => compareNames(a.name, b.name));
  const total = sorted.length;
  const offset = opts.offset ?? 1;
  const limit = Math.min(opts.limit ?? MAX_READ_LINES, MAX_READ_LINES);
  if (!Number.isInteger(offset) || offset < 1 || !Number.isInteger(limit) || limit < 1) {
    throw new ToolError('invalid-input', `offset and limit count entries in a folder and must be whole numbers, 1 or more; got offset=${offset}, limit=${limit}.`);
  }
  if (offset > Math.max(total, 1)) {
    throw new ToolError(
      'offset-past-end',
      `offset=${offset} is past the end of ${opts.displayPath}: the folder has ${complete ? '' : 'more than '}${plural(total, 'entry', 'entries')}${complete ? '' : ' (only that many are read)'}. Use an offset from 1 to ${Math.max(total, 1)}.`,
    );
  }
  const maxBytes = Math.min(opts.maxBytes ?? MAX_READ_BYTES, MAX_READ_BYTES);
  const lines: string[] = [];
  let bytes = 0;
  let next = offset;
  let stop: DirectoryPage['stop'];
  for (; next <= total; next++) {
    if (lines.length >= limit) {
      stop = 'limit';
      break;
    }
    const line = directoryEntryLine(sorted[next - 1]);
    const size = Buffer.byteLength(line, 'utf8') + 1;
    if (lines.length > 0 && bytes + size > maxBytes) {
      stop = 'bytes';
      break;
    }
    lines.push(line);
    bytes += size;
  }
  const first = lines.length > 0 ? offset : undefined;
  const last = lines.length > 0 ? next - 1 : undefined;
  const more = next <= total;

  const range = first === undefined ? 'empty folder' : `${first === last ? 'entry' : 'entries'} ${span(first, last!)} of ${complete ? total : `the first ${total} read`}`;
  const out = [`<path>${opts.displayPath}</path>`, '<type>directory</type>', `<meta>${range}</meta>`, '<entries>', ...lines, '</entries>'];
  if (!complete && !more) {
    out.push(
      `The folder holds more than ${total} entries; only the first ${total} the file system gave were read and sorted, so entries are missing. ` +
        'Use fs_glob with a pattern to find the ones you need, or fs_list on a narrower folder.',
    );
  }
  out.push(more ? continueLine((opts.nextCall ?? readPageCall(opts.displayPath))(next)) : complete ? 'End of folder.' : 'End of the entries read.');
  return { text: out.join('\n'), total, first, last, nextOffset: more ? next : undefined, stop: more ? stop : undefined };
}
