import * as nodePath from 'node:path';
import { readRegularFile, type FileOpener } from '../file';
import { MAX_GIT_INDEX_BYTES } from '../limits';

/**
 * The files git tracks, read from the repository's index file rather than by running
 * git: git honours the repository's own config, and `core.fsmonitor` there runs a
 * command of the repository's choosing on `git ls-files`. Reading the index runs
 * nothing, whatever the workspace holds, and so works in an untrusted workspace too.
 *
 * The index (`.git/index`, gitformat-index(5)), versions 2 to 4:
 *
 * ```
 * index   := "DIRC" version:u32 count:u32 entry{count} extension* checksum
 * entry   := ctime:8 mtime:8 dev:4 ino:4 mode:u32 uid:4 gid:4 size:4 oid:(20|32)
 *            flags:u16 [xflags:u16 when flags & 0x4000 (v3+)] name
 * name    := v2, v3: path NUL, NUL-padded so the entry is a multiple of 8 bytes
 *            v4:     varint(bytes to drop from the previous path's end) suffix NUL
 * extension := signature:4 size:u32 data{size}
 * ```
 *
 * A split index ("link" extension: the entries live in a shared file and bitmaps) and a
 * sparse index (folder entries, "sdir") are not read here: {@link UnsupportedIndex}.
 */

export interface IndexEntry {
  /** 0o100644, 0o100755 (files), 0o120000 (symlink), 0o160000 (submodule). */
  mode: number;
  /** Relative to the work tree, "/"-separated. */
  path: string;
}

/** An index this reader cannot read; `feature` names what it uses. */
export class UnsupportedIndex extends Error {
  constructor(readonly feature: string) {
    super(`the git index uses ${feature}`);
  }
}

/** The entries of an index file, in its order (conflicted paths appear once per stage). */
export function parseGitIndex(bytes: Uint8Array, hashBytes: 20 | 32 = 20): IndexEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const need = (n: number, at: number) => {
    if (at + n > bytes.length) {
      throw new UnsupportedIndex('a format that ends early (the file is damaged or still being written)');
    }
  };
  need(12, 0);
  if (String.fromCharCode(bytes[0], bytes[1], bytes[2], bytes[3]) !== 'DIRC') {
    throw new UnsupportedIndex('an unknown format (no DIRC signature)');
  }
  const version = view.getUint32(4);
  if (version < 2 || version > 4) {
    throw new UnsupportedIndex(`version ${version}`);
  }
  const count = view.getUint32(8);
  const decoder = new TextDecoder('utf-8');
  const entries: IndexEntry[] = [];
  let at = 12;
  let previous: Uint8Array = new Uint8Array(0);
  for (let i = 0; i < count; i++) {
    const start = at;
    need(40 + hashBytes + 2, at);
    const mode = view.getUint32(at + 24);
    at += 40 + hashBytes;
    const flags = view.getUint16(at);
    at += 2;
    if (flags & 0x4000) {
      if (version < 3) {
        throw new UnsupportedIndex('extended flags in a version 2 index');
      }
      need(2, at);
      at += 2;
    }
    let name: Uint8Array;
    if (version === 4) {
      need(1, at);
      let c = bytes[at++];
      let drop = c & 127;
      while (c & 128) {
        need(1, at);
        c = bytes[at++];
        drop = ((drop + 1) << 7) | (c & 127);
      }
      const end = bytes.indexOf(0, at);
      if (end < 0 || drop > previous.length) {
        throw new UnsupportedIndex('a damaged path');
      }
      const kept = previous.subarray(0, previous.length - drop);
      name = new Uint8Array(kept.length + end - at);
      name.set(kept, 0);
      name.set(bytes.subarray(at, end), kept.length);
      at = end + 1;
    } else {
      const end = bytes.indexOf(0, at);
      if (end < 0) {
        throw new UnsupportedIndex('a damaged path');
      }
      name = bytes.subarray(at, end);
      // 1 to 8 NUL bytes pad the entry to a multiple of 8
      at = start + Math.ceil((end - start + 1) / 8) * 8;
    }
    previous = name;
    if ((mode & 0o170000) === 0o040000) {
      throw new UnsupportedIndex('a sparse index (folder entries)');
    }
    entries.push({ mode, path: decoder.decode(name) });
  }
  // Extensions: only a split index changes which entries exist.
  while (at + 8 <= bytes.length - hashBytes) {
    const sig = String.fromCharCode(bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]);
    if (sig === 'link') {
      throw new UnsupportedIndex('a split index');
    }
    at += 8 + view.getUint32(at + 4);
  }
  return entries;
}

