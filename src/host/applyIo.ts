import * as fs from 'node:fs';
import { realpathNative } from './realpath';

// The disk operations a change uses, as one seam: a test fails them one by one (see
// applyDisk.ts for what is done with them and how each is undone).

/** What a change needs to know of a file or folder it opened or looked at. */
export interface ApplyStat {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  mode: number;
  uid: number;
  gid: number;
  nlink: number;
  ino: number;
  dev: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

export interface ApplyHandle {
  readonly fd: number;
  stat(): Promise<ApplyStat>;
  readFile(): Promise<Uint8Array>;
  writeFile(data: Uint8Array): Promise<void>;
  truncate(len: number): Promise<void>;
  chmod(mode: number): Promise<void>;
  chown(uid: number, gid: number): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Every file operation a change makes, so that a test can put a layer between the change
 * and the disk that fails the k-th of them (the way SQLite's I/O-error tests do) and check
 * that no failure anywhere loses data. Production uses node:fs as it is.
 */
export interface ApplyIo {
  open(p: string, flags: number, mode?: number): Promise<ApplyHandle>;
  readlink(p: string): Promise<string>;
  realpath(p: string): Promise<string>;
  lstat(p: string): Promise<ApplyStat>;
  rename(from: string, to: string): Promise<void>;
  link(existing: string, to: string): Promise<void>;
  unlink(p: string): Promise<void>;
  mkdir(p: string): Promise<unknown>;
  rmdir(p: string): Promise<void>;
}

/**
 * A descriptor opened by NODE_APPLY_IO: each call is the synchronous node:fs call on it.
 * Writes start where the descriptor is, as FileHandle's do: at 0 for a fresh one.
 */
class SyncHandle implements ApplyHandle {
  constructor(readonly fd: number) {}
  async stat(): Promise<ApplyStat> {
    return fs.fstatSync(this.fd);
  }
  async readFile(): Promise<Uint8Array> {
    return fs.readFileSync(this.fd);
  }
  async writeFile(data: Uint8Array): Promise<void> {
    fs.writeFileSync(this.fd, data);
  }
  async truncate(len: number): Promise<void> {
    fs.ftruncateSync(this.fd, len);
  }
  async chmod(mode: number): Promise<void> {
    fs.fchmodSync(this.fd, mode);
  }
  async chown(uid: number, gid: number): Promise<void> {
    fs.fchownSync(this.fd, uid, gid);
  }
  sync(): Promise<void> {
    // through the thread pool, unlike the rest: it waits on the disk, not on us, and the
    // syncs of a change's files then run at once (see SyncQueue)
    return new Promise((resolve, reject) => fs.fsync(this.fd, (e) => (e ? reject(e) : resolve())));
  }
  async close(): Promise<void> {
    fs.closeSync(this.fd);
  }
}

/**
 * node:fs as it is, through its synchronous calls: a change makes about a hundred small
 * operations per file, each microseconds on a local disk, and a round trip through the
 * thread pool for each cost more than the operation itself (a patch of 200 files spent
 * most of a second waiting on them). Only the CLI's workspace applies through this, one
 * call at a time; each call still returns a promise that rejects with node's error, so
 * a layer between (a test's faults) sees the same seam. fsync is the exception (see
 * SyncHandle.sync).
 */
export const NODE_APPLY_IO: ApplyIo = {
  open: async (p, flags, mode) => new SyncHandle(fs.openSync(p, flags, mode)),
  readlink: async (p) => fs.readlinkSync(p),
  realpath: async (p) => realpathNative(p),
  lstat: async (p) => fs.lstatSync(p),
  rename: async (from, to) => fs.renameSync(from, to),
  link: async (existing, to) => fs.linkSync(existing, to),
  unlink: async (p) => fs.unlinkSync(p),
  mkdir: async (p) => fs.mkdirSync(p),
  rmdir: async (p) => fs.rmdirSync(p),
};

/**
 * Whether the file at `file` holds `bytes`. A volume that caches attributes (a network or FUSE
 * mount, for a second by default) answers a name's stat from before a link or a write made
 * through another name, so its times and link count cannot say that the file is unchanged
 * there; its bytes, read through a fresh descriptor, can: a file with the same bytes loses
 * nothing when it is replaced.
 */
export async function holdsBytes(io: ApplyIo, file: string, bytes: Uint8Array): Promise<boolean> {
  let fh: ApplyHandle;
  try {
    fh = await io.open(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | (fs.constants.O_NONBLOCK ?? 0));
  } catch {
    return false;
  }
  try {
    const st = await fh.stat();
    return st.isFile() && Buffer.compare(Buffer.from(await fh.readFile()), Buffer.from(bytes)) === 0;
  } finally {
    await fh.close();
  }
}
