import * as fsSync from 'node:fs';
import { constants as fsConstants } from 'node:fs';
import * as fs from 'node:fs/promises';
import { STREAM_CHUNK_BYTES } from '../core/limits';
import type { OpenedFile, OpenOptions } from '../core/file';
import { realpathNative } from './realpath';
import { PROC_FD_PATHS } from './procfs';

type Stats = Pick<fsSync.Stats, 'isFile' | 'isDirectory' | 'size' | 'mtimeMs' | 'dev' | 'ino'>;

function typeOf(s: Stats): OpenedFile['type'] {
  return s.isFile() ? 'file' : s.isDirectory() ? 'directory' : 'other';
}

/**
 * The calls opening a local file takes, on a handle `H`: node's promises (a FileHandle,
 * each call a round trip through the thread pool, so the thread is never held), or its
 * synchronous calls on a descriptor (see {@link openLocalFileNow}).
 */
interface OpenIo<H> {
  open(path: string, flags: number): Promise<H>;
  fd(h: H): number;
  fstat(h: H): Promise<Stats>;
  read(h: H, buf: Uint8Array, offset: number, length: number, position: number): Promise<number>;
  close(h: H): Promise<void>;
  readlink(path: string): Promise<string>;
  realpath(path: string): Promise<string>;
  stat(path: string): Promise<Stats>;
}

const PROMISES_IO: OpenIo<fs.FileHandle> = {
  open: (path, flags) => fs.open(path, flags),
  fd: (h) => h.fd,
  fstat: (h) => h.stat(),
  read: async (h, buf, offset, length, position) => (await h.read(buf, offset, length, position)).bytesRead,
  close: (h) => h.close(),
  readlink: (path) => fs.readlink(path),
  realpath: (path) => fs.realpath(path),
  stat: (path) => fs.stat(path),
};

const SYNC_IO: OpenIo<number> = {
  open: async (path, flags) => fsSync.openSync(path, flags),
  fd: (h) => h,
  fstat: async (h) => fsSync.fstatSync(h),
  read: async (h, buf, offset, length, position) => fsSync.readSync(h, buf, offset, length, position),
  close: async (h) => fsSync.closeSync(h),
  readlink: async (path) => fsSync.readlinkSync(path),
  realpath: async (path) => realpathNative(path),
  stat: async (path) => fsSync.statSync(path),
};

/**
 * The real path of what a descriptor holds. Linux tells it (`/proc/self/fd`), exactly,
 * whatever the path did meanwhile. Elsewhere the path is resolved again and taken only
 * when it names the same file (device and inode) as the descriptor.
 */
async function descriptorPath<H>(io: OpenIo<H>, h: H, path: string, st: Stats): Promise<string | undefined> {
  if (PROC_FD_PATHS) {
    try {
      const p = await io.readlink(`/proc/self/fd/${io.fd(h)}`);
      return p.endsWith(' (deleted)') ? undefined : p;
    } catch {
      // no /proc: fall through
    }
  }
  try {
    const real = await io.realpath(path);
    const again = await io.stat(real);
    return again.dev === st.dev && again.ino === st.ino ? real : undefined;
  } catch {
    return undefined;
  }
}

async function openWith<H>(io: OpenIo<H>, path: string, opts: OpenOptions): Promise<OpenedFile | undefined> {
  let h: H;
  try {
    h = await io.open(path, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0) | (opts.noFollow ? (fsConstants.O_NOFOLLOW ?? 0) : 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      return undefined;
    }
    if (code === 'EISDIR') {
      // Windows cannot open a folder for reading: describe it from its path.
      const st = await io.stat(path);
      return { type: 'directory', size: st.size, mtimeMs: st.mtimeMs, realPath: await io.realpath(path), read: async () => new Uint8Array(0), stream: async function* () {}, close: async () => {} };
    }
    throw e;
  }
  let st: Stats;
  let realPath: string | undefined;
  try {
    st = await io.fstat(h);
    realPath = await descriptorPath(io, h, path, st);
  } catch (e) {
    await io.close(h);
    throw e;
  }
  // a raw descriptor's number is reused once closed: a closed handle reads nothing and closes nothing
  let closed = false;
  const open = (): void => {
    if (closed) {
      throw Object.assign(new Error('EBADF: the file is closed'), { code: 'EBADF' });
    }
  };
  return {
    type: typeOf(st),
    size: st.size,
    mtimeMs: st.mtimeMs,
    realPath,
    async read(position, length) {
      open();
      // Not zero-filled: a whole file is read with a chunk to spare (see readWholeUpTo), and
      // clearing it cost more than the read. Only bytes read leave: a short read is copied
      // out, so what the memory held before never does.
      const buf = Buffer.allocUnsafe(Math.max(0, length));
      let got = 0;
      while (got < length) {
        const bytesRead = await io.read(h, buf, got, length - got, position + got);
        if (bytesRead === 0) {
          break;
        }
        got += bytesRead;
      }
      return got === length ? buf : Uint8Array.prototype.slice.call(buf, 0, got);
    },
    async readInto(target, position, length) {
      open();
      return io.read(h, target, 0, Math.min(length, target.length), position);
    },
    // Positioned reads of our own, not a ReadStream: one left early (a page ends before the
    // file does) closes its FileHandle a moment later, under a scan still reading through it.
    async *stream(start = 0) {
      for (let position = start; ; ) {
        open();
        const chunk = Buffer.allocUnsafe(STREAM_CHUNK_BYTES);
        const got = await io.read(h, chunk, 0, chunk.length, position);
        if (got === 0) {
          return;
        }
        position += got;
        // a short read is copied out: only bytes read leave
        yield got === chunk.length ? chunk : Uint8Array.prototype.slice.call(chunk, 0, got);
      }
    },
    async close() {
      if (!closed) {
        closed = true;
        await io.close(h);
      }
    },
  };
}

/**
 * Opens a local file or folder for reading. O_NONBLOCK keeps a FIFO from holding the
 * open until a writer comes (it has no effect on regular files); nothing is read here.
 * With `noFollow`, a final symbolic link is refused (ELOOP) instead of followed.
 */
export function openLocalFile(path: string, opts: OpenOptions = {}): Promise<OpenedFile | undefined> {
  return openWith(PROMISES_IO, path, opts);
}

/**
 * {@link openLocalFile} through node's synchronous calls: for the CLI,
 * which runs one call at a time and holds no editor's thread. Opening, checking and
 * reading a small file is a few microseconds of system calls, and a round trip through
 * the thread pool for each cost more than the call itself (a patch of 200 files spent
 * 55 ms loading them, 2 ms of it reading).
 */
export function openLocalFileNow(path: string, opts: OpenOptions = {}): Promise<OpenedFile | undefined> {
  return openWith(SYNC_IO, path, opts);
}
