import type { Root } from '../core/paths';
import type { ProcessHost } from '../core/process';
import type { NotebookCell } from '../core/read/notebook';

export type EntryType = 'file' | 'directory' | 'symlink' | 'other';

export interface FileStat {
  /** The target's type when the path is a symlink ("symlink" only when the link is dangling). */
  type: EntryType;
  size: number;
  mtimeMs: number;
  isSymlink: boolean;
}

export interface DirEntry {
  name: string;
  /** The entry's own type: a symlink is "symlink", not followed. */
  type: EntryType;
}

/** An editor's view of a file: the truth for its path while it is open. */
export interface OpenDocument {
  text: string;
  isDirty: boolean;
  /** Editor encoding id mapped to ours ("utf-8", "utf-8-bom", ...). */
  encoding: string;
  /** "LF" or "CRLF": an editor buffer has one line ending. */
  eol: 'LF' | 'CRLF';
}

/**
 * The seam between the tools and the world. Paths are absolute, in the platform's form.
 * Two implementations: VS Code (workspace.fs + open documents) and Node (node:fs), so
 * every tool runs the same in the extension, the CLI, unit tests and benchmarks.
 */
export interface Workspace {
  roots(): readonly Root[];
  isTrusted(): boolean;
  /** Resolves symlinks and ".."; for a missing path, of its deepest existing ancestor. */
  realpath(path: string): Promise<string>;
  /** Follows symlinks; undefined when nothing is there. */
  stat(path: string): Promise<FileStat | undefined>;
  readDirectory(path: string): Promise<DirEntry[]>;
  /** The entries one by one, as the file system gives them: stopping early reads no more. */
  iterateDirectory(path: string): AsyncIterable<DirEntry>;
  readFile(path: string): Promise<Uint8Array>;
  /** The file's bytes from `start`, in chunks; stopping the iteration closes the file. */
  readStream(path: string, start?: number): AsyncIterable<Uint8Array>;
  /** The open editor document for the path, if any (dirty or not). */
  openDocument(path: string): OpenDocument | undefined;
  /** The open notebook for the path, if any: its cells as the editor holds them. */
  openNotebook(path: string): { cells: NotebookCell[]; isDirty: boolean } | undefined;
  /** Absolute paths and texts of every open document with unsaved changes. */
  dirtyDocuments(): { path: string; text: string }[];
  /**
   * Globs the editor's settings hide under a folder, relative to it: `files.exclude`,
   * plus `search.exclude` when `purpose` is "search". Empty outside VS Code.
   */
  excludeGlobs(purpose: 'files' | 'search', root: Root): readonly string[];
  /** Runs programs (ripgrep, git) on the machine the files are on. */
  readonly processes: ProcessHost;
  /** Whether the path is on this machine's disk, where programs can read it (not a virtual folder). */
  onDisk(path: string): boolean;
  /** The ripgrep executable shipped with the editor, if there is one. */
  bundledRipgrep(): string | undefined;
  /** Where a symlink points, as stored in the link; undefined when it cannot be read. */
  readLink(path: string): Promise<string | undefined>;
}
