import { constants as fsConstants } from 'node:fs';
import * as fs from 'node:fs/promises';
import { STREAM_CHUNK_BYTES } from '../core/limits';
import type { OpenedFile, OpenOptions } from '../core/file';

type Stats = Awaited<ReturnType<fs.FileHandle['stat']>>;

function typeOf(s: Stats): OpenedFile['type'] {
  return s.isFile() ? 'file' : s.isDirectory() ? 'directory' : 'other';
}

/**
 * The real path of what a descriptor holds. Linux tells it (`/proc/self/fd`), exactly,
 * whatever the path did meanwhile. Elsewhere the path is resolved again and taken only
 * when it names the same file (device and inode) as the descriptor.
 */
async function descriptorPath(fh: fs.FileHandle, path: string, st: Stats): Promise<string | undefined> {
  if (process.platform === 'linux') {
    try {
      const p = await fs.readlink(`/proc/self/fd/${fh.fd}`);
      return p.endsWith(' (deleted)') ? undefined : p;
    } catch {
      // no /proc: fall through
    }
  }
  try {
    const real = await fs.realpath(path);
    const again = await fs.stat(real);
    return again.dev === st.dev && again.ino === st.ino ? real : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Opens a local file or folder for reading. O_NONBLOCK keeps a FIFO from holding the
 * open until a writer comes (it has no effect on regular files); nothing is read here.
 * With `noFollow`, a final symbolic link is refused (ELOOP) instead of followed.
 */
export async function openLocalFile(path: string, opts: OpenOptions = {}): Promise<OpenedFile | undefined> {
  let fh: fs.FileHandle;
  try {
    fh = await fs.open(path, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0) | (opts.noFollow ? (fsConstants.O_NOFOLLOW ?? 0) : 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      return undefined;
    }
    if (code === 'EISDIR') {
      // Windows cannot open a folder for reading: describe it from its path.
      const st = await fs.stat(path);
      return { type: 'directory', size: st.size, mtimeMs: st.mtimeMs, realPath: await fs.realpath(path), read: async () => new Uint8Array(0), stream: async function* () {}, close: async () => {} };
    }
    throw e;
  }
  let st: Stats;
  let realPath: string | undefined;
  try {
    st = await fh.stat();
    realPath = await descriptorPath(fh, path, st);
  } catch (e) {
    await fh.close();
    throw e;
  }
  return {
    type: typeOf(st),
    size: st.size,
    mtimeMs: st.mtimeMs,
    realPath,
    async read(position, length) {
      // Not zero-filled: a whole file is read with a chunk to spare (see readWholeUpTo), and
      // clearing it cost more than the read. Only bytes read leave: a short read is copied
      // out, so what the memory held before never does.
      const buf = Buffer.allocUnsafe(Math.max(0, length));
      let got = 0;
      while (got < length) {
        const { bytesRead } = await fh.read(buf, got, length - got, position + got);
        if (bytesRead === 0) {
          break;
        }
        got += bytesRead;
      }
      return got === length ? buf : Uint8Array.prototype.slice.call(buf, 0, got);
    },
    async readInto(target, position, length) {
      const { bytesRead } = await fh.read(target, 0, Math.min(length, target.length), position);
      return bytesRead;
    },
    stream(start = 0) {
      return fh.createReadStream({ start, highWaterMark: STREAM_CHUNK_BYTES, autoClose: false, emitClose: false });
    },
    close: () => fh.close(),
  };
}
