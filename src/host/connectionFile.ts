import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isWithin } from '../core/paths';
import { nodeOs } from './lazyModules';
import { WINDOWS_PATHS } from './volume';

/**
 * The connection files of running MCP servers: one JSON file per server (per VS Code window,
 * per `agent-file-tools mcp --http`), which a client reads to find the server of its folder
 * and its token.
 *
 * Where: `$AGENT_FILE_TOOLS_MCP_DIR` if set, else `~/.agent-file-tools/mcp`. The folder and its
 * parent are the user's own, mode 0700 (created so, tightened if looser, refused if another
 * user owns them or they are symlinks); each file is 0600, written to a temporary name and
 * renamed, so a reader never sees half a file. A file goes when its server closes, when its
 * process exits, and, after a crash, at the next start of any server, which removes the
 * files of processes that no longer run.
 */

/** What a connection file holds. */
export interface ConnectionInfo {
  /** `http://127.0.0.1:PORT/mcp` */
  url: string;
  /** The bearer token: send `Authorization: Bearer <token>`. */
  token: string;
  port: number;
  /** The process serving it (the window's extension host, or the CLI). */
  pid: number;
  /** The folders its tools work in (absolute paths): a client picks the server whose folder holds its own. */
  workspaceFolders: string[];
  /** The VS Code window's workspace name, or `agent-file-tools mcp`. */
  name: string;
  kind: 'vscode' | 'cli';
  /** ISO time it started. */
  startedAt: string;
}

/** Bytes of a connection file read at most: anything larger is not one of ours. */
const MAX_FILE_BYTES = 64 * 1024;
/** A temporary file older than this is a write that never finished. */
const STALE_TEMP_MS = 60_000;

export function connectionDir(env: NodeJS.ProcessEnv = process.env): string {
  const set = env.AGENT_FILE_TOOLS_MCP_DIR;
  return set && path.isAbsolute(set) ? set : path.join(nodeOs().homedir(), '.agent-file-tools', 'mcp');
}

const ownUid = (): number | undefined => (typeof process.getuid === 'function' ? process.getuid() : undefined);

/** Makes `dir` (and its parent) a folder only the user can open, or throws saying why it cannot be one. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const d of [path.dirname(dir), dir]) {
    const st = fs.lstatSync(d);
    if (st.isSymbolicLink() || !st.isDirectory()) {
      throw new Error(`${d} is not a folder (a symlink or a file); the connection file is not written there`);
    }
    const uid = ownUid();
    if (uid !== undefined && st.uid !== uid) {
      throw new Error(`${d} belongs to another user (uid ${st.uid}); the connection file is not written there`);
    }
    if (!WINDOWS_PATHS && (st.mode & 0o077) !== 0) {
      fs.chmodSync(d, 0o700);
    }
  }
}

/** Writes the server's file atomically (0600, in a private folder); returns its path. */
export function writeConnectionFile(dir: string, info: ConnectionInfo): string {
  ensurePrivateDir(dir);
  const file = path.join(dir, `${info.kind}-${info.pid}-${info.port}.json`);
  const temp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
  const fd = fs.openSync(temp, O_WRONLY | O_CREAT | O_EXCL | (O_NOFOLLOW ?? 0), 0o600);
  try {
    if (!WINDOWS_PATHS) {
      fs.fchmodSync(fd, 0o600);
    }
    fs.writeSync(fd, JSON.stringify(info, null, 2) + '\n');
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(temp, file);
  } catch (e) {
    fs.rmSync(temp, { force: true });
    throw e;
  }
  return file;
}

/** Removes the file if it is still the one this server wrote (its token). */
export function removeConnectionFile(file: string, token: string): void {
  try {
    const info = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<ConnectionInfo>;
    if (info.token === token) {
      fs.rmSync(file, { force: true });
    }
  } catch {
    // gone already, or not ours to remove
  }
}

/** Whether a process runs (one of another user's that runs counts: it cannot be told apart). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The connection files of `dir` a client may trust: regular files (no symlinks) of the user's,
 * readable by no one else, holding a URL and a token, whose process still runs.
 */
export function readConnectionFiles(dir: string, alive: (pid: number) => boolean = processAlive): { file: string; info: ConnectionInfo }[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const out: { file: string; info: ConnectionInfo }[] = [];
  for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
    const file = path.join(dir, name);
    const info = readOne(file);
    if (info && alive(info.pid)) {
      out.push({ file, info });
    }
  }
  return out;
}

function readOne(file: string): ConnectionInfo | undefined {
  try {
    const st = fs.lstatSync(file);
    const uid = ownUid();
    if (!st.isFile() || st.size > MAX_FILE_BYTES || (uid !== undefined && st.uid !== uid) || (!WINDOWS_PATHS && (st.mode & 0o077) !== 0)) {
      return undefined;
    }
    const info = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<ConnectionInfo>;
    return typeof info.url === 'string' && typeof info.token === 'string' && typeof info.pid === 'number' && Array.isArray(info.workspaceFolders) ? (info as ConnectionInfo) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Removes what crashed servers left: files whose process no longer runs, and temporary files
 * of writes that never finished. Returns the files removed.
 */
export function removeStaleConnectionFiles(dir: string, alive: (pid: number) => boolean = processAlive, now = Date.now()): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      if (name.endsWith('.tmp') && name.startsWith('.')) {
        if (now - fs.lstatSync(file).mtimeMs > STALE_TEMP_MS) {
          fs.rmSync(file, { force: true });
          removed.push(file);
        }
        continue;
      }
      const m = /^(?:vscode|cli)-(\d+)-\d+\.json$/.exec(name);
      if (m && !alive(Number(m[1]))) {
        fs.rmSync(file, { force: true });
        removed.push(file);
      }
    } catch {
      // gone meanwhile
    }
  }
  return removed;
}

/** Which server a client in `cwd` should use: the one whose workspace folder holds it most closely (a nested folder wins). */
export function pickConnection(files: readonly { file: string; info: ConnectionInfo }[], cwd: string): { file: string; info: ConnectionInfo } | undefined {
  let best: { file: string; info: ConnectionInfo; depth: number } | undefined;
  for (const f of files) {
    for (const folder of f.info.workspaceFolders) {
      if (isWithin(folder, cwd) && (!best || folder.length > best.depth)) {
        best = { ...f, depth: folder.length };
      }
    }
  }
  return best && { file: best.file, info: best.info };
}
