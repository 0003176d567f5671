// The scheme `aftfault:` over a real folder (AFT_VFS_ROOT), whose k-th mutating operation
// (writeFile, delete, rename, createDirectory) fails, as a full disk, a failing device or a
// missing permission makes it fail. The vfs suite registers it in the extension host before
// its tests run, on a window opened on it as a workspace folder: it is both the fault and
// the proof that the tools work on a virtual workspace.
//
// Registered by the test module, not by an extension of its own: code-server's web client
// takes one extensionDevelopmentPath from the URL payload (the last one named), and the
// workbench asks for the folder's provider again on every call, so a provider registered
// before the first test serves the folder from then on.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

export const SCHEME = 'aftfault';

/** How an operation fails: each as a provider can report it to VS Code. */
export type FaultKind = 'ENOSPC' | 'EIO' | 'EACCES';

/** `once`: only the k-th operation fails. `persistent`: the k-th and every later one fail, as on a disk that stays full. */
export type FaultMode = 'once' | 'persistent';

export interface Arm {
  /** 1-based index of the first mutating operation that fails. */
  k: number;
  kind: FaultKind;
  mode: FaultMode;
}

/** What the provider did since it was last armed. */
export interface OpLog {
  /** Every mutating operation asked for, in order, with whether it failed. */
  ops: { op: string; path: string; failed: boolean }[];
}

function faultFor(kind: FaultKind, uri: vscode.Uri, op: string): Error {
  switch (kind) {
    case 'EACCES':
      return vscode.FileSystemError.NoPermissions(uri);
    case 'EIO':
      return vscode.FileSystemError.Unavailable(uri);
    case 'ENOSPC':
      // a plain error as node:fs raises it: no FileSystemError has a kind for a full disk
      return Object.assign(new Error(`ENOSPC: no space left on device, ${op} '${uri.path}'`), { code: 'ENOSPC', errno: -28, syscall: op });
  }
}

function fsError(e: unknown, uri: vscode.Uri): Error {
  switch ((e as NodeJS.ErrnoException).code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return vscode.FileSystemError.FileNotFound(uri);
    case 'EEXIST':
      return vscode.FileSystemError.FileExists(uri);
    case 'EISDIR':
      return vscode.FileSystemError.FileIsADirectory(uri);
    case 'EACCES':
    case 'EPERM':
      return vscode.FileSystemError.NoPermissions(uri);
    default:
      return e instanceof Error ? e : new Error(String(e));
  }
}

/**
 * Every method is async, as a real provider's are: VS Code's extension host queues
 * `workspace.fs.writeFile` through a provider of its own host behind
 * `Promise.resolve(provider.writeFile(...))`, and a writeFile that throws synchronously
 * there leaves that call pending forever.
 */
export class FaultFs implements vscode.FileSystemProvider {
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;
  private arm: Arm | undefined;
  private count = 0;
  private log: OpLog = { ops: [] };

  constructor(private readonly root: string) {}

  private real(uri: vscode.Uri): string {
    const p = path.posix.normalize(uri.path);
    if (!p.startsWith('/') || p.split('/').includes('..')) {
      throw vscode.FileSystemError.NoPermissions(uri);
    }
    return path.join(this.root, p);
  }

  setArm(a: Arm | undefined): OpLog {
    const was = this.log;
    this.arm = a;
    this.count = 0;
    this.log = { ops: [] };
    return was;
  }

  /** Counts a mutating operation, and fails it when the armed fault says so. */
  private mutate(op: string, uri: vscode.Uri): void {
    this.count++;
    const a = this.arm;
    const failed = a !== undefined && (a.mode === 'once' ? this.count === a.k : this.count >= a.k);
    this.log.ops.push({ op, path: uri.path, failed });
    if (process.env.AFT_VFS_TRACE) {
      console.log(`[aft] op ${this.count} ${op} ${uri.path}${failed ? ' FAILED' : ''}`);
    }
    if (failed) {
      throw faultFor(a.kind, uri, op);
    }
  }

