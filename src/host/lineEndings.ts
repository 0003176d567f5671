import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { NEW_FILE_EOL_FOLDERS_UP, NEW_FILE_EOL_SAMPLE_BYTES, NEW_FILE_EOL_SAMPLE_FILES } from '../core/limits';

/** The first line break of a file's first bytes, or undefined (none, or not text). */
function firstBreak(file: string): 'LF' | 'CRLF' | undefined {
  let fd: number | undefined;
  try {
    // a FIFO is never waited on, a link never followed (the entry was a regular file when listed)
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOFOLLOW ?? 0));
    const buf = Buffer.alloc(NEW_FILE_EOL_SAMPLE_BYTES);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    const head = buf.subarray(0, n);
    if (head.includes(0)) {
      return undefined;
    }
    const lf = head.indexOf(10);
    return lf < 0 ? undefined : lf > 0 && head[lf - 1] === 13 ? 'CRLF' : 'LF';
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) {
      fs.closeSync(fd);
    }
  }
}

/** The line ending most text files of one folder start with; undefined on a tie or without any. */
function majorityIn(dir: string): 'LF' | 'CRLF' | undefined {
  let d: fs.Dir | undefined;
  let crlf = 0;
  let lf = 0;
  try {
    d = fs.opendirSync(dir, { bufferSize: 64 });
    let asked = 0;
    for (let e = d.readSync(); e && asked < NEW_FILE_EOL_SAMPLE_FILES; e = d.readSync()) {
      if (!e.isFile()) {
        continue;
      }
      asked++;
      const b = firstBreak(nodePath.join(dir, e.name));
      crlf += b === 'CRLF' ? 1 : 0;
      lf += b === 'LF' ? 1 : 0;
    }
  } catch {
    return undefined;
  } finally {
    try {
      d?.closeSync();
    } catch {
      // closed already
    }
  }
  return crlf > lf ? 'CRLF' : lf > crlf ? 'LF' : undefined;
}

/**
 * The line ending a new file at `file` takes from its neighbours: the one most text files
 * of its folder use (their first line break, a few kilobytes of a few dozen files), else
 * of the folder above, up to {@link NEW_FILE_EOL_FOLDERS_UP} folders and never above `stop`
 * (the workspace folder); undefined when none says. A repository checked out with CRLF on
 * Windows gets CRLF files, one of LF files LF, whatever the platform.
 */
export function neighboursEol(file: string, stop: string | undefined): 'LF' | 'CRLF' | undefined {
  let dir = nodePath.dirname(file);
  for (let up = 0; up <= NEW_FILE_EOL_FOLDERS_UP; up++) {
    const found = majorityIn(dir);
    if (found) {
      return found;
    }
    const parent = nodePath.dirname(dir);
    if (dir === stop || parent === dir) {
      return undefined;
    }
    dir = parent;
  }
  return undefined;
}
