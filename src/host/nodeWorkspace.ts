import { createReadStream } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { CancelSignal } from '../core/cancel';
import type { Root } from '../core/paths';
import type { NotebookCell } from '../core/read/notebook';
import { LINE_SCAN_CHUNK_BYTES_SYNC, STREAM_CHUNK_BYTES } from '../core/limits';
import type { OpenedFile, OpenOptions } from '../core/file';
import { iterateLocalDirectory, localMtimes, readLocalDirectory, readLocalNames } from './localDirectory';
import { openLocalFileNow } from './localFile';
import { localStatNow } from './localStat';
import { OWN_PROCESSES } from './process';
import { realpathLenient, realpathNative } from './realpath';
import { applyOnDisk } from './nodeApply';
import { GitDirectoryProbe, localEntryExists, localIsFile } from './gitDirectory';
import { Volumes } from './volume';
import { neighboursEol } from './lineEndings';
import type { NameComparison } from '../core/names';
import type { GitDirectories } from '../core/gitDirectory';
import type { ApplyOptions, ApplyReport, CheckState, Diagnostic, DirEntry, FileChange, FileStat, NamedEntries, OpenDocument, Workspace } from './workspace';

/** Why no change here is checked for errors, said once per workspace (and in the CLI's --help). */
export const NO_CHECKER = 'no language server runs outside VS Code';

/** The workspace on node:fs: one or more folders, no editors; trusted unless told otherwise (the CLI's --untrusted). */
export class NodeWorkspace implements Workspace {
  private readonly rootList: Root[];
  readonly processes = OWN_PROCESSES;
  /** As VS Code's workspace trust: an untrusted workspace runs no program the workspace could steer. */
  trusted = true;

  /** Each folder's volume, asked once how it compares names. */
  protected readonly volumes = new Volumes();

  constructor(roots: Root[]) {
    this.rootList = roots.map((r) => ({ ...r, names: r.names ?? this.volumes.folder(r.path) }));
  }

  /** Roots are resolved to their real paths (each name as on disk) so that policy compares like with like. */
  static async create<T extends NodeWorkspace>(this: new (roots: Root[]) => T, folders: readonly string[]): Promise<T> {
    const roots: Root[] = [];
    for (const f of folders) {
      const real = realpathNative(path.resolve(f));
      roots.push({ name: path.basename(real), path: real });
    }
    return new this(roots);
  }

  roots(): readonly Root[] {
    return this.rootList;
  }

  isTrusted(): boolean {
    return this.trusted;
  }

  // The small questions of the disk (a real path, a stat, opening a file) are asked with
  // node's synchronous calls: the CLI runs one call at a time, and each answer takes
  // microseconds, less than a round trip through the thread pool (see openLocalFileNow).
  async realpath(p: string): Promise<string> {
    return this.volumes.spellOnDisk(await realpathLenient(p, async (x) => realpathNative(x)), this.rootList);
  }

  names(p: string): NameComparison {
    return this.volumes.of(p, this.rootList);
  }

  stat(p: string): Promise<FileStat | undefined> {
    return localStatNow(p);
  }

  mtimes(paths: readonly string[], signal?: CancelSignal): Promise<number[]> {
    return localMtimes(paths, signal);
  }

  readDirectory(p: string): Promise<DirEntry[]> {
    return readLocalDirectory(p);
  }

  readDirectoryNames(p: string): Promise<DirEntry[] | NamedEntries> {
    return readLocalNames(p);
  }

  iterateDirectory(p: string): AsyncIterable<DirEntry> {
    return iterateLocalDirectory(p);
  }

  async readFile(p: string): Promise<Uint8Array> {
    return fs.readFile(p);
  }

  openFile(p: string, opts?: OpenOptions): Promise<OpenedFile | undefined> {
    return openLocalFileNow(p, opts);
  }

  presentNow(p: string): boolean {
    return localEntryExists(p);
  }

  readStream(p: string, start = 0): AsyncIterable<Uint8Array> {
    return createReadStream(p, { start, highWaterMark: STREAM_CHUNK_BYTES });
  }

  openDocument(_path: string): OpenDocument | undefined {
    return undefined;
  }

  readonly notebooksAsCells = false;

  // reads here are synchronous calls (see openLocalFileNow)
  readonly lineScanChunkBytes = LINE_SCAN_CHUNK_BYTES_SYNC;

  openNotebook(_path: string): { cells: NotebookCell[]; isDirty: boolean } | undefined {
    return undefined;
  }

  dirtyDocuments(): { path: string; text: string }[] {
    return [];
  }

  excludeGlobs(): readonly string[] {
    return [];
  }

  onDisk(_path: string): boolean {
    return true;
  }

  bundledRipgrep(): string | undefined {
    return undefined;
  }

  async readLink(p: string): Promise<string | undefined> {
    try {
      return await fs.readlink(p);
    } catch {
      return undefined;
    }
  }

  gitDirectories(): GitDirectories {
    return new GitDirectoryProbe(localEntryExists, localIsFile);
  }

  applyChanges(changes: readonly FileChange[], opts: ApplyOptions): Promise<ApplyReport> {
    return applyOnDisk(changes, opts);
  }

  /** The line ending most files near it use (see neighboursEol), else LF. */
  newFileEol(p: string): 'LF' | 'CRLF' {
    const root = this.rootList.find((r) => p.startsWith(r.path));
    return neighboursEol(p, root?.path) ?? 'LF';
  }

  async format(): Promise<boolean> {
    return false;
  }

  diagnostics(_path: string): Diagnostic[] {
    return [];
  }

  filesWithErrors(): { path: string; errors: number }[] {
    return [];
  }

  /**
   * Whether the change results said already that no checker runs here: the first change
   * of this workspace says it, later ones not; the CLI, which says it in --help, sets it.
   */
  uncheckedSaid = false;

  async settleDiagnostics(paths: readonly string[]): Promise<Map<string, CheckState>> {
    const state: CheckState = this.uncheckedSaid ? { checked: false, reason: NO_CHECKER, said: true } : { checked: false, reason: NO_CHECKER };
    this.uncheckedSaid ||= paths.length > 0;
    return new Map(paths.map((p) => [p, state] as const));
  }
}