/** The part of the workspace seam a repository is found and read through. */
export interface RepoHost extends FileOpener {
  stat(path: string): Promise<{ type: string } | undefined>;
  realpath(path: string): Promise<string>;
}

export interface Repository {
  /** Real path of the work tree's top folder. */
  worktree: string;
  /** Real path of the git folder (where the index is). */
  gitDir: string;
  /** Reached through a `.git` file (a linked work tree, a submodule) or a `.git` link, which may point anywhere. */
  linked: boolean;
}

/** Bytes of a `.git` file, config or similar small git file read at most. */
const SMALL_GIT_FILE_BYTES = 64 * 1024;

/** The repository holding `folder` (a real path): the nearest `.git` at or above it, as git finds it. */
export async function findRepository(host: RepoHost, folder: string): Promise<Repository | undefined> {
  for (let dir = folder; ; dir = nodePath.dirname(dir)) {
    const dotGit = nodePath.join(dir, '.git');
    const st = await host.stat(dotGit);
    if (st?.type === 'directory') {
      // A `.git` that is a link may lead anywhere, as a `.git` file may.
      const gitDir = await host.realpath(dotGit);
      return { worktree: dir, gitDir, linked: gitDir !== dotGit };
    }
    if (st?.type === 'file') {
      const f = await readRegularFile(host, dotGit, SMALL_GIT_FILE_BYTES);
      const m = f && /^gitdir:\s*(.+?)\s*$/m.exec(new TextDecoder().decode(f.bytes));
      if (m) {
        return { worktree: dir, gitDir: await host.realpath(nodePath.resolve(dir, m[1])), linked: true };
      }
    }
    if (nodePath.dirname(dir) === dir) {
      return undefined;
    }
  }
}

/** The repository's object id length: SHA-256 repositories say so in their config. */
async function hashBytesOf(host: RepoHost, gitDir: string): Promise<20 | 32> {
  // A linked work tree's own config is in the common git folder.
  const common = await readRegularFile(host, nodePath.join(gitDir, 'commondir'), SMALL_GIT_FILE_BYTES);
  const base = common ? nodePath.resolve(gitDir, new TextDecoder().decode(common.bytes).trim()) : gitDir;
  const config = await readRegularFile(host, nodePath.join(base, 'config'), 1024 * 1024);
  return config && /^\s*objectformat\s*=\s*sha256\s*$/im.test(new TextDecoder().decode(config.bytes)) ? 32 : 20;
}

/**
 * The tracked entries under `folder` (relative to it), read from the index. Throws
 * {@link UnsupportedIndex} for an index this reader does not read, and when the index
 * is too large or missing.
 */
export async function readIndexEntries(host: RepoHost, repo: Repository, folder: string): Promise<IndexEntry[]> {
  const file = await readRegularFile(host, nodePath.join(repo.gitDir, 'index'), MAX_GIT_INDEX_BYTES + 1);
  if (!file) {
    // A fresh repository has no index until something is added.
    return [];
  }
  if (file.size > MAX_GIT_INDEX_BYTES) {
    throw new UnsupportedIndex(`more than ${MAX_GIT_INDEX_BYTES / (1024 * 1024)} MiB of index`);
  }
  const entries = parseGitIndex(file.bytes, await hashBytesOf(host, repo.gitDir));
  const rel = nodePath.relative(repo.worktree, folder).split(nodePath.sep).join('/');
  if (!rel) {
    return entries;
  }
  const prefix = `${rel}/`;
  return entries.filter((e) => e.path.startsWith(prefix)).map((e) => ({ mode: e.mode, path: e.path.slice(prefix.length) }));
}