  watch(): vscode.Disposable {
    // every change goes through this provider, which reports it when it makes it
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    let s: fs.Stats;
    try {
      s = fs.statSync(this.real(uri));
    } catch (e) {
      throw fsError(e, uri);
    }
    return {
      type: s.isDirectory() ? vscode.FileType.Directory : s.isFile() ? vscode.FileType.File : vscode.FileType.Unknown,
      ctime: s.ctimeMs,
      mtime: s.mtimeMs,
      size: s.size,
    };
  }

  async readDirectory(uri: vscode.Uri): Promise<[string, vscode.FileType][]> {
    try {
      return fs
        .readdirSync(this.real(uri), { withFileTypes: true })
        .map((d) => [d.name, d.isDirectory() ? vscode.FileType.Directory : d.isFile() ? vscode.FileType.File : vscode.FileType.Unknown]);
    } catch (e) {
      throw fsError(e, uri);
    }
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    try {
      return fs.readFileSync(this.real(uri));
    } catch (e) {
      throw fsError(e, uri);
    }
  }

  async createDirectory(uri: vscode.Uri): Promise<void> {
    const p = this.real(uri);
    this.mutate('createDirectory', uri);
    try {
      fs.mkdirSync(p);
    } catch (e) {
      throw fsError(e, uri);
    }
    this.emitter.fire([{ type: vscode.FileChangeType.Created, uri }]);
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array, options: { create: boolean; overwrite: boolean }): Promise<void> {
    const p = this.real(uri);
    const exists = fs.existsSync(p);
    if (!exists && !options.create) {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
    if (exists && !options.overwrite) {
      throw vscode.FileSystemError.FileExists(uri);
    }
    if (!fs.existsSync(path.dirname(p))) {
      throw vscode.FileSystemError.FileNotFound(uri.with({ path: path.posix.dirname(uri.path) }));
    }
    this.mutate('writeFile', uri);
    try {
      fs.writeFileSync(p, content);
    } catch (e) {
      throw fsError(e, uri);
    }
    this.emitter.fire([{ type: exists ? vscode.FileChangeType.Changed : vscode.FileChangeType.Created, uri }]);
  }

  async delete(uri: vscode.Uri, options: { recursive: boolean }): Promise<void> {
    const p = this.real(uri);
    if (!fs.existsSync(p)) {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
    this.mutate('delete', uri);
    try {
      if (!options.recursive && fs.statSync(p).isDirectory()) {
        fs.rmdirSync(p);
      } else {
        fs.rmSync(p, { recursive: options.recursive });
      }
    } catch (e) {
      throw fsError(e, uri);
    }
    this.emitter.fire([{ type: vscode.FileChangeType.Deleted, uri }]);
  }

  async rename(from: vscode.Uri, to: vscode.Uri, options: { overwrite: boolean }): Promise<void> {
    const a = this.real(from);
    const b = this.real(to);
    if (!fs.existsSync(a)) {
      throw vscode.FileSystemError.FileNotFound(from);
    }
    if (fs.existsSync(b) && !options.overwrite) {
      throw vscode.FileSystemError.FileExists(to);
    }
    this.mutate('rename', from);
    try {
      fs.renameSync(a, b);
    } catch (e) {
      throw fsError(e, from);
    }
    this.emitter.fire([
      { type: vscode.FileChangeType.Deleted, uri: from },
      { type: vscode.FileChangeType.Created, uri: to },
    ]);
  }
}

/** Registers the scheme over AFT_VFS_ROOT; the provider is how the tests arm a fault. */
export function registerFaultFs(): { provider: FaultFs; registration: vscode.Disposable } {
  const root = process.env.AFT_VFS_ROOT;
  if (!root) {
    throw new Error('AFT_VFS_ROOT is not set: the vfs suite runner sets it to the folder behind aftfault:/');
  }
  const provider = new FaultFs(root);
  return { provider, registration: vscode.workspace.registerFileSystemProvider(SCHEME, provider, { isCaseSensitive: true }) };
}
